"""Working memory: the thread itself, compacted when it outgrows its token budget.

The thread is LangGraph state: ``messages`` plus a running ``summary``. When the
messages exceed ``context.working_budget_tokens``, the older ones are folded into
the summary and removed with ``RemoveMessage``; the last
``context.keep_last_messages`` stay verbatim. The cut is moved earlier when it
would drop the latest user message or separate an AI tool call from its tool
results, because a chat model rejects (or misreads) a thread in that state.

The summary is extractive unless a chat model is given: it copies the most
informative sentences. Either way every id, amount, date, path, command and
error message of what was removed is guaranteed to appear in it verbatim
(``identifiers.ensure_verbatim``): they are what a user asks about later, and
what a paraphrase gets wrong.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    HumanMessage,
    RemoveMessage,
    ToolMessage,
)
from langchain_core.messages.utils import count_tokens_approximately

from core.prompts import WORKING_SUMMARY_PROMPT
from memory.layers.base import LayerBase, LayerEnv, LoggedMessage, Recalled
from memory.layers.identifiers import VERBATIM_HEADER, ensure_verbatim, extractive_summary, model_summary

MIN_SUMMARY_WORDS = 40
TOKENS_PER_SUMMARY_WORD = 5  # summary gets about a fifth of the budget, in words

def compact(
    messages: Sequence[AnyMessage],
    summary: str,
    budget_tokens: int,
    keep_last: int,
    chat_model: BaseChatModel | None = None,
) -> tuple[list[str], str]:
    """Which messages to remove and the summary that replaces them.

    Returns ``([], summary)`` when the messages fit ``budget_tokens`` or no safe
    cut exists. Removed messages must have ids (LangGraph's ``add_messages``
    gives every message in state one).
    """
    if count_tokens_approximately(messages) <= budget_tokens:
        return [], summary
    cut = safe_cut(messages, keep_last)
    if cut == 0:
        return [], summary
    removed = messages[:cut]
    if any(not m.id for m in removed):
        raise ValueError("compact() needs message ids to remove messages; add them with add_messages")
    lines = [message_line(m) for m in removed]
    sources = [summary, *lines] if summary else lines
    new_summary = None
    if chat_model is not None:
        source = "\n".join([*(["Summary so far:", summary] if summary else []), "New messages:", *lines])
        new_summary = model_summary(chat_model, WORKING_SUMMARY_PROMPT, source)
    if not new_summary:
        previous = summary.split(VERBATIM_HEADER)[0].splitlines() if summary else []
        max_words = max(MIN_SUMMARY_WORDS, budget_tokens // TOKENS_PER_SUMMARY_WORD)
        new_summary = extractive_summary([*previous, *lines], max_words)
    return [str(m.id) for m in removed], ensure_verbatim(new_summary, sources)


def safe_cut(messages: Sequence[AnyMessage], keep_last: int) -> int:
    """Index of the first kept message: at most ``len - keep_last``, never past the
    latest human message, never between a tool call and its results.
    """
    cut = max(len(messages) - max(keep_last, 0), 0)
    last_human = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage)), default=None)
    if last_human is not None:
        cut = min(cut, last_human)
    while cut > 0 and isinstance(messages[cut], ToolMessage):
        cut -= 1  # step back onto the AIMessage whose tool_calls these results answer
    return cut


def message_line(message: AnyMessage) -> str:
    """One labelled line per message, tool calls included, for summarising."""
    text = message.text
    if isinstance(message, HumanMessage):
        return f"User: {text}"
    if isinstance(message, ToolMessage):
        return f"Tool {message.name or 'result'}: {text}"
    if isinstance(message, AIMessage):
        calls = " ".join(f"[called {c['name']}({json.dumps(c['args'], sort_keys=True)})]" for c in message.tool_calls)
        return f"Assistant: {' '.join(p for p in (text, calls) if p)}"
    return f"{message.type.capitalize()}: {text}"


class WorkingMemoryLayer(LayerBase):
    """The thread and its running summary. ``use_llm`` lets ``on_turn`` call the chat
    model to write the summary; it is off by default because ``on_turn`` is meant to
    stay cheap and a tiny local model summarises worse than the extractive path.
    """

    name = "working"

    def __init__(self, use_llm: bool = False) -> None:
        self.use_llm = use_llm

    def on_turn(self, env: LayerEnv, turn: Sequence[LoggedMessage]) -> dict[str, Any] | None:
        removed, summary = compact(
            env.state.get("messages", []),
            env.state.get("summary") or "",
            env.context.working_budget_tokens,
            env.context.keep_last_messages,
            chat_model=env.chat_model if self.use_llm else None,
        )
        if not removed:
            return None
        return {"messages": [RemoveMessage(id=i) for i in removed], "summary": summary}

    def can_recall(self, env: LayerEnv, query: str) -> bool:
        return bool(env.state.get("summary"))

    def recall(self, env: LayerEnv, query: str) -> list[Recalled]:
        summary = env.state.get("summary")
        return [Recalled(kind="summary", text=summary, score=1.0)] if summary else []
