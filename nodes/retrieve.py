"""retrieve, then one recall node per layer: the read side of a turn.

``retrieve`` is the gatekeeping step: it checks the input, redacts secrets,
embeds the user's message once (every layer's search then finds its vector in
the process-wide cache) and resets the turn's
per-turn fields. The builder then fans out to one ``recall_<layer>`` node per
layer that can recall this turn (``recalling_layers``), run in parallel; each adds its layer's memories to the state's
``recall`` under its name, and ``assemble`` reads them all in layer order.

Order matters: a refused input leaves nothing behind but its thread's owner
record (the run's first node, ``commands``, claims the thread before anything
can fail: nodes/ownership.py); secrets are removed from the
user's message (``redact_input``) before any node or model reads it, and the
user is told in one line (state ``notice``) what kind was removed, here or, on
a server, by its auth when the run was created.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from langchain_core.messages import HumanMessage, RemoveMessage
from langgraph.runtime import Runtime

from core.context import Context
from memory.env import context_of, make_env
from memory.layers.base import LayerEnv, MemoryLayer
from memory.privacy.consent import is_memory_enabled
from nodes.input_check import InvalidInput, check_user_text
from stores.redaction.scrub import redact_message, redacted_kinds, removed_notice


def latest_human(state: dict[str, Any]) -> HumanMessage | None:
    """The most recent user message in the thread, or ``None``."""
    for msg in reversed(state.get("messages") or []):
        if isinstance(msg, HumanMessage):
            return msg
    return None


# What a turn starts with: nothing recalled yet, no verdict, no retries.
FRESH: dict[str, Any] = {"recall": None, "recalled": [], "recalling": False, "check_verdict": "", "check_retry": 0}


def _refuse(human: HumanMessage | None, error: str) -> dict[str, Any]:
    """Undo the message the input step already added, so nothing is kept."""
    undo = [RemoveMessage(id=human.id)] if human is not None and human.id else []
    return {**FRESH, "messages": undo, "error": error, "notice": ""}


def layer_recall(env: LayerEnv, layer: MemoryLayer, text: str, shown: Collection[str]) -> list[dict[str, Any]]:
    """What ``layer`` recalls for ``text``, in the state's form, less past messages already in the thread."""
    return [
        item.as_dict()
        for item in layer.recall(env, text)
        if not (item.kind == "message" and set(item.sources) <= shown)
    ]


def recall_all(
    env: LayerEnv, layers: Sequence[MemoryLayer], text: str, in_thread: Collection[str] = ()
) -> list[dict[str, Any]]:
    """What every layer recalls for ``text``, in the state's form (the input of ``assemble``).

    A past message already in the working memory (its id in ``in_thread``) would
    only repeat itself, so it is left out.
    """
    shown = set(in_thread)
    return [item for layer in layers for item in layer_recall(env, layer, text, shown)]


def recalling_layers(env: LayerEnv, layers: Sequence[MemoryLayer]) -> list[MemoryLayer]:
    """The ``layers`` that may recall something for the turn's user message (their ``can_recall``,
    where they have one); the others' recall nodes are skipped this turn.
    """
    human = latest_human(env.state)
    text = human.text if human is not None else ""
    checks = [(layer, getattr(layer, "can_recall", None)) for layer in layers]
    return [layer for layer, can in checks if can is None or can(env, text)]


def make_recall(layer: MemoryLayer) -> Callable[..., dict[str, Any]]:
    """The ``recall_<layer>`` node: this one layer's read policy for the turn's user message."""

    def recall(state: dict[str, Any], runtime: Runtime[Context]) -> dict[str, Any]:
        human = latest_human(state)
        if human is None:
            return {"recall": {layer.name: []}}
        shown = {str(m.id) for m in state.get("messages") or []}
        return {"recall": {layer.name: layer_recall(make_env(runtime, state), layer, human.text, shown)}}

    recall.__doc__ = f"Recall from the {layer.name!r} layer."
    return recall


def make_retrieve() -> Callable[..., dict[str, Any]]:
    """Build the retrieve node: checks the user message and readies the layers' recall for it.

    Sets ``error`` (refused: the turn ends), or ``notice`` and, with memory on,
    ``recalling``, on which the builder fans out to the recall nodes.
    """
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
        updates: dict[str, Any] = {**FRESH, "error": "", "notice": ""}
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
        env.embeddings.embed_query(human.text)  # once, here: the parallel recall nodes share the vector
        updates["recalling"] = True
        return updates

    return retrieve
