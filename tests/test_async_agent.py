"""An async turn on the real files (issue 44, "an async API").

``MemoryAgent.graph`` runs on the sync SQLite saver, whose async methods raise; the async
agent's graph runs on LangGraph's async saver, so ``ainvoke``, ``astream`` and the awaited
helpers work, and what they store is what the sync agent reads back.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from app.runtime import MemoryAgent
from app.runtime_async import AsyncMemoryAgent
from nodes.input_check import InvalidInput


def test_an_awaited_turn_is_stored_and_recalled_in_a_new_thread(ctx) -> None:
    async def two_sessions() -> tuple[str, list[dict], dict]:
        async with AsyncMemoryAgent(ctx) as agent:
            first = await agent.asay("I'm vegetarian and I live in Lisbon.", "t1")
            await agent.aend_session("t1")
            second = await agent.asay("Where do I live?", "t2")
            state = await agent.astate("t2")
        return first.reply, second.recalled, state

    reply, recalled, state = asyncio.run(two_sessions())
    assert reply
    assert any("Lisbon" in r.get("text", "") for r in recalled), recalled
    assert [m.type for m in state["messages"]][-2:] == ["human", "ai"]
    with MemoryAgent(ctx) as sync:  # the sync agent reads what the async one wrote
        assert any("Lisbon" in m.text for m in sync.thread_messages("t1"))


def test_the_async_graph_streams_and_ainvokes_directly(ctx) -> None:
    async def stream() -> tuple[list[str], dict]:
        async with AsyncMemoryAgent(ctx) as agent:
            nodes = [meta["langgraph_node"] async for _, meta in agent.graph.astream(
                agent.turn_input("My sister is called Ana.", "t1"), agent.config("t1"), context=agent.context,
                stream_mode="messages")]
            out = await agent.graph.ainvoke(agent.turn_input("Thanks!", "t1"), agent.config("t1"), context=agent.context)
        return nodes, out

    nodes, out = asyncio.run(stream())
    assert "respond" in nodes, nodes
    assert len([m for m in out["messages"] if m.type == "human"]) == 2


def test_the_sync_agents_graph_cannot_be_awaited_but_the_async_one_can(ctx) -> None:
    """What the issue saw: ``await MemoryAgent(...).graph.ainvoke`` raises on the sync saver."""
    with MemoryAgent(ctx) as agent, pytest.raises(NotImplementedError):
        asyncio.run(agent.graph.ainvoke(agent._turn("hi", "t1"), agent.config("t1"), context=agent.context))


def test_bad_input_and_an_unopened_agent_are_refused_before_anything_is_stored(ctx) -> None:
    agent = AsyncMemoryAgent(replace(ctx, max_message_chars=50))
    try:
        with pytest.raises(RuntimeError, match="async with"):
            asyncio.run(agent.asay("hello", "t1"))
    finally:
        agent.close()

    async def too_long() -> None:
        async with AsyncMemoryAgent(replace(ctx, max_message_chars=50)) as opened:
            with pytest.raises(InvalidInput):
                await opened.asay("x" * 500, "t1")
            assert (await opened.astate("t1")).get("messages") is None

    asyncio.run(too_long())
