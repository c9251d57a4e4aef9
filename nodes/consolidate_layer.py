"""consolidate_<layer>: one layer's write policy for the run, a node of its own.

The builder makes one per layer, fanned out from ``consolidate`` and fanned in
to ``consolidate_done`` (nodes/consolidate.py), so Studio shows which layer
wrote what. Every such node reads the plan ``consolidate`` left in state
(``consolidation``) and the same state snapshot, as the layers did in one loop
before: after a turn, ``on_turn`` (skipped for a background layer when the turn
is split: it is queued for nodes/background.py); after ``end_session``,
``on_session_end`` on the session the message log holds. With the user's memory
off only the working layer (thread state, not long-term memory) runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.language_models import BaseChatModel
from langgraph.runtime import Runtime

from core.context import Context
from memory.env import context_of, make_env
from memory.layers.base import MemoryLayer, approve_all
from memory.layers.message_log import MessageLogLayer
from memory.layers.scoring import parse_time
from models.loader import load_chat_model
from nodes.background import is_background
from nodes.consolidate import SESSION, ask_user, is_long_term, session_of, thread_of_run, turn_of


def make_consolidate_layer(
    layer: MemoryLayer, log: MessageLogLayer | None, chat_model: BaseChatModel | None = None
) -> Callable[..., dict[str, Any]]:
    """The ``consolidate_<layer.name>`` node; ``log`` is the graph's message log (the session's record)."""

    def consolidate_layer(state: dict[str, Any], runtime: Runtime[Context]) -> dict[str, Any]:
        plan = state.get("consolidation") or {}
        if not plan.get("remember") and is_long_term(layer):
            return {}
        ctx = context_of(runtime)
        ending = plan.get("mode") == SESSION
        model = chat_model or (load_chat_model(ctx.chat_model, ctx.max_new_tokens) if ending else None)
        env = make_env(runtime, state, chat_model=model, approve=ask_user if ctx.review_rules else approve_all)
        env.now = parse_time(plan.get("at")) or env.now
        thread = thread_of_run()
        if ending:
            session = session_of(env, log, state, thread)
            return (layer.on_session_end(env, session) or {}) if session else {}
        turn = turn_of(state, thread, env.now)
        if not turn or (plan.get("split") and is_long_term(layer) and is_background(layer)):
            return {}
        return layer.on_turn(env, turn) or {}

    consolidate_layer.__doc__ = f"Consolidate the run into the {layer.name!r} layer."
    return consolidate_layer
