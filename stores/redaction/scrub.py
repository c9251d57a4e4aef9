"""Walking whole objects (a message, a state update, a checkpoint): redact every string, or list them.

``redact`` works on one string; what enters thread state and checkpoints is
nested (messages with content blocks and tool-call arguments, dicts, lists), so
this walks it and returns a copy with every string redacted. Objects with
nothing to redact come back as they are (no copy), which keeps the walk cheap
on checkpoints that are written after every step.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator, Mapping
from functools import lru_cache
from typing import Any

from langchain_core.messages import BaseMessage
from pydantic import BaseModel

from stores.redaction.secrets import find_secrets, redact

_MARK = re.compile(r"\[REDACTED:([a-z_]+)\]")  # what ``redact`` leaves in place of a secret
_CACHED_CHARS = 20_000  # longer strings are redacted without caching


@lru_cache(maxsize=8192)
def _redacted_cached(text: str) -> str | None:
    return redact(text) if find_secrets(text) else None


def redact_string(text: str) -> str:
    """``text`` redacted, or the very same object when it holds no secret."""
    out = _redacted_cached(text) if len(text) <= _CACHED_CHARS else (redact(text) if find_secrets(text) else None)
    return text if out is None else out


def redact_deep(obj: Any) -> Any:
    """A copy of ``obj`` with every string in it redacted; ``obj`` itself when clean."""
    return map_strings(obj, redact_string)


def map_strings(obj: Any, fn: Callable[[str], str]) -> Any:
    """A copy of ``obj`` with ``fn`` applied to every string in it; ``obj`` itself when ``fn``
    changes none (``fn`` returns the very same string object for one it leaves alone).
    """
    if isinstance(obj, str):
        return fn(obj)
    if isinstance(obj, dict):  # keys too: a client's metadata or a store value may name a secret in one
        pairs = [(fn(k) if isinstance(k, str) else k, map_strings(v, fn)) for k, v in obj.items()]
        if all(k2 is k and v2 is v for (k2, v2), (k, v) in zip(pairs, obj.items())):
            return obj
        return dict(pairs)
    if isinstance(obj, (list, tuple)):
        seq = [map_strings(v, fn) for v in obj]
        if all(a is b for a, b in zip(seq, obj)):
            return obj
        return seq if isinstance(obj, list) else _same_tuple(obj, seq)
    if isinstance(obj, BaseModel):
        update = {}
        for name in type(obj).model_fields:
            value = getattr(obj, name, None)
            clean = map_strings(value, fn)
            if clean is not value:
                update[name] = clean
        return obj.model_copy(update=update) if update else obj
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        update = {}
        for f in dataclasses.fields(obj):
            value = getattr(obj, f.name, None)
            clean = map_strings(value, fn)
            if f.init and clean is not value:
                update[f.name] = clean
        try:
            return dataclasses.replace(obj, **update) if update else obj
        except (TypeError, ValueError):
            return obj
    return obj


def _same_tuple(original: tuple[Any, ...], items: list[Any]) -> tuple[Any, ...]:
    if hasattr(original, "_fields"):  # a named tuple
        return type(original)(*items)
    return tuple(items)


def secret_kinds(text: str) -> list[str]:
    """The kinds of secret in ``text``, each once, in order of appearance."""
    return list(dict.fromkeys(kind for _, _, kind in find_secrets(text)))


def redact_message(message: BaseMessage) -> tuple[BaseMessage, list[str]]:
    """The message with its secrets removed (same id, so it replaces the original in
    state), and the kinds that were removed.
    """
    kinds = secret_kinds(message.text)
    if not kinds:
        return message, []
    return redact_deep(message), kinds


def redacted_kinds(text: str) -> list[str]:
    """The kinds of the ``[REDACTED:<kind>]`` marks already in ``text``, each once."""
    return list(dict.fromkeys(_MARK.findall(text)))


def removed_notice(kinds: list[str]) -> str:
    """The one line the user is told about what left their message."""
    names = ", ".join(k.replace("_", " ") for k in kinds)
    return f"Removed from your message before it was stored or shown to the model: {names}."


def strings_in(obj: Any) -> Iterator[str]:
    """Every string inside a JSON value, a message object or a checkpoint."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, bytes):
        yield obj.decode("utf-8", "replace")
    elif isinstance(obj, Mapping):
        for key, value in obj.items():
            yield from strings_in(key)
            yield from strings_in(value)
    elif isinstance(obj, (list, tuple, set, frozenset)):
        for value in obj:
            yield from strings_in(value)
    elif isinstance(obj, BaseModel):
        yield from strings_in(obj.model_dump())
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        yield from strings_in(dataclasses.asdict(obj))
    elif obj is not None and not isinstance(obj, (bool, int, float)):
        yield str(obj)
