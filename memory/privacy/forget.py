"""Forgetting: delete what matches a text, or everything about a user, for real.

"Forget that I live in Berlin" must reach every copy: the fact, the profile
and its history, the episode that summarised the session, rules, the raw
message log, lines in the user's memory files, and the checkpointed threads
that still hold the turn. It must take nothing else: a record that holds
several statements (a logged message, an episode, a thread's messages) loses
only the part that names the words and keeps the rest, marked as cut
(memory/privacy/forget_cut.py; ``CUTTERS`` says, per kind, how a matched item
is forgotten, and a layer with records of its own adds its kind there).
Deleting rows is not enough: SQLite keeps deleted
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

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.embeddings import Embeddings
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.store.base import BaseStore

from memory.layers.base import LayerEnv
from memory.layers.message_text import own_text
from memory.privacy.disk_scrub import scrub as scrub
from memory.privacy.disk_scrub import secure_delete_on as secure_delete_on
from memory.privacy.export import iter_items
from memory.privacy.forget_cut import Found, cut_episodes, cut_messages, cut_statements, cut_thread
from memory.privacy.forget_parts import Needle, all_parts
from memory.privacy.forget_people import forget_people, would_forget_people
from memory.privacy.forget_report import THREADS_KEPT as THREADS_KEPT
from memory.privacy.forget_report import ForgetReport
from memory.text import cosine_similarities
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


@dataclass(frozen=True)
class UserData:
    """Where one user's data lives: the store, the scope, the data dir, the checkpointer."""

    store: BaseStore
    scope: UserScope
    data_dir: Path | None = None
    checkpointer: BaseCheckpointSaver | None = None
    embeddings: Embeddings | None = None  # tells which part of a near match is near (else it goes whole)

    @classmethod
    def of(cls, target: UserData | LayerEnv, checkpointer: BaseCheckpointSaver | None = None) -> UserData:
        """Accept a ``LayerEnv`` (data dir read from its context) or a ``UserData``."""
        if isinstance(target, UserData):
            return target if checkpointer is None else cls(
                target.store, target.scope, target.data_dir, checkpointer, target.embeddings)
        data_dir = getattr(target.context, "data_dir", None)
        return cls(target.store, target.scope, Path(data_dir) if data_dir else None, checkpointer, target.embeddings)


def _mentions(obj: Any, needle: Needle) -> bool:
    return needle.in_any(strings_in(obj))


def _thread_mentions(saver: BaseCheckpointSaver, thread_id: str, needle: Needle) -> bool:
    """Does any checkpoint or pending write of the thread mention ``needle``?"""
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


Forgetter = Callable[[BaseStore, UserScope, Needle, Found], tuple[list[str], list[str]]]


def _delete(store: BaseStore, scope: UserScope, needle: Needle, found: Found) -> tuple[list[str], list[str]]:
    """A record that says one thing (a fact, a profile slot, a rule) goes whole."""
    for namespace, key in found:
        store.delete(namespace, key)
    return sorted(key for _, key in found), []


# Per kind, how a matched item is forgotten (keys deleted, keys cut); ``_delete`` for any other kind.
CUTTERS: dict[str, Forgetter] = {
    MESSAGES: cut_messages, EPISODES: cut_episodes, PROFILE: cut_statements, FACTS: cut_statements}
_MANY_PARTS = (MESSAGES, EPISODES)  # records of many statements: a part found by meaning is cut alone


def _matching(
    store: BaseStore, scope: UserScope, text: str, threshold: float
) -> dict[str, set[tuple[tuple[str, ...], str]]]:
    """Per searched kind, the (namespace, key) of every item that forget would delete or cut."""
    needle, out = Needle(text), {}
    for kind in SEARCHED_KINDS:
        ns = scope.ns(kind)
        doomed = {(tuple(i.namespace), i.key) for i in iter_items(store, ns)
                  if _mentions(_own_text(kind, i.value), needle)}
        doomed |= _near_keys(store, ns, text.strip(), threshold)
        out[kind] = {(namespace, key) for namespace, key in doomed if scope.owns(namespace)}
    return out


def _needle(where: UserData, text: str, threshold: float, found: dict[str, set[tuple[tuple[str, ...], str]]]) -> Needle:
    """The words to cut, plus the parts of a near match (found by meaning, not by the words) that
    are near the request themselves; without embeddings to tell, such a match is cut whole.
    """
    words, near = Needle(text), []
    for kind in _MANY_PARTS:
        for namespace, key in found.get(kind, ()):
            item = where.store.get(namespace, key)
            if item is None or _mentions(_own_text(kind, item.value), words):
                continue
            parts = all_parts(str(item.value.get("text", "")))
            if where.embeddings is None:
                near += parts
            else:
                cosines = cosine_similarities(where.embeddings, text.strip(), parts)
                near += [part for part, cos in zip(parts, cosines) if cos >= threshold]
    return Needle(text, also=near) if near else words


def _checked(text: Any) -> str:
    if not isinstance(text, str) or len(text.strip()) < MIN_FORGET_CHARS:
        raise ValueError(f"say what to forget in at least {MIN_FORGET_CHARS} characters")
    return text


def would_forget(
    target: UserData | LayerEnv, text: str, *, threshold: float = DEFAULT_THRESHOLD
) -> dict[str, list[str]]:
    """A dry run of ``forget``'s store matching: per kind, the texts it would delete (for a
    kind whose records lose only a part, ``CUTTERS``: the parts it would cut).

    Lets a caller show what a forget request would remove and ask before deleting.
    """
    where = UserData.of(target)
    found = _matching(where.store, where.scope, _checked(text), threshold)
    needle = _needle(where, text, threshold, found)
    out: dict[str, list[str]] = {}
    for kind, keys in found.items():
        items = [i for i in (where.store.get(namespace, key) for namespace, key in sorted(keys)) if i is not None]
        if kind in _MANY_PARTS:
            texts = [p for i in items for p in needle.parts(str(i.value.get("text", "")))]
        else:
            texts = [str(i.value.get("text") or i.key) for i in items]
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
    """Forget every memory of the user that mentions ``text`` or is near it.

    Store items match when any string in their value mentions ``text`` (its words
    from a word boundary, any case) or when the store's query search scores them at
    or above ``threshold`` (cosine; pass a value above 1 to turn near matching off).
    A matched record that holds several statements loses the part (``CUTTERS``);
    any other is deleted. Memory-file lines and checkpointed threads match by the
    words only: they have no embeddings; a thread keeps what does not name them.
    """
    where = UserData.of(target, checkpointer)
    store, scope = where.store, where.scope
    report = ForgetReport(action=f"forget {_checked(text).strip()!r}")
    found = _matching(store, scope, text, threshold)
    needle, words = _needle(where, text, threshold, found), Needle(text)  # near parts: only in the items found
    for kind, doomed in found.items():
        deleted, cut = CUTTERS.get(kind, _delete)(store, scope, needle, sorted(doomed))
        report.deleted.update({kind: deleted} if deleted else {})
        report.cut.update({kind: cut} if cut else {})
    people = forget_people(store, scope, text)  # a named person whole, else the facts said about them
    report.deleted.update({PEOPLE: people} if people else {})
    # Belt and braces: nothing that still quotes the text survives in the log's index.
    for item in iter_items(store, scope.ns(MESSAGES)):
        if _mentions(item.value, words):
            store.delete(item.namespace, item.key)
            report.deleted.setdefault(MESSAGES, []).append(item.key)
    report.threads_kept, vacuum = where.checkpointer is None, secure_delete_on(where.checkpointer)
    if where.checkpointer is not None:
        for record in iter_items(store, scope.ns(THREADS)):
            if not _thread_mentions(where.checkpointer, record.key, words):
                continue
            if cut_thread(where.checkpointer, record.key, words) and not _thread_mentions(
                    where.checkpointer, record.key, words):
                report.cut.setdefault(THREADS, []).append(record.key)
                continue
            where.checkpointer.delete_thread(record.key)
            store.delete(record.namespace, record.key)
            report.threads.append(record.key)
    if where.data_dir is not None:
        report.files = MemoryFiles(where.data_dir, scope).remove_lines(words.in_text)
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
