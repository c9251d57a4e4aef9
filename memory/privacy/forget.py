"""Forgetting: delete what matches a text, or everything about a user, for real.

"Forget that I live in Berlin" must reach every copy: the fact, the profile
and its history, the episode that summarised the session, rules, the raw
message log, lines in the user's memory files, and the checkpointed threads
that still hold the turn. Deleting rows is not enough: SQLite keeps deleted
bytes in free pages and in its WAL, and FAISS files keep removed vectors until
rewritten, so every operation ends by scrubbing what held the user's data and
nothing else: the store's ``scrub(prefix)`` when it has one (rewrites only the
user's FAISS partitions, merges the FTS index, truncates the WAL), and on the
checkpoint file ``secure_delete`` (set before threads are deleted, so their
rows are zeroed in place) plus ``wal_checkpoint(TRUNCATE)``. No VACUUM, which
would rewrite every user's data to remove one user's, unless the checkpoint
connection was not zeroing deletes before (then old free space may hold the text).

Only the user's own namespaces, folder and recorded threads are touched: a
thread is found through the user's THREADS records, never by scanning other
users' checkpoints for the text. Without a checkpointer (the ``forget`` tool a
model calls inside a turn) threads are not deleted; ``ForgetReport.threads_kept``
says so, and the tool's answer passes it on.
"""

from __future__ import annotations

import sqlite3
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.store.base import BaseStore

from memory.layers.base import LayerEnv
from memory.layers.message_log import MessageLogLayer
from memory.layers.message_text import own_text
from memory.privacy.export import iter_items
from memory.privacy.forget_people import forget_people, would_forget_people
from memory.tools.memory_files import MemoryFiles
from stores.namespaces import (
    EPISODES,
    FACTS,
    MESSAGES,
    PEOPLE,
    PROFILE,
    PROFILE_HISTORY,
    RULES,
    TASKS,
    THREADS,
    UserScope,
)
from stores.redaction.scrub import strings_in

DEFAULT_THRESHOLD = 0.85
MIN_FORGET_CHARS = 3
SEARCHED_KINDS = (FACTS, PROFILE, PROFILE_HISTORY, EPISODES, RULES, MESSAGES, TASKS)
_NEAR_PAGE = 50
THREADS_KEPT = (
    "Conversation threads were not searched from here and may still hold it; "
    "run /forget in the chat or `memory-agent forget` to delete those threads too."
)


@dataclass(frozen=True)
class UserData:
    """Where one user's data lives: the store, the scope, the data dir, the checkpointer."""

    store: BaseStore
    scope: UserScope
    data_dir: Path | None = None
    checkpointer: BaseCheckpointSaver | None = None

    @classmethod
    def of(cls, target: UserData | LayerEnv, checkpointer: BaseCheckpointSaver | None = None) -> UserData:
        """Accept a ``LayerEnv`` (data dir read from its context) or a ``UserData``."""
        if isinstance(target, UserData):
            return target if checkpointer is None else cls(target.store, target.scope, target.data_dir, checkpointer)
        data_dir = getattr(target.context, "data_dir", None)
        return cls(target.store, target.scope, Path(data_dir) if data_dir else None, checkpointer)


@dataclass
class ForgetReport:
    """What was deleted: store keys per kind, memory-file edits, threads, scrubbing."""

    action: str
    deleted: dict[str, list[str]] = field(default_factory=dict)
    files: dict[str, int] = field(default_factory=dict)  # path -> lines removed, -1 = whole file
    threads: list[str] = field(default_factory=list)
    scrubbed: list[str] = field(default_factory=list)
    threads_kept: bool = False  # no checkpointer was given, so conversations were not searched

    def counts(self) -> dict[str, int]:
        out = {kind: len(keys) for kind, keys in self.deleted.items() if keys}
        if self.files:
            out["memory_files"] = len(self.files)
        if self.threads:
            out["threads"] = len(self.threads)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "counts": self.counts(), "deleted": self.deleted,
                "files": self.files, "threads": self.threads, "scrubbed": self.scrubbed,
                "threads_kept": self.threads_kept}

    def __str__(self) -> str:
        counts = self.counts()
        if not counts:
            line = f"{self.action}: nothing matched, nothing deleted."
        else:
            line = f"{self.action}: deleted " + ", ".join(f"{n} {kind}" for kind, n in counts.items()) + "."
        return line + (f" {THREADS_KEPT}" if self.threads_kept else "")


def _mentions(obj: Any, needle: str) -> bool:
    return any(needle in s.casefold() for s in strings_in(obj))


def _thread_mentions(saver: BaseCheckpointSaver, thread_id: str, needle: str) -> bool:
    """Does any checkpoint or pending write of the thread contain ``needle``?"""
    for tup in saver.list({"configurable": {"thread_id": thread_id}}):
        if _mentions(tup.checkpoint.get("channel_values"), needle) or _mentions(tup.metadata, needle):
            return True
        if _mentions([w[2] for w in tup.pending_writes or []], needle):
            return True
    return False


def _near_keys(store: BaseStore, ns: tuple[str, ...], text: str, threshold: float) -> set[tuple[tuple[str, ...], str]]:
    """Items whose embedding cosine with ``text`` is at least ``threshold``.

    Pages on while a page still holds a close item: a store may rank by fused
    dense + lexical rank (ours does) rather than by the cosine it reports, so
    one far item does not mean that every later one is farther.
    """
    found: set[tuple[tuple[str, ...], str]] = set()
    offset = 0
    while True:
        page = store.search(ns, query=text, limit=_NEAR_PAGE, offset=offset, refresh_ttl=False)
        close = [r for r in page if r.score is not None and r.score >= threshold]
        found.update((tuple(r.namespace), r.key) for r in close)
        if len(page) < _NEAR_PAGE or not close:
            return found
        offset += _NEAR_PAGE


def _own_text(kind: str, value: Any) -> Any:
    """What an item says itself: a logged message's index also quotes its neighbours."""
    if kind == MESSAGES and isinstance(value, dict):
        return own_text(value)
    return value


def _forget_messages(store: BaseStore, scope: UserScope, keys: list[str]) -> None:
    """Delete logged messages the way the log wants: neighbours are re-indexed, not deleted."""
    if keys:
        MessageLogLayer().forget(LayerEnv(store=store, scope=scope, context=None, embeddings=None), keys)  # type: ignore[arg-type]


def secure_delete_on(checkpointer: BaseCheckpointSaver | None) -> bool:
    """Make the checkpoint connection zero what it deletes (a per-connection setting).

    Returns True when it was off: earlier deletes and updates may then have left
    text in free space, which only a VACUUM removes (ours is always on).
    """
    conn = getattr(checkpointer, "conn", None)
    if not isinstance(conn, sqlite3.Connection):
        return False
    was_on = conn.execute("PRAGMA secure_delete").fetchone()[0] == 1
    conn.execute("PRAGMA secure_delete=ON")
    return not was_on


def scrub(
    store: BaseStore, checkpointer: BaseCheckpointSaver | None, scope: UserScope, *, vacuum: bool = False
) -> list[str]:
    """Make deleted bytes leave the disk, touching only what held ``scope``'s data
    (``vacuum``: also rewrite the checkpoint file, see ``secure_delete_on``).
    """
    done = []
    scoped = getattr(store, "scrub", None)
    if callable(scoped):
        scoped(scope.root)
        done.append("store")
    conn = getattr(checkpointer, "conn", None)
    if isinstance(conn, sqlite3.Connection):
        # SqliteSaver serialises its own use of the connection with ``lock``.
        lock = getattr(checkpointer, "lock", None)
        with lock if hasattr(lock, "__enter__") else nullcontext():
            conn.commit()
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            if vacuum:
                conn.execute("VACUUM")
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        done.append("checkpoints")
    elif callable(getattr(checkpointer, "scrub", None)):  # a server-backed saver (stores/postgres/checkpoint.py)
        checkpointer.scrub()  # type: ignore[union-attr]
        done.append("checkpoints")
    return done


def _matching(
    store: BaseStore, scope: UserScope, text: str, threshold: float
) -> dict[str, set[tuple[tuple[str, ...], str]]]:
    """Per searched kind, the (namespace, key) of every item that forget would delete."""
    needle, out = text.strip().casefold(), {}
    for kind in SEARCHED_KINDS:
        ns = scope.ns(kind)
        doomed = {(tuple(i.namespace), i.key) for i in iter_items(store, ns)
                  if _mentions(_own_text(kind, i.value), needle)}
        doomed |= _near_keys(store, ns, text.strip(), threshold)
        out[kind] = {(namespace, key) for namespace, key in doomed if scope.owns(namespace)}
    return out


def would_forget(
    target: UserData | LayerEnv, text: str, *, threshold: float = DEFAULT_THRESHOLD
) -> dict[str, list[str]]:
    """A dry run of ``forget``'s store matching: per kind, the texts it would delete.

    Lets a caller show what a forget request would remove and ask before deleting.
    """
    if not isinstance(text, str) or len(text.strip()) < MIN_FORGET_CHARS:
        raise ValueError(f"say what to forget in at least {MIN_FORGET_CHARS} characters")
    where = UserData.of(target)
    out: dict[str, list[str]] = {}
    for kind, keys in _matching(where.store, where.scope, text, threshold).items():
        items = (where.store.get(namespace, key) for namespace, key in sorted(keys))
        texts = [str(i.value.get("text") or i.key) for i in items if i is not None]
        out.update({kind: texts} if texts else {})
    people = [r["text"] for group in would_forget_people(where.store, where.scope, text) for r in group]
    out.update({PEOPLE: people} if people else {})
    return out


def forget(
    target: UserData | LayerEnv,
    text: str,
    *,
    threshold: float = DEFAULT_THRESHOLD,
    checkpointer: BaseCheckpointSaver | None = None,
) -> ForgetReport:
    """Delete every memory of the user that contains ``text`` or is near it.

    Store items match when any string in their value contains ``text``
    (case-insensitive) or when the store's query search scores them at or above
    ``threshold`` (cosine; pass a value above 1 to turn near matching off).
    Memory-file lines and checkpointed threads match by substring only: they
    have no embeddings, and a near match there would delete whole threads.
    """
    if not isinstance(text, str) or len(text.strip()) < MIN_FORGET_CHARS:
        raise ValueError(f"say what to forget in at least {MIN_FORGET_CHARS} characters")
    where = UserData.of(target, checkpointer)
    store, scope, needle = where.store, where.scope, text.strip().casefold()
    report = ForgetReport(action=f"forget {text.strip()!r}")
    for kind, doomed in _matching(store, scope, text, threshold).items():
        if kind == MESSAGES:
            _forget_messages(store, scope, sorted(key for _, key in doomed))
        else:
            for namespace, key in sorted(doomed):
                store.delete(namespace, key)
        report.deleted.update({kind: sorted(key for _, key in doomed)} if doomed else {})
    people = forget_people(store, scope, text)  # a named person whole, else the facts said about them
    report.deleted.update({PEOPLE: people} if people else {})
    # Belt and braces: nothing that still quotes the text survives in the log's index.
    for item in iter_items(store, scope.ns(MESSAGES)):
        if _mentions(item.value, needle):
            store.delete(item.namespace, item.key)
            report.deleted.setdefault(MESSAGES, []).append(item.key)
    report.threads_kept, vacuum = where.checkpointer is None, secure_delete_on(where.checkpointer)
    if where.checkpointer is not None:
        for record in iter_items(store, scope.ns(THREADS)):
            if _thread_mentions(where.checkpointer, record.key, needle):
                where.checkpointer.delete_thread(record.key)
                store.delete(record.namespace, record.key)
                report.threads.append(record.key)
    if where.data_dir is not None:
        report.files = MemoryFiles(where.data_dir, scope).remove_lines(lambda line: needle in line.casefold())
    report.scrubbed = scrub(store, where.checkpointer, scope, vacuum=vacuum)
    return report


def delete_user(target: UserData | LayerEnv, *, checkpointer: BaseCheckpointSaver | None = None) -> ForgetReport:
    """Remove every trace of the user: all namespaces, memory files and threads."""
    where = UserData.of(target, checkpointer)
    store, scope = where.store, where.scope
    report = ForgetReport(action=f"delete user {scope.user_id!r}")
    items = list(iter_items(store, scope.root))
    report.threads_kept, vacuum = where.checkpointer is None, secure_delete_on(where.checkpointer)
    if where.checkpointer is not None:
        for record in items:
            if tuple(record.namespace) == scope.ns(THREADS):
                where.checkpointer.delete_thread(record.key)
                report.threads.append(record.key)
    for item in items:
        if scope.owns(item.namespace):
            store.delete(item.namespace, item.key)
            kind = item.namespace[2] if len(item.namespace) > 2 else "other"
            report.deleted.setdefault(kind, []).append(item.key)
    if where.data_dir is not None:
        files = MemoryFiles(where.data_dir, scope)
        report.files = {vpath: -1 for vpath, _ in files.iter_files()}
        files.delete_all()
    report.scrubbed = scrub(store, where.checkpointer, scope, vacuum=vacuum)
    return report
