"""Fit one chat request into the model's context window: the thread first, then the memory block.

The request is the system prompt (persona, rules, profile, the memory block), the
tool schemas, the thread and the reply. The reply budget (``max_new_tokens``) and
the tool schemas are reserved first; what is left, less a margin for the error of
the estimate, holds the system prompt and the thread. Trimming order:

1. the thread: older turns go first (``working_window``), down to the current turn;
2. the memory block: the system prompt is rendered again with half the memory
   budget, then half of that, down to none (nodes/assemble.py);
3. the tools, last: when the request still does not fit, it is fitted again from
   the start without them, and the model answers without tools this time.

The stable prefix (persona, memory rules, rules, profile) and the current turn are
never cut. When even they do not fit, the request goes as it is and the provider's
error decides (nodes/model_call.py). ``squeeze`` below 1 fits into less than the
window: the retry after a context-length error trims harder.

Tokens are counted as everywhere in the project (``count_tokens_approximately``,
about four characters a token), so ``SAFETY`` keeps a tenth of the window spare.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import BaseMessage, SystemMessage
from langchain_core.messages.utils import count_tokens_approximately
from langchain_core.utils.function_calling import convert_to_openai_tool

from core.context import Context
from nodes.assemble import system_prompt
from nodes.window import working_window

SAFETY = 0.9
CHARS_PER_TOKEN = 4


@dataclass(frozen=True)
class FittedRequest:
    """The messages to send with the tools kept, and whether the memory block had to shrink
    (the prompt sent is then ``system``).
    """

    messages: list[BaseMessage]
    system: str
    memory_trimmed: bool
    tools: list[Any] = field(default_factory=list)


def tooltokens(tools: Sequence[Any]) -> int:
    """About how many tokens the tool schemas take in a request."""
    if not tools:
        return 0
    return len(json.dumps([convert_to_openai_tool(t) for t in tools])) // CHARS_PER_TOKEN


def tokens(messages: Sequence[BaseMessage]) -> int:
    """About how many tokens ``messages`` take (the project's one estimate)."""
    return int(count_tokens_approximately(list(messages)))


def fit_request(state: dict[str, Any], ctx: Context, window: int | None, tools: Sequence[Any] = (),
                squeeze: float = 1.0) -> FittedRequest:
    """The turn's request within ``window`` tokens (None: unknown, the usual working window only)."""
    messages = list(state.get("messages") or [])
    system = state.get("system_prompt") or ctx.persona
    budget = ctx.working_budget_tokens
    if window is None:
        history = working_window(messages, budget)
        return FittedRequest([SystemMessage(content=system), *history], system, False, list(tools))
    room = int(window * SAFETY * squeeze) - ctx.max_new_tokens - tooltokens(tools)

    def within(system_text: str) -> list[BaseMessage]:
        head = SystemMessage(content=system_text)
        return [head, *working_window(messages, min(budget, room - tokens([head])))]

    request = within(system)
    memory_budget = ctx.memory_budget_tokens
    trimmed = False
    while tokens(request) > room and memory_budget > 0:
        memory_budget //= 2
        system, trimmed = system_prompt(state, ctx, memory_budget), True
        request = within(system)
    if tokens(request) > room and tools:
        return fit_request(state, ctx, window, (), squeeze)
    return FittedRequest(request, system, trimmed, list(tools))
