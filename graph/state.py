"""Thread state: what the checkpointer keeps between turns (short-term memory)."""

from __future__ import annotations

from typing import Annotated, Any

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict  # the server reads schemas from this one on 3.11


def session_reducer(current: list[dict[str, Any]] | None, update: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """Append this turn's logged messages (by id, once); a leading ``{"clear": True}`` resets."""
    current = current or []
    if not update:
        return current
    if update and update[0].get("clear"):
        return list(update[1:])
    seen = {m["id"] for m in current}
    return current + [m for m in update if m["id"] not in seen]


class State(TypedDict, total=False):
    # The working memory: the visible thread, compacted by the working layer.
    messages: Annotated[list[AnyMessage], add_messages]
    # Running summary of compacted turns (kept verbatim identifiers).
    summary: str
    # This session's messages, kept until session end even when compaction removes
    # them from ``messages``; consolidated into long-term memory at ``end_session``.
    session: Annotated[list[dict[str, Any]], session_reducer]
    # What retrieve found and assemble rendered; kept in state so Studio shows it.
    recalled: list[dict[str, Any]]
    system_prompt: str
    # Input flag: close the session (consolidate, no reply).
    end_session: bool
    # Why the last input was refused ("" when it was accepted).
    error: str
    # What the answer check tested the last reply against, what conflicted, how many tries.
    answer_check: dict[str, Any]
