"""Everything kept about one user, as data (``export_user``) and as an answer
to "what do you remember about me?" (``render_memories``).

The export reads every namespace under the user's root through the store API
and the user's memory-file folder, so what it shows is what forget and
delete-user act on. Items keep their ``sources`` (message ids) and dates, so
the user can see where each memory came from, and each its ``kind`` (memory/kinds.py; an
ended value keeps its kind; None for what is no memory, a thread).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from langgraph.store.base import BaseStore, Item

from memory import clock
from memory.clock import parse_time
from memory.kinds import kind_of_item
from memory.privacy.consent import is_memory_enabled
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

PAGE = 500
SHOWN_PER_SECTION = 10


def iter_items(store: BaseStore, prefix: tuple[str, ...]) -> Iterator[Item]:
    """Every item under ``prefix``, paged, without refreshing TTLs.

    Collected before yielding, so callers may delete while iterating without
    the offsets shifting under them.
    """
    items: list[Item] = []
    while True:
        page = store.search(prefix, limit=PAGE, offset=len(items), refresh_ttl=False)
        items.extend(page)
        if len(page) < PAGE:
            return iter(items)


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if isinstance(value, datetime) else None


def _item(item: Item) -> dict[str, Any]:
    value = item.value
    return {
        "kind": kind_of_item(item.namespace[2], value) if len(item.namespace) > 2 else None,
        "key": item.key,
        "namespace": list(item.namespace),
        "text": value.get("text") if isinstance(value.get("text"), str) else None,
        "sources": list(value.get("sources") or []),
        "created_at": _iso(item.created_at),
        "updated_at": _iso(item.updated_at),
        "value": value,
    }


def export_user(store: BaseStore, scope: UserScope, data_dir: str | os.PathLike[str] | None) -> dict[str, Any]:
    """A JSON-serialisable dict of every memory kept about ``scope``'s user."""
    by_kind: dict[str, list[dict[str, Any]]] = {}
    per_thread: Counter[str] = Counter()
    for item in iter_items(store, scope.root):
        kind = item.namespace[2] if len(item.namespace) > 2 else "other"
        if kind == MESSAGES:
            thread = item.value.get("thread") or (item.namespace[3] if len(item.namespace) > 3 else "unknown")
            per_thread[str(thread)] += 1
        else:
            by_kind.setdefault(kind, []).append(_item(item))
    files = []
    if data_dir is not None:
        for vpath, real in MemoryFiles(data_dir, scope).iter_files():
            raw = real.read_bytes()
            files.append({"path": vpath, "bytes": len(raw), "content": raw.decode("utf-8", "replace")})
    return {
        "user_id": scope.user_id,
        "exported_at": clock.now().isoformat(),
        "memory_enabled": is_memory_enabled(store, scope),
        "profile": {"current": by_kind.get(PROFILE, []), "history": by_kind.get(PROFILE_HISTORY, [])},
        "facts": by_kind.get(FACTS, []),
        "people": by_kind.get(PEOPLE, []),
        "episodes": by_kind.get(EPISODES, []),
        "rules": by_kind.get(RULES, []),
        "tasks": by_kind.get(TASKS, []),
        "memory_files": files,
        "messages": {"total": sum(per_thread.values()), "per_thread": dict(sorted(per_thread.items()))},
        "threads": [t["value"] for t in by_kind.get(THREADS, [])],
    }


def _text_of(entry: dict[str, Any]) -> str:
    """An item's text, or its plain fields when it has none (structured profiles)."""
    if entry.get("text"):
        return str(entry["text"])
    fields = [
        f"{k}: {v}" for k, v in entry["value"].items() if isinstance(v, (str, int, float)) and not k.endswith("_at")
    ]
    return "; ".join(fields) or entry["key"]


def said_on(entry: dict[str, Any]) -> str:
    """The day an exported item was said (its messages' time), not the day it was stored: an episode's
    ``time``, a fact's or rule's own ``updated_at`` (the time of the message that last said it); the
    store's dates only for an item that records neither. "" when there is no date at all.
    """
    value = entry.get("value") or {}
    for stamp in (value.get("time"), value.get("updated_at"), entry.get("updated_at"), entry.get("created_at")):
        try:
            when = parse_time(stamp) if isinstance(stamp, str) else None
        except ValueError:
            continue
        if when is not None:
            return when.date().isoformat()
    return ""


def _section(title: str, entries: list[dict[str, Any]], lines: list[str]) -> None:
    if not entries:
        return
    lines.append(f"{title}:")
    for entry in entries[:SHOWN_PER_SECTION]:
        day = said_on(entry)
        lines.append(f"  - {_text_of(entry)}" + (f" ({day})" if day else ""))
    if len(entries) > SHOWN_PER_SECTION:
        lines.append(f"  … and {len(entries) - SHOWN_PER_SECTION} more")


def render_memories(export: dict[str, Any]) -> str:
    """A short, plain answer to "what do you remember about me?"."""
    lines: list[str] = []
    _section("About you", export["profile"]["current"], lines)
    _section("Facts", export["facts"], lines)
    _section("People and pets", export.get("people") or [], lines)
    _section("Past conversations", export["episodes"], lines)
    _section("How you like me to work", export["rules"], lines)
    _section("Tasks I helped with", export.get("tasks") or [], lines)
    if export["memory_files"]:
        lines.append("Memory files: " + ", ".join(f["path"] for f in export["memory_files"]))
    msgs = export["messages"]
    if msgs["total"]:
        lines.append(f"Message log: {msgs['total']} messages from {len(msgs['per_thread'])} conversation(s).")
    head = (
        f"Here is what I remember about you ({export['user_id']}):"
        if lines
        else f"I don't remember anything about you ({export['user_id']}) yet."
    )
    tail = (
        []
        if export["memory_enabled"]
        else ["Long-term memory is switched off for you: I am not saving anything new."]
    )
    return "\n".join([head, *lines, *tail])
