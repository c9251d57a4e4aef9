"""Thread state: what the checkpointer keeps between turns (short-term memory)."""

from __future__ import annotations

from typing import Annotated, Any

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict  # the server reads schemas from this one on 3.11

from core.run_mode import ChatThreadField, ModeField


def merge_recall(
    old: dict[str, list[dict[str, Any]]] | None, new: dict[str, list[dict[str, Any]]] | None
) -> dict[str, list[dict[str, Any]]]:
    """Reducer of ``recall``: each recall node adds its layer's list; ``None`` starts a turn afresh."""
    return {} if new is None else {**(old or {}), **new}


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
    # Set by retrieve when the layers' recall nodes run this turn (memory on, input accepted).
    recalling: bool
    # What each layer's recall node found this turn, by layer name (merged as the
    # parallel recall nodes finish; ``retrieve`` empties it at the start of a turn).
    recall: Annotated[dict[str, list[dict[str, Any]]], merge_recall]
    # The same memories in layer order, as assemble rendered them; kept so Studio shows it.
    recalled: list[dict[str, Any]]
    system_prompt: str
    # The run's mode and a consolidation run's chat thread: input only, gone after the
    # first node (core/run_mode.py). START routes on the mode.
    mode: ModeField
    chat_thread: ChatThreadField
    # Input flag for a turn: leave the background layers' part of consolidation to a later,
    # debounced run (nodes/background.py). Reset after every turn.
    defer_consolidation: bool
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
    # The answer check's verdict on the last reply: "retry" sends the turn back to respond
    # (an edge of the graph), anything else ("ok", "flagged", "off") on to consolidation.
    check_verdict: str
    # Retries the answer check asked for so far this turn (at most ``check_retries``).
    check_retry: int
    # The reply respond held back for the check ({"message": AIMessage}), off the streamed
    # messages channel; the check publishes the reply the user gets (nodes/check/draft.py).
    draft: dict[str, Any] | None
    # What the consolidate step decided for this run, read by every layer's consolidation
    # node: "mode" (turn, session or none), the turn's clock "at", "remember", "split".
    consolidation: dict[str, Any]


class TurnInput(TypedDict, total=False):
    """What a caller passes to the chat graph: a turn's messages, or another run mode.

    ``mode`` picks the graph's entry (core/run_mode.py): "turn" (the default),
    "end_session" (close the session: consolidate it, no reply; the CLI's /end) or
    "consolidate_thread" (the deferred turns of ``chat_thread``, by default this
    run's thread; the server's delayed run).
    """
    messages: Annotated[list[AnyMessage], add_messages]
    mode: ModeField
    chat_thread: ChatThreadField
    # Leave the background layers' part of this turn's consolidation to a later run.
    defer_consolidation: bool


class TurnOutput(TypedDict, total=False):
    """What a run returns: the thread and what the CLI shows of the turn."""
    messages: Annotated[list[AnyMessage], add_messages]
    recalled: list[dict[str, Any]]
    system_prompt: str
    error: str
    notice: str
    memory_usage: dict[str, int]
    answer_check: dict[str, Any]
