"""The working window: the part of the thread a model call sees."""

from __future__ import annotations

from langchain_core.messages import BaseMessage, HumanMessage, trim_messages
from langchain_core.messages.utils import count_tokens_approximately


def working_window(messages: list[BaseMessage], budget_tokens: int) -> list[BaseMessage]:
    """The current turn whole (its tool calls with their results), after the newest
    earlier messages that fit the rest of the budget, starting on a human turn.
    """
    start = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage)), default=max(len(messages) - 1, 0))
    turn = messages[start:]
    room = budget_tokens - count_tokens_approximately(turn)
    earlier = messages[:start]
    if room <= 0 or not earlier:
        return turn
    kept = trim_messages(
        earlier,
        max_tokens=room,
        token_counter=count_tokens_approximately,
        strategy="last",
        start_on="human",
        allow_partial=False,
    )
    return [*kept, *turn]
