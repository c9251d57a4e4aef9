"""The operator's view: the shared knowledge base and how many memories each user has, no content."""

from __future__ import annotations

from collections import Counter
from typing import Any

from langgraph.store.base import BaseStore

from memory.knowledge.base import documents
from memory.privacy.export import iter_items
from stores.namespaces import MESSAGES, stored_users


def operator_view(store: BaseStore) -> dict[str, Any]:
    """Documents (path, chunks) and per-user counts by kind; never an item's text."""
    counts: dict[str, Counter[str]] = {}
    for scope in stored_users(store):
        for ns in store.list_namespaces(prefix=scope.root, max_depth=3, limit=10_000):
            if len(ns) < 3:
                continue
            kind = "messages" if ns[2] == MESSAGES else ns[2]
            counts.setdefault(scope.user_id, Counter())[kind] += sum(1 for _ in iter_items(store, tuple(ns)))
    docs = [{"doc": d.doc, "chunks": d.chunks} for d in documents(store)]
    return {"docs": docs, "users": {u: dict(c) for u, c in sorted(counts.items())}}
