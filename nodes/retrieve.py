"""retrieve: ask every memory layer what it recalls for the latest user message."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from langchain_core.messages import HumanMessage, RemoveMessage
from langgraph.config import get_config
from langgraph.runtime import Runtime

from graph.context import Context
from nodes.env import context_of, make_env
from nodes.input_check import InvalidInput, check_user_text
from nodes.layers.base import MemoryLayer
from nodes.privacy.consent import is_memory_enabled
from stores.namespaces import THREADS


def latest_human(state: dict[str, Any]) -> HumanMessage | None:
    for msg in reversed(state.get("messages") or []):
        if isinstance(msg, HumanMessage):
            return msg
    return None


def make_retrieve(layers: Sequence[MemoryLayer]) -> Callable[..., dict[str, Any]]:
    def retrieve(state: dict[str, Any], runtime: Runtime[Context]) -> dict[str, Any]:
        ctx = context_of(runtime)
        human = latest_human(state)
        try:
            if human is None:
                raise InvalidInput("no user message in the input")
            check_user_text(human.text, ctx.max_message_chars)
        except InvalidInput as err:
            # Undo the message the input step already added, so nothing is kept.
            undo = [RemoveMessage(id=human.id)] if human is not None and human.id else []
            return {"messages": undo, "error": str(err), "recalled": []}
        env = make_env(runtime, state)
        thread = str(get_config().get("configurable", {}).get("thread_id", ""))
        has_history = len(state.get("messages") or []) > 1
        if has_history and env.store.get(env.scope.ns(THREADS), thread) is None:
            # A thread with history that this user never wrote to is someone else's.
            undo = [RemoveMessage(id=human.id)] if human.id else []
            return {"messages": undo, "error": f"thread {thread!r} does not belong to user {env.scope.user_id!r}", "recalled": []}
        if not is_memory_enabled(env.store, env.scope):
            return {"recalled": [], "error": ""}
        in_thread = {str(m.id) for m in state.get("messages") or []}
        recalled = [
            item.as_dict()
            for layer in layers
            for item in layer.recall(env, human.text)
            # a past message already in the working memory would only repeat itself
            if not (item.kind == "message" and set(item.sources) <= in_thread)
        ]
        return {"recalled": recalled, "error": ""}

    return retrieve
