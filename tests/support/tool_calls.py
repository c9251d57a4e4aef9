"""A tool-calling fake chat model and the scripts that drive it (the capable-model tests)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from langchain_core.language_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatResult
from langchain_core.runnables import Runnable
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field

from core.context import Context


class ToolCallingFake(GenericFakeChatModel):
    """langchain-core's fake, plus ``bind_tools`` the way real providers do it (tools as a call kwarg).

    ``offered`` records, per call, the tool names the model was given ([] = none).
    """

    offered: list[list[str]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> Runnable:  # type: ignore[override]
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any) -> ChatResult:
        self.offered.append([t["function"]["name"] for t in kw.get("tools") or []])
        return super()._generate(messages, stop, run_manager, **kw)


def fake(*script: AIMessage) -> ToolCallingFake:
    return ToolCallingFake(messages=iter(script), offered=[])


def call(name: str, args: dict[str, Any], id_: str) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": id_}])


def capable(ctx: Context) -> Context:
    return replace(ctx, chat_tools="on")
