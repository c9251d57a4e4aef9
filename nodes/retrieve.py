"""retrieve: check the input, redact secrets, ask every layer what it recalls.

Order matters: a refused input leaves nothing behind; the thread (checked by
the run's first node, ``commands``) is registered to the user next, before
anything else can fail (nodes/ownership.py); secrets are removed from the
user's message (``redact_input``) before any node or model reads it, and the
user is told in one line (state ``notice``) what kind was removed, here or, on
a server, by its auth when the run was created.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from langchain_core.messages import HumanMessage, RemoveMessage
from langgraph.config import get_config
from langgraph.runtime import Runtime

from graph.context import Context
from nodes.env import context_of, make_env
from nodes.input_check import InvalidInput, check_user_text
from nodes.layers.base import LayerEnv, MemoryLayer
from nodes.ownership import register_thread
from nodes.privacy.consent import is_memory_enabled
from stores.redaction.scrub import redact_message, redacted_kinds, removed_notice


def latest_human(state: dict[str, Any]) -> HumanMessage | None:
    """The most recent user message in the thread, or ``None``."""
    for msg in reversed(state.get("messages") or []):
        if isinstance(msg, HumanMessage):
            return msg
    return None


def _refuse(human: HumanMessage | None, error: str) -> dict[str, Any]:
    """Undo the message the input step already added, so nothing is kept."""
    undo = [RemoveMessage(id=human.id)] if human is not None and human.id else []
    return {"messages": undo, "error": error, "recalled": [], "notice": ""}


def recall_all(
    env: LayerEnv, layers: Sequence[MemoryLayer], text: str, in_thread: Collection[str] = ()
) -> list[dict[str, Any]]:
    """What every layer recalls for ``text``, in the state's form (the input of ``assemble``).

    A past message already in the working memory (its id in ``in_thread``) would
    only repeat itself, so it is left out.
    """
    shown = set(in_thread)
    return [
        item.as_dict()
        for layer in layers
        for item in layer.recall(env, text)
        if not (item.kind == "message" and set(item.sources) <= shown)
    ]


def make_retrieve(layers: Sequence[MemoryLayer]) -> Callable[..., dict[str, Any]]:
    """Build the retrieve node: checks the user message and recalls memories for it from ``layers``."""
    def retrieve(state: dict[str, Any], runtime: Runtime[Context]) -> dict[str, Any]:
        ctx = context_of(runtime)
        human = latest_human(state)
        try:
            if human is None:
                raise InvalidInput("no user message in the input")
            check_user_text(human.text, ctx.max_message_chars)
        except InvalidInput as err:
            return _refuse(human, str(err))
        env = make_env(runtime, state)
        register_thread(env, str(get_config().get("configurable", {}).get("thread_id", "")))
        updates: dict[str, Any] = {"error": "", "notice": "", "recalled": []}
        if ctx.redact_input:
            clean, kinds = redact_message(human)
            if kinds:
                human = clean  # type: ignore[assignment]
                updates["messages"] = [clean]  # same id: replaces the raw message in the thread
            kinds = kinds or redacted_kinds(human.text)  # a server's auth redacts a run's input first
            if kinds:
                updates["notice"] = removed_notice(kinds)
        if not is_memory_enabled(env.store, env.scope):
            return updates
        in_thread = {str(m.id) for m in state.get("messages") or []}
        updates["recalled"] = recall_all(env, layers, human.text, in_thread)
        return updates

    return retrieve
