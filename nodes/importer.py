"""Conversation import: a JSONL file of past messages becomes long-term memory.

Contract (docs/architecture.md, "Public contracts"): one message a line,
``{"thread", "id", "time" (ISO-8601), "role" ("user"|"assistant"), "name"?, "text"}``,
other fields ignored; ``ImportLine`` is that contract as a pydantic model.
Every line is validated before anything is written, so a typo on line 9,000 does
not leave 8,999 messages behind; the error names the file, the line and the field.
A message's text obeys the chat's own input rules (nodes/input_check.py: not
empty, no NUL, not only control characters, at most ``max_message_chars``), and
the file is streamed with a byte cap per line (``line_byte_cap``), so a 50 MB line
is refused after reading the cap, before any JSON parsing. Each
thread is replayed through every layer as one past session: ``on_turn`` with the
whole thread, then ``on_session_end``.
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
from typing import Any, Literal

from langgraph.store.base import BaseStore, GetOp, Item, Op, PutOp, Result
from pydantic import BaseModel, ConfigDict
from tqdm import tqdm

from memory.jsonl import IsoTime, JsonlLineError, NonBlankStr, line_byte_cap, parse_lines, read_lines
from memory.layers.base import LayerEnv, LoggedMessage, MemoryLayer
from nodes.input_check import InvalidInput, check_text
from stores.redaction.names import SecretInIdentifier, check_identifier


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


class ImportLine(BaseModel):
    """One line of a conversation import (other fields are ignored)."""

    model_config = ConfigDict(frozen=True)

    thread: NonBlankStr
    id: NonBlankStr
    time: IsoTime
    role: Literal["user", "assistant"]
    name: str | None = None
    text: str

    def to_message(self) -> LoggedMessage:
        """The message as the layers see it; an empty name counts as no name."""
        return LoggedMessage(
            id=self.id, thread=self.thread, time=self.time, role=self.role, text=self.text, name=self.name or None
        )


def parse_import(lines: Iterable[str], source: str = "<input>", max_chars: int | None = None) -> list[LoggedMessage]:
    """Every line validated (blank lines skipped); the first bad one raises ``ImportLineError``.

    ``max_chars`` is the longest text accepted (None: no length limit; the other input rules hold).
    """
    messages: list[LoggedMessage] = []
    seen: dict[str, int] = {}
    for line_no, line in parse_lines(lines, ImportLine, source, ImportLineError):
        try:
            check_text(line.text, max_chars if max_chars is not None else len(line.text))
        except InvalidInput as err:
            raise ImportLineError(source, line_no, f"field 'text': {err}") from None
        for field_name in ("thread", "id"):  # kept as they are: one holding a secret is refused
            try:
                check_identifier(getattr(line, field_name), f"field {field_name!r}")
            except SecretInIdentifier as err:
                raise ImportLineError(source, line_no, str(err)) from None
        if line.id in seen:
            raise ImportLineError(
                source, line_no, f"field 'id': duplicate id {line.id!r} (first on line {seen[line.id]})"
            )
        seen[line.id] = line_no
        messages.append(line.to_message())
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
    messages = read_import(path, env.context.max_message_chars)
    return import_messages(messages, env, layers, progress=progress)


def read_import(path: str | Path, max_chars: int) -> list[LoggedMessage]:
    """A conversation file, streamed and validated whole (texts of at most ``max_chars``)."""
    lines = read_lines(path, line_byte_cap(max_chars), ImportLineError)
    return parse_import(lines, source=str(path), max_chars=max_chars)


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
