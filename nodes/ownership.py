"""Thread ownership: a thread belongs to the user whose first turn opened it.

The record (``THREADS`` namespace, key = thread id) is written at the start of
the thread's first turn, before anything can fail, so a first turn that fails
later (a model error, an interrupt left unanswered) does not lock its owner out
of the thread. It is written whatever the consent switch says: forgetting and
delete-user find a user's checkpointed threads through these records.
"""

from __future__ import annotations

from nodes.layers.base import LayerEnv
from stores.namespaces import THREADS


def register_thread(env: LayerEnv, thread: str) -> None:
    """Record ``thread`` under the user (idempotent)."""
    ns = env.scope.ns(THREADS)
    if env.store.get(ns, thread) is None:
        env.store.put(ns, thread, {"thread_id": thread, "created_at": env.now.isoformat()}, index=False)


def claim_thread(env: LayerEnv, thread: str, has_history: bool) -> str:
    """Register a new thread to the user; return an error for someone else's, else ""."""
    if env.store.get(env.scope.ns(THREADS), thread) is not None:
        return ""
    if has_history:
        # A thread with history that this user never opened is someone else's.
        return f"thread {thread!r} does not belong to user {env.scope.user_id!r}"
    register_thread(env, thread)
    return ""
