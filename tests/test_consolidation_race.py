"""Background consolidation under races (issue 25, item 1), in-process and fast (hash embeddings).

A turn said while a run is busy is not skipped, on the simulated clock too, and
every read or forget waits for the run in progress: flush, slash commands, plain
words and the memory tools. A ``HeldLayer`` (a real background layer, first in
the list) holds the run in progress until the test lets it go, so the race the
issue found by timing is reproduced every time.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from app.chat_repl import handle_command
from app.consolidation_worker import ConsolidationWorker
from app.runtime import MemoryAgent
from core.context import Context
from memory.layers import default_layers
from memory.layers.base import LayerBase, LayerEnv, LoggedMessage
from stores.namespaces import FACTS, PROFILE
from tests.support.tool_calls import call, capable, fake

FIXED_NOW = "2025-03-10T10:00:00Z"


class HeldLayer(LayerBase):
    """A background layer that blocks the run until ``release`` is set (it runs before the semantic layer)."""

    name = "held"
    background = True

    def __init__(self) -> None:
        self.entered, self.release = threading.Event(), threading.Event()

    def on_turn(self, env: LayerEnv, turn: Sequence[LoggedMessage]) -> dict[str, Any] | None:
        self.entered.set()
        assert self.release.wait(30), "the test never released the run"
        return None


def texts(agent: MemoryAgent) -> set[str]:
    """Profile and fact texts, read from the raw store (no flush)."""
    scope = agent._env().scope
    return {i.value["text"] for kind in (PROFILE, FACTS) for i in agent.store.search(scope.ns(kind), limit=100)}


@pytest.fixture
def held(ctx: Context) -> Iterator[tuple[MemoryAgent, HeldLayer]]:
    """An agent whose first background run of "I'm vegetarian." is in progress and held."""
    layer = HeldLayer()
    agent = MemoryAgent(replace(ctx, consolidation_delay_s=0.05), layers=[layer, *default_layers()])
    try:
        agent.say("I'm vegetarian.", "t1")
        assert layer.entered.wait(30)  # the worker's run has claimed the turn and is in the layers
        yield agent, layer
    finally:
        layer.release.set()
        agent.close()


def later(event: threading.Event, seconds: float = 0.3) -> None:
    """Let the held run go on after ``seconds``, from another thread (the caller is about to wait for it)."""
    threading.Timer(seconds, event.set).start()


def test_a_turn_said_after_a_run_on_the_simulated_clock_is_consolidated(
    ctx: Context, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--now`` gives every turn the same time: a time watermark skipped the second turn."""
    monkeypatch.setenv("MEMORY_NOW", FIXED_NOW)
    with MemoryAgent(replace(ctx, consolidation_delay_s=30)) as agent:
        agent.say("I'm vegetarian.", "t1")
        agent.flush("t1")  # what the idle timer does between two turns
        agent.say("I live in Gdansk.", "t1")
        agent.flush("t1")
        assert {"The user is vegetarian.", "The user lives in Gdansk."} <= texts(agent)


def test_flush_of_every_thread_waits_for_the_run_in_progress() -> None:
    started, release, order = threading.Event(), threading.Event(), []

    def run(thread: str) -> int:
        started.set()
        release.wait(30)
        order.append(f"run {thread}")
        return 1

    worker = ConsolidationWorker(run, 0.01)
    worker.schedule("a")
    assert started.wait(30)
    later(release)
    worker.flush()  # nothing is due any more: the run of "a" is in progress
    order.append("flushed")
    assert order[0] == "run a" and order[-1] == "flushed"  # (the flush may run "a" again: nothing left)
    worker.close()


def test_memories_wait_for_the_run_in_progress(held: tuple[MemoryAgent, HeldLayer]) -> None:
    agent, layer = held
    later(layer.release)
    assert "vegetarian" in handle_command(agent, "t1", "/memories")  # type: ignore[operator]


def test_plain_words_listing_waits_for_the_run_in_progress(held: tuple[MemoryAgent, HeldLayer]) -> None:
    agent, layer = held
    later(layer.release)
    assert "vegetarian" in agent.say("What do you remember about me?", "t1").reply


def test_a_plain_words_listing_consolidates_what_is_queued(ctx: Context) -> None:
    with MemoryAgent(replace(ctx, consolidation_delay_s=30)) as agent:
        agent.say("I'm vegetarian.", "t1")
        assert "vegetarian" in agent.say("What do you remember about me?", "t2").reply


def test_a_plain_words_forget_during_a_run_leaves_nothing(
    held: tuple[MemoryAgent, HeldLayer], ctx: Context
) -> None:
    agent, layer = held
    later(layer.release)
    asked = agent.say("Forget that I'm vegetarian.", "t1")
    assert asked.interrupt and asked.interrupt["type"] == "forget_confirm"
    assert "gone" in agent.resume("t1", True).reply
    agent.close()
    with MemoryAgent(replace(ctx, consolidation_delay_s=0)) as again:
        assert "vegetarian" not in handle_command(again, "t9", "/memories").lower()  # type: ignore[union-attr]


def test_a_slash_forget_during_a_run_leaves_nothing(held: tuple[MemoryAgent, HeldLayer], ctx: Context) -> None:
    agent, layer = held
    later(layer.release)
    handle_command(agent, "t1", "/forget vegetarian")
    agent.close()
    with MemoryAgent(replace(ctx, consolidation_delay_s=0)) as again:
        assert not any("vegetarian" in t for t in texts(again))


def test_the_forget_tool_waits_for_the_run_in_progress(ctx: Context) -> None:
    """A capable model's ``forget`` call: the graph's tools node settles before a ``reads_memory`` tool."""
    layer = HeldLayer()
    model = fake(AIMessage(content="Noted."), call("forget", {"text": "vegetarian"}, "c1"), AIMessage(content="Done."))
    with MemoryAgent(replace(capable(ctx), consolidation_delay_s=0.05), layers=[layer, *default_layers()],
                     chat_model=model) as agent:
        agent.say("I'm vegetarian.", "t1")
        assert layer.entered.wait(30)
        later(layer.release)
        agent.say("Please drop my diet from your notes.", "t1")
        assert [m.status for m in agent.thread_messages("t1") if m.type == "tool"] == ["success"]
    with MemoryAgent(replace(ctx, consolidation_delay_s=0)) as again:
        assert not any("vegetarian" in t for t in texts(again))


def test_a_message_id_shaped_like_a_card_number_is_still_consolidated(ctx: Context) -> None:
    """The queue passes the write gate, which redacts secret-shaped strings: ids must survive it."""
    with MemoryAgent(replace(ctx, consolidation_delay_s=0)) as agent:
        turn = {"messages": [HumanMessage(content="I'm vegetarian.", id="4111111111111111")],
                "defer_consolidation": True}
        agent.graph.invoke(turn, agent.config("t1"), context=agent.context)
        assert texts(agent) == set()
        agent.flush()
        assert "The user is vegetarian." in texts(agent)
