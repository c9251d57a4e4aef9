"""Background consolidation: deferred, debounced per thread, flushed on /end, on reads and on close,
and once flushed the same memories as the synchronous path."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from app.runtime import MemoryAgent
from core.context import Context
from memory.layers import default_layers
from memory.layers.base import LayerBase, LayerEnv, LoggedMessage
from stores.namespaces import FACTS, PROFILE
from tests.support import cli as in_process

ROOT = Path(__file__).resolve().parents[1]
TURNS = ["I'm vegan.", "I live in Lisbon.", "My sister Ana works at Siemens."]
LONG = 30.0  # seconds: the timer never fires during a test; flushes decide


class CountingLayer(LayerBase):
    """A background layer that records every ``on_turn`` call it gets."""

    name = "counting"
    background = True

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def on_turn(self, env: LayerEnv, turn: Sequence[LoggedMessage]) -> dict[str, Any] | None:
        self.calls.append([m.text for m in turn])
        return None


def agent_with(ctx: Context, delay: float) -> tuple[MemoryAgent, CountingLayer]:
    counting = CountingLayer()
    return MemoryAgent(replace(ctx, consolidation_delay_s=delay), layers=[*default_layers(), counting]), counting


def memories(agent: MemoryAgent) -> dict[str, set[str]]:
    """Profile and fact texts, read from the raw store (no flush)."""
    scope = agent._env().scope
    return {kind: {i.value["text"] for i in agent.store.search(scope.ns(kind), limit=100)} for kind in (PROFILE, FACTS)}


def test_three_quick_turns_give_one_consolidation_run(ctx: Context) -> None:
    agent, counting = agent_with(ctx, LONG)
    with agent:
        for text in TURNS:
            agent.say(text, "t1")
        assert counting.calls == []  # nothing of the background part ran in the turns
        assert memories(agent) == {PROFILE: set(), FACTS: set()}
        assert agent.worker is not None and agent.worker.pending() == ["alice:t1"]
        agent.flush("t1")
        assert agent.worker.runs == 1 and agent.worker.pending() == []  # one run...
        # ...handing on each turn as the synchronous path does: one on_turn per turn, in order
        assert [call[0] for call in counting.calls] == TURNS
        assert memories(agent)[PROFILE]
        agent.flush("t1")  # nothing left: no second run
        assert len(counting.calls) == 3 and agent.worker.runs == 1


def test_the_idle_timer_runs_it_without_a_flush(ctx: Context) -> None:
    agent, counting = agent_with(ctx, 0.2)
    with agent:
        agent.say(TURNS[0], "t1")
        deadline = time.monotonic() + 60
        while not counting.calls and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(counting.calls) == 1
        assert memories(agent)[PROFILE]


def test_end_flushes_before_the_session_is_consolidated(ctx: Context) -> None:
    agent, counting = agent_with(ctx, LONG)
    with agent:
        agent.say(TURNS[0], "t1")
        agent.say(TURNS[1], "t1")
        agent.end_session("t1")
        assert [call[0] for call in counting.calls] == TURNS[:2]
        assert len(memories(agent)[PROFILE]) == 2


def test_close_flushes(ctx: Context) -> None:
    agent, counting = agent_with(ctx, LONG)
    with agent:
        agent.say(TURNS[0], "t1")
        agent.say(TURNS[1], "other")
    assert len(counting.calls) == 2  # one run per thread
    with MemoryAgent(replace(ctx, consolidation_delay_s=0)) as again:
        assert len(memories(again)[PROFILE]) == 2


def test_a_command_reads_after_a_flush(ctx: Context) -> None:
    agent, _ = agent_with(ctx, LONG)
    with agent:
        agent.say(TURNS[0], "t1")
        env = agent.env()  # what /memories, recall, export and forget use
        assert env.store.search(env.scope.ns(PROFILE), limit=10)


def test_once_flushed_the_memories_are_the_synchronous_ones(ctx: Context, tmp_path: Path) -> None:
    script = [*TURNS, "Actually I'm not vegan anymore.", "I prefer short answers.", "I work at Google now."]
    results = []
    for delay, sub in ((0, "sync"), (LONG, "deferred")):
        agent, _ = agent_with(replace(ctx, data_dir=str(tmp_path / sub)), delay)
        with agent:
            for text in script:
                agent.say(text, "t1")
            agent.flush()
            results.append(memories(agent))
    assert results[0] == results[1]
    assert results[0][PROFILE]


def test_the_graph_consolidates_deferred_turns_at_session_end_and_in_a_consolidation_run(ctx: Context) -> None:
    """The server path: a turn with ``defer_consolidation``, then either ``end_session`` or a
    run whose input names ``consolidate_thread`` (on a thread of its own)."""
    with MemoryAgent(replace(ctx, consolidation_delay_s=0)) as agent:
        for thread in ("t1", "t2"):
            turn = {"messages": [("user", f"I live in {'Lisbon' if thread == 't1' else 'Porto'}.")],
                    "defer_consolidation": True}
            agent.graph.invoke(turn, agent.config(thread), context=agent.context)
        assert memories(agent)[PROFILE] == set()
        assert agent.state("t1").get("defer_consolidation") is False  # a per-turn flag
        agent.graph.invoke({"mode": "end_session"}, agent.config("t1"), context=agent.context)
        assert any("Lisbon" in t for t in memories(agent)[PROFILE])
        agent.graph.invoke({"mode": "consolidate_thread", "chat_thread": "alice:t2"}, agent.config("t2-consolidate"), context=agent.context)
        assert any("Porto" in t for t in memories(agent)[PROFILE])


def test_a_synchronous_turn_clears_a_backlog_first(ctx: Context) -> None:
    with MemoryAgent(replace(ctx, consolidation_delay_s=0)) as agent:
        agent.graph.invoke({"messages": [("user", "I'm vegan.")], "defer_consolidation": True},
                           agent.config("t1"), context=agent.context)
        assert memories(agent)[PROFILE] == set()
        agent.say("I live in Lisbon.", "t1")
        assert len(memories(agent)[PROFILE]) == 2


def test_the_cli_chat_defers_and_flushes_on_exit(tmp_path: Path) -> None:
    data = tmp_path / "data"
    base = [sys.executable, "-m", "app.cli", "--data-dir", str(data), "--chat-model", "scripted",
            "--embedding-model", "hash:64"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MEMORY_CONSOLIDATION_DELAY_S": "30"}
    chat = in_process.run([*base, "chat", "--user", "alice", "--thread", "t1"], input="I'm vegan.\n/quit\n",
                          capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)
    assert chat.returncode == 0, chat.stderr[-2000:]
    shown = in_process.run([*base, "memories", "--user", "alice"], capture_output=True, text=True, timeout=300,
                           cwd=ROOT, env=env)
    assert shown.returncode == 0, shown.stderr[-2000:]
    assert "vegan" in shown.stdout.lower()

