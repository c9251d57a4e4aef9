"""``stream_mode="messages"`` carries only what the user gets (docs/streaming.md).

The real graph on the real store and checkpointer, with a scripted chat model
that streams word by word. When the answer check has something to check, a
reply it may still reject is never streamed: the client gets the checked reply,
whole, from the ``check`` node. With nothing to check, tokens stream from
``respond`` as the model writes them. The embedded default (numpy SmolLM2)
streams tokens too.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGenerationChunk

from app.runtime import MemoryAgent
from memory.layers.semantic import remember
from models.scripted_chat import ScriptedChatModel
from tests.support.openai_stub import StubServer, completion

MEATY = "Try a chicken stir-fry with rice tonight."
CLEAN = "Try a tofu stir-fry with rice tonight."
FLAG = "Memory check: this suggests chicken, but you are vegetarian."


class WordStream(ScriptedChatModel):
    """Scripted replies streamed a word at a time, counting the calls."""

    disable_streaming: bool = False
    calls: int = 0

    def _stream(self, messages: list[BaseMessage], stop: Any = None,
                run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> Any:
        self.calls += 1
        for word in re.findall(r"\S+\s*", self._call(messages, stop, None, **kwargs)):
            yield ChatGenerationChunk(message=AIMessageChunk(content=word))


def _agent(ctx, responses: list[str], facts: tuple[str, ...] = ("I'm vegetarian.",)) -> tuple[MemoryAgent, WordStream]:
    model = WordStream(responses=responses)
    agent = MemoryAgent(ctx, chat_model=model)
    for fact in facts:
        remember(agent.env(), fact)
    return agent, model


def streamed(agent: MemoryAgent, text: str, thread: str) -> list[tuple[Any, dict[str, Any]]]:
    """The AI message pieces a ``messages`` stream of one turn yields, with their metadata."""
    pieces = agent.sync_graph.stream(agent._turn(text, thread), agent.config(thread), context=agent.context,
                                     stream_mode="messages")
    return [(m, meta) for m, meta in pieces if m.type in ("ai", "AIMessageChunk")]


def by_message(pieces: list[tuple[Any, dict[str, Any]]]) -> dict[str, str]:
    """Each streamed message's text, its chunks joined in order, by message id."""
    texts: dict[str, str] = {}
    for message, _ in pieces:
        texts[message.id] = texts.get(message.id, "") + message.text
    return texts


def final_reply(agent: MemoryAgent, thread: str) -> AIMessage:
    return [m for m in agent.thread_messages(thread) if isinstance(m, AIMessage)][-1]


def test_a_rejected_draft_is_never_streamed_only_the_checked_reply(ctx) -> None:
    agent, model = _agent(ctx, [MEATY, CLEAN])
    with agent:
        pieces = streamed(agent, "What should I cook tonight?", "t1")
        assert model.calls == 2  # the check did retry
        assert not any("chicken" in m.text for m, _ in pieces), [m.text for m, _ in pieces]
        reply = final_reply(agent, "t1")
        assert reply.text == CLEAN
        assert by_message(pieces) == {reply.id: CLEAN}  # one message, the one the thread keeps
        assert {meta["langgraph_node"] for _, meta in pieces} == {"check"}
        assert agent.state("t1").get("draft") is None


def test_a_flagged_reply_streams_with_its_memory_check_line(ctx) -> None:
    agent, model = _agent(ctx, [MEATY])
    with agent:
        pieces = streamed(agent, "What should I cook tonight?", "t1")
        assert model.calls == 1 + ctx.check_retries
        reply = final_reply(agent, "t1")
        assert reply.text == f"{MEATY}\n\n{FLAG}"
        assert by_message(pieces) == {reply.id: reply.text}  # the disclosure reaches the client too


@pytest.mark.parametrize("setting", ["nothing to check", "check off"])
def test_with_nothing_the_check_could_change_tokens_stream_from_respond(ctx, setting: str) -> None:
    if setting == "check off":
        agent, model = _agent(replace(ctx, check_answers=False), [MEATY])
    else:
        agent, model = _agent(ctx, [MEATY], facts=("I live in Lisbon.",))
    with agent:
        pieces = streamed(agent, "What should I cook tonight?", "t1")
        reply = final_reply(agent, "t1")
        assert reply.text == MEATY and model.calls == 1
        words = [m.text for m, _ in pieces if m.text]
        assert words == re.findall(r"\S+\s*", MEATY)  # a chunk per word, as the model wrote them
        assert by_message(pieces) == {reply.id: MEATY}
        assert {meta["langgraph_node"] for _, meta in pieces} == {"respond"}


def test_a_plain_invoke_keeps_the_checked_reply_in_the_thread(ctx) -> None:
    agent, _ = _agent(ctx, [MEATY, CLEAN])
    with agent:
        assert agent.say("What should I cook tonight?", "t1").reply == CLEAN
        assert [m.text for m in agent.thread_messages("t1")] == ["What should I cook tonight?", CLEAN]


def test_through_an_openai_compatible_server_the_rejected_draft_is_not_streamed(
    ctx, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's path: ``ChatOpenAI`` streaming from a compatible server, the check retrying."""
    stub = StubServer([completion(MEATY), completion(CLEAN)])
    monkeypatch.setenv("OPENAI_BASE_URL", stub.url)
    monkeypatch.setenv("OPENAI_API_KEY", "stub")
    try:
        with MemoryAgent(replace(ctx, chat_model="openai:stub-stream")) as agent:
            remember(agent.env(), "I'm vegetarian.")
            pieces = streamed(agent, "What should I cook tonight?", "t1")
            reply = final_reply(agent, "t1")
    finally:
        stub.close()
    assert [r.get("stream") for r in stub.requests] == [True, True]  # the model did stream, twice
    assert not any("chicken" in m.text for m, _ in pieces)
    assert by_message(pieces) == {reply.id: CLEAN}


@pytest.mark.slow
def test_the_embedded_default_streams_tokens(ctx) -> None:
    """SmolLM2 in numpy (``local``): several chunks that join into the reply the thread keeps."""
    with MemoryAgent(replace(ctx, chat_model="local", max_new_tokens=24)) as agent:
        pieces = streamed(agent, "Name a colour.", "t1")
        reply = final_reply(agent, "t1")
        assert len(pieces) > 1, [m.text for m, _ in pieces]
        assert by_message(pieces) == {reply.id: reply.text} and reply.text.strip()
        assert {meta["langgraph_node"] for _, meta in pieces} == {"respond"}
