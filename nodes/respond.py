"""respond: call the chat model with the assembled prompt and the working memory.

When tools are on for the run (``chat_tools``; auto: only ``openai:*`` models)
the model is offered the run's tools; a reply that calls them goes to the
``tools`` node and comes back here, at most ``MAX_TOOL_ROUNDS`` times a turn.
Then the model answers once more without tools, so a turn always ends on an
answer, never on tool messages. The embedded tiny model gets no tools; its users
reach the same operations through chat commands (/remember, /forget, /memories).

When the answer check sends the turn back (``check_verdict`` ``retry``, an edge of
the graph), the request restates the memories the last try went against, with a
seed per try (nodes/check/retry.py).

Every call is fitted into the model's context window, and no model or server
error ends the turn: it gets one clear line instead (nodes/model_call.py). When
the memory block had to shrink to fit, the prompt kept in state is the one sent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langgraph.runtime import Runtime

from core.context import Context
from memory.env import context_of
from memory.tools.tool_node import ToolFactory, with_malformed_calls_kept
from memory.upkeep.items import pause
from models.endpoint import first_line
from models.loader import chat_tools_enabled, load_chat_model
from nodes.check.draft import DRAFT, held, holds_back
from nodes.check.retry import is_retry, restated, sampling_kwargs
from nodes.model_call import Fit, call_model, failure_reply
from nodes.request_fit import fit_request
from nodes.window import working_window

MAX_TOOL_ROUNDS = 4
NO_ANSWER = "I could not finish that with my tools; please ask again, perhaps more simply."

__all__ = ["MAX_TOOL_ROUNDS", "ToolFactory", "make_respond", "working_window"]


def tool_rounds(state: dict[str, Any]) -> int:
    """Tool rounds so far this turn: a turn that is not back from the tools starts at 0."""
    messages = state.get("messages") or []
    return int(state.get("tool_rounds") or 0) if messages and isinstance(messages[-1], ToolMessage) else 0


def final_answer(reply: AIMessage, after_tools: bool) -> AIMessage:
    """The reply with tool calls dropped (none were offered), and never empty after tool rounds."""
    text = reply.text.strip()
    if not reply.tool_calls and not reply.invalid_tool_calls and (text or not after_tools):
        return reply
    return AIMessage(content=text or NO_ANSWER, id=reply.id, response_metadata=reply.response_metadata)


def _answer(reply: AIMessage, quiet: bool) -> dict[str, Any]:
    """The turn's answer: a draft for the check when ``quiet``, else straight into the thread."""
    return held(reply) if quiet else {"messages": [reply], DRAFT: None}


def make_respond(
    chat_model: BaseChatModel | None = None, tool_factory: ToolFactory | None = None
) -> Callable[..., dict[str, Any]]:
    """The respond node over ``chat_model`` (default: the context's spec), offering ``tool_factory``'s tools."""

    def respond(state: dict[str, Any], runtime: Runtime[Context]) -> dict[str, Any]:
        ctx = context_of(runtime)
        pause()  # test hook (MEMORY_UPKEEP_TEST_PAUSE): a turn that read its thread, not yet written back
        try:
            model = chat_model or load_chat_model(ctx.chat_model, ctx.max_new_tokens)
        except Exception as err:  # e.g. an openai: spec without a key; the turn still ends on a line
            line = f"(The chat model {ctx.chat_model!r} cannot start: {first_line(err)}.)"
            return {**_answer(failure_reply(line), holds_back(state, ctx)), "tool_rounds": 0}
        rounds = tool_rounds(state)
        offer = (
            tool_factory is not None
            and rounds < MAX_TOOL_ROUNDS
            and chat_tools_enabled(ctx.chat_model, ctx.chat_tools)
        )
        tools = list(tool_factory(runtime, state)) if offer and tool_factory else []

        quiet = holds_back(state, ctx)
        retrying = is_retry(state)
        asked = restated(state) if retrying else state
        sampling = sampling_kwargs(model, int(state.get("check_retry") or 1) - 1) if retrying else {}

        def fitted(offered: list[Any]) -> Fit:
            return lambda window, squeeze: fit_request(asked, ctx, window, offered, squeeze)

        reply, sent = call_model(model, fitted(tools), ctx.context_window_tokens, stream=not quiet, **sampling)
        if sent.tools and not (reply.tool_calls or reply.invalid_tool_calls or reply.text.strip()):
            # Neither words nor calls: the llama.cpp server's function-calling format answers
            # this way whenever its model picks "message". Asked again without tools, it talks.
            reply, sent = call_model(model, fitted([]), ctx.context_window_tokens, stream=not quiet, **sampling)
        updates: dict[str, Any] = {"system_prompt": sent.system} if sent.memory_trimmed else {}
        if sent.tools and (reply.tool_calls or reply.invalid_tool_calls):
            return {**updates, "messages": [with_malformed_calls_kept(reply)], "tool_rounds": rounds + 1}
        return {**updates, **_answer(final_answer(reply, after_tools=rounds > 0), quiet), "tool_rounds": 0}

    return respond
