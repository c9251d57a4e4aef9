"""What the pages show, read from the export (memory/privacy/export.py) so the page shows what forget acts on.

People and pets are listed one line each (memory/layers/people.py: who they are, what was said
about them); forgetting one forgets their name. The profile pairs each current value with its
ended ones (``PROFILE_HISTORY``,
memory/layers/semantic_records.py): "lives in Berlin since 2026-03-02, before:
Paris". Lists page and search by plain substring over an item's text; sources
link to the logged message they came from. A row's ``kind`` is its memory kind (memory/kinds.py),
as in the export; the list names in URLs (``/list/facts``) are the page's, not kinds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.ui.source import UserMemory
from memory.kinds import namespace_of
from memory.layers.message_log import MessageLogLayer
from memory.privacy.export import export_user, iter_items, said_on
from stores.namespaces import MESSAGES

PAGE_SIZE = 20
MAX_QUERY_CHARS = 200
KINDS = {"facts": "Facts", "people": "People and pets",
         "episodes": "Episodes", "rules": "Rules", "files": "Memory files", "messages": "Message log"}
FORGETTABLE = ("profile", "fact", "episode", "rule", "message", "person")  # the kinds a "forget this" button names


class BadRequest(ValueError):
    """Input the page refuses, with the one line it shows."""


@dataclass
class Page:
    """One page of a list: its rows, where it is, and the search that filtered it."""

    kind: str
    rows: list[dict[str, Any]]
    page: int
    pages: int
    total: int
    query: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def check_query(q: str | None) -> str:
    """A search text within bounds; an oversized one is refused, not cut."""
    q = (q or "").strip()
    if len(q) > MAX_QUERY_CHARS:
        raise BadRequest(f"search text too long: {len(q)} characters, at most {MAX_QUERY_CHARS}")
    return q


def check_page(raw: str | None) -> int:
    """A page number from the query string; anything else is refused."""
    try:
        n = int(raw or "1")
    except ValueError:
        raise BadRequest(f"page must be a number, got {str(raw)[:20]!r}") from None
    if n < 1 or n > 100_000:
        raise BadRequest("page out of range")
    return n


def export(mem: UserMemory) -> dict[str, Any]:
    """Everything kept about the user (the same dict `memory-agent memories --json` prints)."""
    return export_user(mem.store, mem.env.scope, mem.data_dir)


def profile_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Each current profile value with its history, oldest first, and the day it became true."""
    ended: dict[str, list[dict[str, Any]]] = {}
    for h in data["profile"]["history"]:
        v = h["value"]
        if v.get("archived_from") == "profile":
            ended.setdefault(str(v.get("id")), []).append(v)
    rows = []
    for entry in data["profile"]["current"]:
        v = entry["value"]
        before = sorted(ended.get(str(v.get("id")), []), key=lambda r: str(r.get("valid_to")))
        since = str(before[-1]["valid_to"])[:10] if before else said_on(entry)
        rows.append({"key": entry["key"], "text": v.get("text") or entry["key"], "value": v.get("value"),
                     "category": v.get("category"), "since": since, "sources": entry["sources"],
                     "before": [{"value": b.get("value") or b.get("text"), "until": str(b.get("valid_to"))[:10]}
                                for b in reversed(before)]})
    return sorted(rows, key=lambda r: str(r["category"] or r["key"]))


def _rows(data: dict[str, Any], mem: UserMemory, kind: str) -> list[dict[str, Any]]:
    if kind == "files":
        return [{"key": f["path"], "text": f["content"], "sources": [], "day": ""} for f in data["memory_files"]]
    if kind == "messages":
        items = iter_items(mem.store, mem.env.scope.ns(MESSAGES))
        rows = [{"kind": "message", "key": i.key, "text": str(i.value.get("text") or ""), "sources": [],
                 "role": i.value.get("role"),
                 "thread": i.value.get("thread"), "day": str(i.value.get("time") or "")[:19]} for i in items]
        return sorted(rows, key=lambda r: r["day"])
    return [{"kind": e["kind"], "key": e["key"], "text": e["text"] or e["key"], "sources": e["sources"],
             "day": said_on(e)} for e in data[kind]]


def list_page(mem: UserMemory, kind: str, q: str | None, page: str | None) -> Page:
    """One page of ``kind``'s items matching the search ``q`` (case-insensitive substring)."""
    if kind not in KINDS:
        raise BadRequest(f"unknown list {kind[:40]!r}; one of: {', '.join(KINDS)}")
    query, n = check_query(q), check_page(page)
    rows = _rows(export(mem), mem, kind)
    if query:
        rows = [r for r in rows if query.casefold() in r["text"].casefold()]
    pages = max(1, -(-len(rows) // PAGE_SIZE))
    return Page(kind, rows[(n - 1) * PAGE_SIZE: n * PAGE_SIZE], min(n, pages), pages, len(rows), query)


def message(mem: UserMemory, key: str) -> dict[str, Any]:
    """The logged message a memory came from; an unknown id is a clear refusal."""
    if not key or len(key) > MAX_QUERY_CHARS:
        raise BadRequest("no such message id")
    found = MessageLogLayer().messages(mem.env, [key])
    if not found:
        raise BadRequest(f"no message {key[:60]!r} in your log (forgotten, or never yours)")
    m = found[0]
    return {"id": m.id, "thread": m.thread, "time": m.time.isoformat()[:19], "role": m.role, "text": m.text}


def item_text(mem: UserMemory, kind: str, key: str) -> str:
    """The text of one of the user's items (for "forget this"); a forged or unknown key is refused.

    ``kind`` is the item's kind (memory/kinds.py), as every list and the export name it.
    """
    namespace = namespace_of(kind) if kind in FORGETTABLE else None
    if namespace is None:
        raise BadRequest(f"unknown kind {kind[:40]!r}; one of: {', '.join(FORGETTABLE)}")
    item = mem.env.store.get(mem.env.scope.ns(namespace), key) if key and len(key) <= MAX_QUERY_CHARS else None
    if item is None or not isinstance(item.value.get("text"), str):
        raise BadRequest(f"no {kind} item {key[:60]!r} in your memory")
    if kind == "person" and item.value.get("name"):
        return str(item.value["name"])  # forgetting someone is forgetting their name: the record and its mentions
    return str(item.value["text"])
