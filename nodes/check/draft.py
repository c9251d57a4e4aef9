"""A reply the answer check may still change is a draft: held off the streamed ``messages`` channel.

A client streaming ``stream_mode="messages"`` (a chat UI, Studio, ``langgraph dev``)
shows every token a chat model emits as the answer. When the check can still
change the reply (it is on and this turn recalled something checkable: a retry
may replace the reply, a ``Memory check:`` line may be added), ``respond`` calls
the model under LangGraph's ``nostream`` tag, so no token of it is streamed, and
keeps the reply in the ``draft`` state channel instead of ``messages``: LangGraph
streams the messages a node returns, but only those at the top of its update
(a message, or a list of them), never one inside a dict. ``check`` then adds the
reply the user gets to ``messages`` under a new id, and that is the one message
``stream_mode="messages"`` carries, whole. With nothing to check, tokens stream
live as before (docs/streaming.md).
"""

from __future__ import annotations

import uuid
from typing import Any

from langchain_core.messages import AIMessage

from core.context import Context
from nodes.check.memories import gather_checks
from nodes.commands import COMMAND_KEY

DRAFT = "draft"


def holds_back(state: dict[str, Any], ctx: Context) -> bool:
    """Whether the check may change this turn's reply, so ``respond`` keeps it off the stream."""
    return ctx.check_answers and bool(gather_checks(state.get("recalled") or [])[0])


def held(reply: AIMessage) -> dict[str, Any]:
    """The state update that keeps ``reply`` as the turn's draft (a dict, so it is not streamed)."""
    return {DRAFT: {"message": reply}}


def draft_of(state: dict[str, Any]) -> AIMessage | None:
    """The reply ``respond`` held back this turn, if any."""
    message = (state.get(DRAFT) or {}).get("message")
    return message if isinstance(message, AIMessage) else None


def published(draft: AIMessage, text: str | None = None) -> AIMessage:
    """``draft`` (with ``text``, when given) under a new id: the message the stream and the thread get."""
    if COMMAND_KEY in (draft.additional_kwargs or {}):
        return draft  # the agent's own line (a failed model call): never a model's tokens
    content = draft.content if text is None else text
    return draft.model_copy(update={"content": content, "id": f"reply-{uuid.uuid4().hex}"})
