"""Conversation import: a JSONL file of past messages becomes long-term memory.

Contract (DESIGN §7): one message a line,
``{"thread", "id", "time" (ISO-8601), "role" ("user"|"assistant"), "name"?, "text"}``.
Every line is validated before anything is written, so a typo on line 9,000 does
not leave 8,999 messages behind. Each thread is replayed through every layer as
one past session: ``on_turn`` with the whole thread, then ``on_session_end``.
Writes go through a recording store; if any layer fails, what the import wrote
is undone (new keys deleted, overwritten values restored), so an import is all
or nothing.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langgraph.store.base import BaseStore, GetOp, Item, Op, PutOp, Result
from tqdm import tqdm

from nodes.jsonl import JsonlLineError, json_object
from nodes.layers.base import LayerEnv, LoggedMessage, MemoryLayer
from nodes.layers.scoring import parse_time

ROLES = ("user", "assistant")


class ImportLineError(JsonlLineError):
    """A malformed import line; nothing was stored."""

    suffix = "; nothing was imported"


@dataclass(frozen=True)
class ImportReport:
    """What an import stored: counts for the CLI to print."""

    messages: int
    threads: int
    layers: tuple[str, ...]

    def __str__(self) -> str:
        return f"imported {self.messages} messages in {self.threads} threads ({', '.join(self.layers)})"


def _required_str(obj: dict[str, Any], field: str, allow_empty: bool = False) -> str:
    if field not in obj:
        raise ValueError(f"missing field {field!r}")
    value = obj[field]
    if not isinstance(value, str):
        raise ValueError(f"field {field!r} must be a string, got {type(value).__name__}")
    if not allow_empty and not value.strip():
        raise ValueError(f"field {field!r} is empty")
    return value


def parse_message(line: str) -> LoggedMessage:
    """One import line as a message; ``ValueError`` says what is wrong with it."""
    obj = json_object(line)
    role = _required_str(obj, "role")
    if role not in ROLES:
        raise ValueError(f"field 'role' must be 'user' or 'assistant', got {role!r}")
    raw_time = _required_str(obj, "time")
    try:
        time = parse_time(raw_time)
    except ValueError:
        raise ValueError(f"field 'time' is not ISO-8601: {raw_time!r}") from None
    name = obj.get("name")
    if name is not None and not isinstance(name, str):
        raise ValueError("field 'name' must be a string when given")
    assert time is not None
    return LoggedMessage(
        id=_required_str(obj, "id"),
        thread=_required_str(obj, "thread"),
        time=time,
        role=role,  # type: ignore[arg-type]  # checked against ROLES above
        text=_required_str(obj, "text", allow_empty=True),
        name=name or None,
    )


def parse_import(lines: Iterable[str], source: str = "<input>") -> list[LoggedMessage]:
    """Every line validated (blank lines skipped); the first bad one raises ``ImportLineError``."""
    messages: list[LoggedMessage] = []
    seen: dict[str, int] = {}
    for line_no, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            msg = parse_message(line)
        except ValueError as exc:
            raise ImportLineError(source, line_no, str(exc)) from None
        if msg.id in seen:
            raise ImportLineError(source, line_no, f"duplicate id {msg.id!r} (first on line {seen[msg.id]})")
        seen[msg.id] = line_no
        messages.append(msg)
    return messages


def group_threads(messages: Sequence[LoggedMessage]) -> list[list[LoggedMessage]]:
    """Threads in time order (by first message), each in time order; ties keep file order."""
    threads: dict[str, list[LoggedMessage]] = {}
    for msg in messages:
        threads.setdefault(msg.thread, []).append(msg)
    ordered = [sorted(msgs, key=lambda m: m.time) for msgs in threads.values()]
    return sorted(ordered, key=lambda msgs: msgs[0].time)


class RecordingStore(BaseStore):
    """A pass-through store that remembers, per key, what was there before the first write.

    Layers write however they like (put, delete, batch); ``rollback`` puts every
    touched key back as it was. Undo by snapshot rather than by deleting "our" keys,
    because a layer may legitimately overwrite an existing memory (a fact update),
    and a failed import must leave that memory as it was.
    """

    def __init__(self, inner: BaseStore) -> None:
        self._inner = inner
        self._before: dict[tuple[tuple[str, ...], str], Item | None] = {}
        self._index: dict[tuple[tuple[str, ...], str], Any] = {}
        # Keep TTL support visible to callers: BaseStore.put checks it on self.
        self.supports_ttl = inner.supports_ttl
        self.ttl_config = getattr(inner, "ttl_config", None)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def _snapshot(self, ops: Sequence[Op]) -> None:
        fresh = []
        for op in ops:
            if isinstance(op, PutOp) and (op.namespace, op.key) not in self._before:
                fresh.append((op.namespace, op.key))
                self._index[(op.namespace, op.key)] = op.index
        if fresh:
            unique = list(dict.fromkeys(fresh))
            found = self._inner.batch([GetOp(ns, key) for ns, key in unique])
            for ref, item in zip(unique, found):
                self._before[ref] = item  # type: ignore[assignment]

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        self._snapshot(ops)
        return self._inner.batch(ops)

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        # Layers run synchronously during an import; the async path reuses the sync one.
        return self.batch(ops)

    def rollback(self) -> None:
        """Restore every key this store wrote to its state before the first write."""
        undo: list[Op] = []
        for (ns, key), item in self._before.items():
            if item is None:
                undo.append(PutOp(ns, key, None))
            else:
                undo.append(PutOp(ns, key, item.value, index=self._index[(ns, key)]))
        if undo:
            self._inner.batch(undo)
        self._before.clear()


def import_jsonl(
    path: str | Path,
    env: LayerEnv,
    layers: Sequence[MemoryLayer],
    progress: bool = True,
) -> ImportReport:
    """Import a conversation file into every layer; all or nothing."""
    path = Path(path)
    with path.open(encoding="utf-8") as fh:
        messages = parse_import(fh, source=str(path))
    return import_messages(messages, env, layers, progress=progress)


def import_messages(
    messages: Sequence[LoggedMessage],
    env: LayerEnv,
    layers: Sequence[MemoryLayer],
    progress: bool = True,
) -> ImportReport:
    """Replay validated messages thread by thread; undo every write if a layer fails."""
    threads = group_threads(messages)
    recorder = RecordingStore(env.store)
    bar = tqdm(
        total=len(messages),
        unit="msg",
        desc="import",
        file=sys.stderr,
        disable=not progress or not sys.stderr.isatty(),
    )
    try:
        for thread in threads:
            # A past session is consolidated as of its own end, not as of today.
            session_env = dataclasses.replace(env, store=recorder, now=thread[-1].time, state={})
            for layer in layers:
                layer.on_turn(session_env, thread)
            for layer in layers:
                layer.on_session_end(session_env, thread)
            bar.update(len(thread))
    except BaseException:
        recorder.rollback()
        raise
    finally:
        bar.close()
    return ImportReport(
        messages=len(messages),
        threads=len(threads),
        layers=tuple(layer.name for layer in layers),
    )
