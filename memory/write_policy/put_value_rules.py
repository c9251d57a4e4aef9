"""What one put's value must carry and how big it may be: provenance and size.

These are the gate's per-value rules, kept apart from ``MemoryGate`` (gate.py),
which decides *whether* a write may happen (scope, consent, read-only knowledge)
and is still the only caller: a value reaches the raw store only after the gate has
run both checks below on it (already redacted).
"""

from __future__ import annotations

import json
from typing import Any

from memory.write_policy.refusals import MissingProvenance, TooLarge
from stores.namespaces import MESSAGES, SETTINGS, THREADS
from stores.redaction.scrub import strings_in

BOOKKEEPING = frozenset({SETTINGS, THREADS})
MAX_VALUE_BYTES = 256 * 1024  # one item as JSON; a logged message with its neighbours is ~25 KB at most
MAX_STRING_CHARS = 64 * 1024  # one string in a value


def check_provenance(ns: tuple[str, ...], key: str, value: dict[str, Any]) -> None:
    """Raise ``MissingProvenance`` unless the value says where it came from.

    A logged message is its own source (its ``id``); any other memory lists the
    message ids it came from (``sources``); bookkeeping (settings, threads) needs neither.
    """
    kind = ns[2] if len(ns) > 2 else None
    if kind in BOOKKEEPING:
        return
    if kind == MESSAGES:
        if not (isinstance(value.get("id"), str) and value["id"]):
            raise MissingProvenance(f"logged message {key!r} has no 'id' (its provenance); nothing was saved")
        return
    sources = value.get("sources")
    if not (isinstance(sources, list) and sources and all(isinstance(s, str) and s for s in sources)):
        raise MissingProvenance(
            f"{kind or 'memory'} {key!r} has no 'sources' (the message ids it came from); nothing was saved"
        )


def check_size(ns: tuple[str, ...], key: str, value: dict[str, Any], *, max_string_chars: int,
               max_value_bytes: int) -> None:
    """Raise ``TooLarge`` when one string in the value, or the whole value as JSON, is over its limit."""
    longest = max((len(s) for s in strings_in(value)), default=0)
    if longest > max_string_chars:
        raise TooLarge(f"a text in {ns[-1]} {key!r} is {longest} characters; the limit is "
                       f"{max_string_chars}; nothing was saved")
    size = len(json.dumps(value, ensure_ascii=False, default=str).encode("utf-8"))
    if size > max_value_bytes:
        raise TooLarge(f"{ns[-1]} {key!r} is {size} bytes as JSON; the limit is {max_value_bytes}; "
                       "nothing was saved")
