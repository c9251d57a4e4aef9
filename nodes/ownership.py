"""Thread ownership: a thread belongs to the user whose first run opened it.

Every run checks its thread in its first node, whatever kind of run it is:
``commands`` for a turn, a memory command or a resume, ``consolidate`` for an
``end_session`` and ``consolidate_deferred`` for a ``consolidate_thread`` run
(``claim_thread``). A run that skipped the check used to register someone else's
thread to its caller, whose next turn then read the first user's messages and summary.

The record (``THREADS`` namespace, key = thread id) is written by each run
mode's first node (``claim_thread``) before anything else can refuse or stop
the run: a refused first message (empty, NUL, blank), a forget confirmation
left unanswered or a model error still leaves checkpoints on the thread, and a
thread with checkpoints but no record reads as someone else's, which locked
its owner out. It is written whatever the consent switch says: forgetting and
delete-user find a user's checkpointed threads through these records.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langgraph.config import get_config

from memory.layers.base import LayerEnv
from stores.namespaces import THREADS

FIRST_STEP = 1  # the step of a thread's first node when no checkpoint came before the run


def register_thread(env: LayerEnv, thread: str) -> None:
    """Record ``thread`` under the user (idempotent)."""
    ns = env.scope.ns(THREADS)
    if env.store.get(ns, thread) is None:
        env.store.put(ns, thread, {"thread_id": thread, "created_at": env.now.isoformat()}, index=False)


def foreign_thread(env: LayerEnv, thread: str, has_history: bool) -> str:
    """The error for a thread that is someone else's, else "" (it is the user's, or new)."""
    if has_history and env.store.get(env.scope.ns(THREADS), thread) is None:
        # A thread with history that this user never opened is someone else's.
        return f"thread {thread!r} does not belong to user {env.scope.user_id!r}"
    return ""


def had_checkpoint(config: Mapping[str, Any] | None = None) -> bool:
    """Whether the running thread held state before this run (any earlier run or state update).

    Messages alone do not tell: a run may bring none (``end_session``), and a
    state update may leave a summary without any.
    """
    config = get_config() if config is None else config
    return int((config.get("metadata") or {}).get("langgraph_step", FIRST_STEP)) > FIRST_STEP


def claim_thread(env: LayerEnv, thread: str) -> str:
    """A run mode's first node: the error for someone else's thread, else "" once it is recorded as the user's."""
    refused = foreign_thread(env, thread, has_history=had_checkpoint())
    if not refused:
        register_thread(env, thread)
    return refused
