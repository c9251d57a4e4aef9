"""A capable (tool-calling) model drives memory through tools, bound to the configured user."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import PrivateAttr

from app.runtime import MemoryAgent
from stores.namespaces import FACTS, PROFILE, UserScope


class ToolCallingModel(BaseChatModel):
    """Plays back scripted AI messages; records the tools it was given."""

    script: list[AIMessage]
    _i: int = PrivateAttr(default=0)
    _tool_names: list[str] = PrivateAttr(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "tool-calling-fake"

    def bind_tools(self, tools: Any, **kwargs: Any) -> "ToolCallingModel":
        self._tool_names = [t.name for t in tools]
        return self

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any) -> ChatResult:
        msg = self.script[self._i]
        self._i += 1
        return ChatResult(generations=[ChatGeneration(message=msg)])


def test_model_remembers_through_the_tool_for_the_configured_user(ctx) -> None:
    model = ToolCallingModel(script=[
        AIMessage(content="", tool_calls=[{"name": "remember", "args": {"text": "I love hiking in the Alps"}, "id": "c1"}]),
        AIMessage(content="Got it, you love hiking."),
    ])
    with MemoryAgent(ctx, chat_model=model) as agent:
        result = agent.say("Tell me something nice.", "t1")
        assert result.reply == "Got it, you love hiking."
        assert {"remember", "search_memory", "forget", "memory"} <= set(model._tool_names)
        thread = agent.thread_messages("t1")
        tool_results = [m for m in thread if isinstance(m, ToolMessage)]
        assert len(tool_results) == 1 and not tool_results[0].content.lower().startswith("error")
        kept = agent.store.search(UserScope("alice").ns(FACTS), limit=10) + agent.store.search(UserScope("alice").ns(PROFILE), limit=10)
        assert any("hiking" in i.value["text"] for i in kept)
        assert agent.store.search(("users", "bob"), limit=10) == []


def test_unknown_tool_is_reported_to_the_model_not_raised(ctx) -> None:
    model = ToolCallingModel(script=[
        AIMessage(content="", tool_calls=[{"name": "drop_database", "args": {}, "id": "c1"}]),
        AIMessage(content="Sorry."),
    ])
    with MemoryAgent(ctx, chat_model=model) as agent:
        assert agent.say("Hi", "t1").reply == "Sorry."
        tool_msg = [m for m in agent.thread_messages("t1") if isinstance(m, ToolMessage)][0]
        assert "unknown tool 'drop_database'" in tool_msg.content
