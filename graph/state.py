"""Thread state: what the checkpointer keeps between turns (short-term memory)."""

from __future__ import annotations

from typing import Annotated, Any

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict  # the server reads schemas from this one on 3.11


class State(TypedDict, total=False):
    """The graph state: the thread's working memory plus per-turn scratch values."""
    # The working memory: the visible thread, compacted by the working layer.
    messages: Annotated[list[AnyMessage], add_messages]
    # Running summary of compacted turns (kept verbatim identifiers).
    summary: str
    # The session watermark, a fixed-size marker (never a transcript): when the last
    # ``end_session`` ran in this thread ("time") and the last message it closed ("id").
    # ``end_session`` consolidates what the message log holds after it (nodes/consolidate.py).
    session_mark: dict[str, str]
    # Id of the last message the message log stored for this thread, so the next turn
    # is indexed with it as its neighbour.
    last_logged: str
    # What retrieve found and assemble rendered; kept in state so Studio shows it.
    recalled: list[dict[str, Any]]
    system_prompt: str
    # Input flag: close the session (consolidate, no reply).
    end_session: bool
    # Input flag for a turn: leave the background layers' part of consolidation to a later,
    # debounced run (nodes/background.py). Reset after every turn, like ``end_session``.
    defer_consolidation: bool
    # Input for a consolidation-only run (the server's delayed run): the chat thread whose
    # deferred turns to consolidate now. "" otherwise.
    consolidate_thread: str
    # This session's usage tally: recalled memories shown and used by the answers (nodes/usage.py).
    memory_usage: dict[str, int]
    # Why the last input was refused ("" when it was accepted).
    error: str
    # Tool rounds (respond -> tools -> respond) so far this turn; capped in respond.
    tool_rounds: int
    # One line for the user about their last message ("" when there is nothing to say),
    # e.g. that a secret was removed from it before it was stored.
    notice: str
    # What the answer check tested the last reply against, what conflicted, how many tries.
    answer_check: dict[str, Any]
