"""consolidate: hand the finished turn (or the whole session) to every layer's write policy.

After each turn every layer's ``on_turn`` runs (cheap, no LLM). When the input
says ``end_session``, every layer's ``on_session_end`` runs on the whole session
— that is where LLM-backed summaries and extraction happen, off the hot path.
Rule review uses LangGraph's ``interrupt``: the node re-runs on resume, which is
why every layer's writes are idempotent.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime, timezone
from typing import Any, Callable, Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langgraph.config import get_config
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from graph.context import Context
from models.loader import load_chat_model
from nodes.env import context_of, make_env
from nodes.layers.base import LayerEnv, LoggedMessage, MemoryLayer, approve_all
from nodes.privacy.consent import is_memory_enabled
from stores.namespaces import THREADS


def ask_user(proposal: dict[str, Any]) -> bool:
    """Pause the graph and ask the user; resume with True/False or {"approve": bool}."""
    answer = interrupt(proposal)
    if isinstance(answer, dict):
        answer = answer.get("approve", answer.get("approved", False))
    if isinstance(answer, str):
        return answer.strip().lower() in {"y", "yes", "true", "approve", "ok"}
    return bool(answer)


def _logged(msg: BaseMessage, thread: str, now: datetime) -> LoggedMessage | None:
    if isinstance(msg, HumanMessage):
        role = "user"
    elif isinstance(msg, AIMessage) and not msg.tool_calls and msg.text.strip():
        role = "assistant"
    else:
        return None
    return LoggedMessage(id=str(msg.id), thread=thread, time=now, role=role, text=msg.text, name=msg.name)


def _as_dict(m: LoggedMessage) -> dict[str, Any]:
    d = asdict(m)
    d["time"] = m.time.isoformat()
    return d


def _from_dict(d: dict[str, Any]) -> LoggedMessage:
    return LoggedMessage(**{**d, "time": datetime.fromisoformat(d["time"])})


def _merge(updates: dict[str, Any], extra: dict[str, Any] | None) -> None:
    for key, value in (extra or {}).items():
        if key == "messages":
            updates.setdefault("messages", []).extend(value)
        else:
            updates[key] = value


def is_long_term(layer: MemoryLayer) -> bool:
    """Working memory is thread state, so the consent switch does not stop it."""
    return bool(getattr(layer, "long_term", layer.name != "working"))


def register_thread(env: LayerEnv, thread: str) -> None:
    """Record the thread under the user, so forgetting can find its checkpoints."""
    ns = env.scope.ns(THREADS)
    if env.store.get(ns, thread) is None:
        env.store.put(ns, thread, {"thread_id": thread, "created_at": env.now.isoformat()}, index=False)


def make_consolidate(
    layers: Sequence[MemoryLayer], chat_model: BaseChatModel | None = None
) -> Callable[..., dict[str, Any]]:
    def consolidate(state: dict[str, Any], runtime: Runtime[Context]) -> dict[str, Any]:
        ctx = context_of(runtime)
        thread = str(get_config().get("configurable", {}).get("thread_id", "default"))
        ending = bool(state.get("end_session"))
        model = chat_model or (load_chat_model(ctx.chat_model, ctx.max_new_tokens) if ending else None)
        env = make_env(runtime, state, chat_model=model, approve=ask_user if ctx.review_rules else approve_all)
        now = env.now
        logged_ids = {m["id"] for m in state.get("session") or []}
        turn = [m for m in (_logged(x, thread, now) for x in state.get("messages") or []) if m and m.id not in logged_ids]
        remember = is_memory_enabled(env.store, env.scope)
        updates: dict[str, Any] = {"session": [_as_dict(m) for m in turn]}
        # Always, even with memory off: forgetting and delete-user must find every thread.
        register_thread(env, thread)
        for layer in layers:
            if turn and (remember or not is_long_term(layer)):
                _merge(updates, layer.on_turn(env, turn))
        if ending:
            session = [_from_dict(d) for d in state.get("session") or []] + turn
            for layer in layers:
                if session and (remember or not is_long_term(layer)):
                    _merge(updates, layer.on_session_end(env, session))
            updates["session"] = [{"clear": True}]
            updates["end_session"] = False
        return updates

    return consolidate
