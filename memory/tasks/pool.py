"""The shared pool of task episodes: the operator publishes a user's successful episodes.

The pool lies under the knowledge root (``TASK_POOL``), so the gate lets every user
read it and no user, tool or server client write it; users see it only while the
operator's ``task_pool`` setting is on. Publishing is the operator's act
(``memory-agent knowledge share-tasks USER``), on the raw store: it copies the task,
approach, outcome and quality of each successful episode, never the notes, the
thread or who it came from (the key is a hash), and a user's forget does not reach it
(``knowledge unshare-tasks USER`` takes a user's episodes back out).
"""

from __future__ import annotations

import hashlib

from langgraph.store.base import BaseStore, PutOp

from memory.privacy.export import iter_items
from stores.namespaces import TASK_POOL, TASKS, UserScope

_KEPT = ("task", "approach", "outcome", "quality")


def pool_key(scope: UserScope, key: str) -> str:
    """A pooled episode's key: the same for the same episode, and no user id in it."""
    return hashlib.sha256(f"{scope.label}\0{key}".encode()).hexdigest()[:32]


def share_episodes(raw: BaseStore, scope: UserScope) -> int:
    """Publish the user's successful episodes to the pool (again: they are replaced); returns how many."""
    ops = [PutOp(TASK_POOL, pool_key(scope, item.key),
                 {**{k: item.value.get(k) for k in _KEPT}, "notes": "", "sources": ["pool"]}, index=["task"])
           for item in iter_items(raw, scope.ns(TASKS)) if item.value.get("outcome") == "success"]
    if ops:
        raw.batch(ops)
    return len(ops)


def unshare_episodes(raw: BaseStore, scope: UserScope) -> int:
    """Remove the user's episodes from the pool, whatever their outcome; returns how many were there."""
    keys = [pool_key(scope, item.key) for item in iter_items(raw, scope.ns(TASKS))]
    ops = [PutOp(TASK_POOL, k, None) for k in keys if raw.get(TASK_POOL, k) is not None]
    if ops:
        raw.batch(ops)
        scrub = getattr(raw, "scrub", None)
        if callable(scrub):
            scrub(TASK_POOL)
    return len(ops)
