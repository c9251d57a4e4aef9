"""The retention limit: nothing a user said longer ago than the limit stays on disk.

``MEMORY_RETENTION_DAYS`` (the operator's, 0 = off), or the user's own shorter
limit (memory/privacy/retention_setting.py), sets a cutoff. ``enforce_retention``
removes, for one user, every copy of what was said before it:

- logged messages (their neighbours re-indexed, so no index text quotes them);
- episodes whose newest source is older, and roll-up lines, one by one
  (memory/privacy/retention_summaries.py);
- memory-file text: files last written before the cutoff, and lines that quote
  an expired message;
- checkpointed threads whose last activity (the newest message logged in the
  thread, or when it was opened) is older;
- then the bytes: the store's scrub of the user's namespaces (FAISS partitions
  rewritten, FTS merged, WAL truncated; VACUUM FULL on Postgres) and the
  checkpoint file's, exactly as forgetting does (memory/privacy/forget.py).

Distilled memories (profile slots, facts, rules, profile history) are kept:
remembering them is the point of memory, and the user can forget them. Those
whose sources expired say so (``provenance: "source expired"``).

The order makes a killed sweep safe to rerun: provenance is marked before the
messages go (a rerun recomputes the same expired set from the same clock), and
a ``scrub_owed`` mark makes the rerun scrub even when nothing is left to delete.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from langgraph.store.base import BaseStore

from memory.layers.base import LayerEnv
from memory.layers.message_log import MessageLogLayer
from memory.layers.scoring import parse_time
from memory.privacy.export import iter_items
from memory.privacy.forget import UserData, scrub, secure_delete_on
from memory.privacy.retention_quotes import Quotes, cut_from_store, cut_from_thread
from memory.privacy.retention_setting import cutoff_for
from memory.privacy.retention_summaries import episode_gone, pruned_rollup
from memory.tools.memory_files import MemoryFiles
from memory.upkeep.items import pause
from stores.namespaces import (
    EPISODES,
    FACTS,
    MESSAGES,
    PEOPLE,
    PROFILE,
    PROFILE_HISTORY,
    RULES,
    SETTINGS,
    THREADS,
    UserScope,
    stored_users,
)

EXPIRED = "source expired"
DISTILLED = (FACTS, PROFILE, PROFILE_HISTORY, RULES, PEOPLE)
STATE_KEY = "retention_state"  # in SETTINGS: a scrub still owed by a killed sweep


@dataclass
class RetentionReport:
    """What one sweep removed for one user (counts per kind), and the cutoff it used."""

    user_id: str
    cutoff: str | None
    counts: dict[str, int] = field(default_factory=dict)

    def add(self, kind: str, n: int = 1) -> None:
        if n:
            self.counts[kind] = self.counts.get(kind, 0) + n

    def total(self) -> int:
        return sum(n for kind, n in self.counts.items() if kind != "marked")

    def __str__(self) -> str:
        if self.cutoff is None:
            return f"retention for {self.user_id!r}: off"
        done = ", ".join(f"{n} {kind}" for kind, n in self.counts.items()) or "nothing"
        return f"retention for {self.user_id!r} (before {self.cutoff}): {done}"


def enforce_retention(where: UserData, operator_days: float, now: datetime) -> RetentionReport:
    """Remove what ``where``'s user said before the cutoff, everywhere, bytes included."""
    store, scope = where.store, where.scope
    cutoff = cutoff_for(store, scope, operator_days, now)
    report = RetentionReport(scope.user_id, cutoff.isoformat() if cutoff else None)
    if cutoff is None:
        return report
    messages = list(iter_items(store, scope.ns(MESSAGES)))
    old = {i.key: i.value for i in messages if (parse_time(i.value.get("time")) or now) < cutoff}
    if old:
        _owe_scrub(store, scope, True)
    report.add("marked", _mark_distilled(store, scope, set(old)))
    _summaries(store, scope, cutoff, report)
    active = _thread_activity(where, messages)
    quotes = Quotes([str(v.get("text", "")) for v in old.values() if v.get("role") == "user"],
                    said_since=[str(i.value.get("text", "")) for i in messages
                                if i.key not in old and i.value.get("role") == "user"])
    if quotes:
        report.add("quotes cut", cut_from_store(store, scope, quotes, {i.key for i in messages} - set(old)))
        for thread, when in active.items():
            if where.checkpointer is not None and (when is None or when >= cutoff):
                report.add("threads pruned", cut_from_thread(where.checkpointer, thread, quotes))
    if old:
        MessageLogLayer().forget(LayerEnv(store=store, scope=scope, context=None, embeddings=None),  # type: ignore[arg-type]
                                 sorted(old))
        report.add("messages", len(old))
        pause()
    vacuum = secure_delete_on(where.checkpointer)
    for thread, when in active.items():
        if where.checkpointer is not None and when is not None and when < cutoff:
            where.checkpointer.delete_thread(thread)
            store.delete(scope.ns(THREADS), thread)
            report.add("threads")
            pause()
    if where.data_dir is not None:
        report.add("memory files", _memory_files(where.data_dir, scope, cutoff, quotes))
    if report.total() or _owe_scrub(store, scope, None):
        scrub(store, where.checkpointer, scope, vacuum=vacuum)
        _owe_scrub(store, scope, False)
    return report


def enforce_everyone(store: BaseStore, operator_days: float, now: datetime, *, data_dir: Path | None = None,
                     checkpointer: Any = None) -> list[RetentionReport]:
    """``enforce_retention`` for every user in the store (each user's own limit applies)."""
    reports = []
    for scope in stored_users(store):
        where = UserData(store, scope, data_dir, checkpointer)
        reports.append(enforce_retention(where, operator_days, now))
    return reports


def _owe_scrub(store: BaseStore, scope: UserScope, owed: bool | None) -> bool:
    """Read (``owed`` None) or set the user's scrub-owed mark; returns it."""
    ns = scope.ns(SETTINGS)
    if owed is None:
        item = store.get(ns, STATE_KEY)
        return bool(item and item.value.get("scrub_owed"))
    store.put(ns, STATE_KEY, {"scrub_owed": owed}, index=False)
    return owed


def _mark_distilled(store: BaseStore, scope: UserScope, gone: set[str]) -> int:
    """Mark the profile slots, facts, rules and people whose sources include an expired message."""
    marked = 0
    for kind in DISTILLED:
        for item in iter_items(store, scope.ns(kind)):
            value = item.value
            if value.get("provenance") == EXPIRED or not gone.intersection(value.get("sources") or ()):
                continue
            store.put(item.namespace, item.key, {**value, "provenance": EXPIRED},
                      index=None if kind in (FACTS, RULES) else False)
            marked += 1
    return marked


def _summaries(store: BaseStore, scope: UserScope, cutoff: datetime, report: RetentionReport) -> None:
    """Delete old episodes and roll-ups left empty; rewrite roll-ups that lost some lines."""
    for item in iter_items(store, scope.ns(EPISODES)):
        value = item.value
        if not value.get("level"):
            if episode_gone(value, cutoff):
                store.delete(item.namespace, item.key)
                report.add("episodes")
            continue
        pruned = pruned_rollup(value, cutoff)
        if pruned is None:
            store.delete(item.namespace, item.key)
            report.add("roll-ups")
        elif pruned is not value:
            store.put(item.namespace, item.key, pruned)
            report.add("roll-up lines", len(value.get("text", "").splitlines()) - len(pruned["text"].splitlines()))
        pause()


def _thread_activity(where: UserData, messages: list[Any]) -> dict[str, datetime | None]:
    """Each of the user's threads with its last activity: its newest logged message, else when it was opened."""
    latest: dict[str, datetime] = {}
    for item in messages:
        said, thread = parse_time(item.value.get("time")), str(item.value.get("thread"))
        if said is not None and (thread not in latest or said > latest[thread]):
            latest[thread] = said
    out: dict[str, datetime | None] = {}
    for record in iter_items(where.store, where.scope.ns(THREADS)):
        known = [t for t in (parse_time(record.value.get("created_at")), latest.get(record.key)) if t is not None]
        out[record.key] = max(known) if known else None
    return out


def _memory_files(data_dir: Path, scope: UserScope, cutoff: datetime, quotes: Quotes) -> int:
    """Delete memory files last written before ``cutoff``; drop lines elsewhere that quote an expired message."""
    files = MemoryFiles(data_dir, scope)
    removed = 0
    for _, real in list(files.iter_files()):
        if real.stat().st_mtime < cutoff.timestamp():
            real.unlink()
            removed += 1
    return removed + (len(files.remove_lines(quotes.quotes_in)) if quotes else 0)
