"""consolidate_deferred: the whole of a ``consolidate_thread`` run, the entry of that run mode.

A turn sent with ``defer_consolidation`` leaves its background layers' part (fact
extraction) queued; this run does it later, on the server a delayed, debounced run
on a side thread (docs/consolidation.md). It consolidates the queued turns of the
input's ``chat_thread`` (by default the run's own thread) through
nodes/background.py and ends: no reply, and no per-layer consolidation nodes,
since those turns had their cheap part in their own runs. Being the run's first
node, it checks the run's thread owner first, as ``commands`` does for a turn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langgraph.runtime import Runtime

from core.context import Context
from core.run_mode import chat_thread
from memory.env import make_env
from memory.layers.base import MemoryLayer
from nodes.background import consolidate_pending
from nodes.consolidate import thread_of_run
from nodes.ownership import claim_thread


def make_consolidate_deferred(layers: Sequence[MemoryLayer]) -> Callable[..., dict[str, Any]]:
    """The ``consolidate_deferred`` node: the deferred turns of the input's chat thread, consolidated now."""

    def consolidate_deferred(state: dict[str, Any], runtime: Runtime[Context]) -> dict[str, Any]:
        thread = thread_of_run()
        env = make_env(runtime, state)
        refused = claim_thread(env, thread)  # a side thread's next consolidation run is its owner's too
        if refused:
            return {"error": refused}
        consolidate_pending(env, layers, chat_thread(state, thread))
        return {"error": ""}

    return consolidate_deferred
