"""respond: call the chat model with the assembled prompt and the working memory.

Capable models (those that implement ``bind_tools``) get the memory tools and a
short tool loop. The embedded tiny model gets no tools; its users reach the same
operations through chat commands (/remember, /forget, /memories).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage, ToolMessage, trim_messages
from langchain_core.messages.utils import count_tokens_approximately
from langchain_core.tools import BaseTool
from langgraph.runtime import Runtime

from graph.context import Context
from models.loader import load_chat_model
from nodes.env import context_of

MAX_TOOL_ROUNDS = 4
ToolFactory = Callable[[Runtime[Context], dict[str, Any]], Sequence[BaseTool]]


def working_window(messages: list[BaseMessage], budget_tokens: int) -> list[BaseMessage]:
    """The newest messages that fit the budget, starting on a human turn, pairs intact."""
    window = trim_messages(
        messages,
        max_tokens=budget_tokens,
        token_counter=count_tokens_approximately,
        strategy="last",
        start_on="human",
        allow_partial=False,
    )
    return window or messages[-1:]


def supports_tools(model: BaseChatModel) -> bool:
    """Whether the model implements function calling (the base class raises)."""
    return type(model).bind_tools is not BaseChatModel.bind_tools


def _run_tool(call: dict[str, Any], tools: dict[str, BaseTool]) -> ToolMessage:
    tool = tools.get(call["name"])
    if tool is None:
        content = f"error: unknown tool {call['name']!r}; available: {sorted(tools)}"
    else:
        try:
            content = str(tool.invoke(call.get("args") or {}))
        except Exception as err:  # a tool error is reported to the model, not raised
            content = f"error: {err}"
    return ToolMessage(content=content, tool_call_id=call["id"], name=call["name"])


def make_respond(chat_model: BaseChatModel | None = None, tool_factory: ToolFactory | None = None) -> Callable[..., dict[str, Any]]:
    def respond(state: dict[str, Any], runtime: Runtime[Context]) -> dict[str, Any]:
        ctx = context_of(runtime)
        model = chat_model or load_chat_model(ctx.chat_model, ctx.max_new_tokens)
        tools = list(tool_factory(runtime, state)) if tool_factory and supports_tools(model) else []
        bound = model.bind_tools(tools) if tools else model
        by_name = {t.name: t for t in tools}
        history = working_window(list(state.get("messages") or []), ctx.working_budget_tokens)
        prompt: list[BaseMessage] = [SystemMessage(content=state.get("system_prompt") or ctx.persona), *history]
        new: list[BaseMessage] = []
        for _ in range(MAX_TOOL_ROUNDS):
            reply = bound.invoke(prompt + new)
            new.append(reply)
            if not (isinstance(reply, AIMessage) and reply.tool_calls and by_name):
                break
            new.extend(_run_tool(call, by_name) for call in reply.tool_calls)
        return {"messages": new}

    return respond
