"""The run modes are entries of the graph: START routes a run by its input's ``mode``.

A turn goes to ``commands``; a session end goes straight to ``consolidate`` and a
consolidation-only run to ``consolidate_deferred`` (neither through ``commands``). The boolean
``end_session`` and string ``consolidate_thread`` flags of before ``mode`` are gone from the input.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from app.runtime import MemoryAgent
from core.context import Context
from graph.builder import build_graph
from stores.namespaces import PROFILE


def _nodes_run(agent: MemoryAgent, run_input: dict[str, Any], thread: str) -> list[str]:
    """The nodes a run executed, in order (``stream_mode="updates"``)."""
    chunks = agent.graph.stream(run_input, agent.config(thread), context=agent.context, stream_mode="updates")
    return [node for chunk in chunks for node in chunk]


def _profile(agent: MemoryAgent) -> set[str]:
    scope = agent._env().scope
    return {i.value["text"] for i in agent.store.search(scope.ns(PROFILE), limit=100)}


def test_each_run_mode_is_an_entry_drawn_from_start() -> None:
    edges = {(e.source, e.target, e.data) for e in build_graph(layers=[]).compile().get_graph().edges}
    assert ("__start__", "commands", "turn") in edges
    assert ("__start__", "consolidate", "end_session") in edges
    assert ("__start__", "consolidate_deferred", "consolidate_thread") in edges
    assert ("consolidate_deferred", "__end__", None) in edges
    assert {target for source, target, _ in edges if source == "commands"} == {"retrieve", "__end__"}


def test_the_input_offers_the_modes_as_one_typed_field() -> None:
    props = build_graph(layers=[]).compile().get_input_jsonschema()["properties"]
    assert props["mode"]["enum"] == ["turn", "end_session", "consolidate_thread"]
    assert "chat_thread" in props
    assert not {"end_session", "consolidate_thread"} & set(props)  # Studio's form shows the mode alone


def test_a_session_end_skips_commands(ctx: Context) -> None:
    run_input = {"mode": "end_session"}
    with MemoryAgent(replace(ctx, consolidation_delay_s=0)) as agent:
        agent.say("I'm vegetarian.", "t1")
        ran = _nodes_run(agent, run_input, "t1")
        assert ran[0] == "consolidate" and "commands" not in ran and "respond" not in ran
        assert ran[-1] == "consolidate_done"
        assert agent.state("t1").get("session_mark", {}).get("time")  # the session was closed


def test_a_consolidation_run_is_one_node(ctx: Context) -> None:
    run_input = {"mode": "consolidate_thread", "chat_thread": "alice:t1"}
    with MemoryAgent(replace(ctx, consolidation_delay_s=0)) as agent:
        turn = {"messages": [("user", "I live in Lisbon.")], "defer_consolidation": True}
        agent.graph.invoke(turn, agent.config("t1"), context=agent.context)
        assert _profile(agent) == set()
        assert _nodes_run(agent, run_input, "side") == ["consolidate_deferred"]
        assert any("Lisbon" in text for text in _profile(agent))


def test_a_consolidation_run_without_a_thread_consolidates_its_own(ctx: Context) -> None:
    with MemoryAgent(replace(ctx, consolidation_delay_s=0)) as agent:
        turn = {"messages": [("user", "I live in Porto.")], "defer_consolidation": True}
        agent.graph.invoke(turn, agent.config("t1"), context=agent.context)
        assert _nodes_run(agent, {"mode": "consolidate_thread"}, "t1") == ["consolidate_deferred"]
        assert any("Porto" in text for text in _profile(agent))


def test_the_mode_is_input_only_and_the_next_turn_is_a_turn(ctx: Context) -> None:
    """A mode is read at START and never kept: the thread's next plain input is a turn again."""
    with MemoryAgent(replace(ctx, consolidation_delay_s=0)) as agent:
        agent.say("I'm vegetarian.", "t1")
        agent.graph.invoke({"mode": "end_session"}, agent.config("t1"), context=agent.context)
        assert "mode" not in agent.state("t1")
        ran = _nodes_run(agent, {"messages": [HumanMessage(content="Suggest a recipe.")]}, "t1")
        assert ran[0] == "commands" and "respond" in ran


def test_an_unknown_mode_is_refused_in_one_line_and_nothing_changes(ctx: Context) -> None:
    with MemoryAgent(replace(ctx, consolidation_delay_s=0)) as agent:
        agent.say("I'm vegetarian.", "t1")
        before = (agent.state("t1"), len(agent.store.search(("users",), limit=1000)))
        with pytest.raises(ValueError) as refused:
            agent.graph.invoke({"mode": "close"}, agent.config("t1"), context=agent.context)
        assert refused.value.args == ("unknown run mode 'close': use turn, end_session or consolidate_thread",)
        assert (agent.state("t1"), len(agent.store.search(("users",), limit=1000))) == before
        assert agent.say("Suggest a recipe.", "t1").reply  # the thread takes its next turn as before


@pytest.mark.parametrize("mode, entry", [("end_session", "consolidate"), ("consolidate_thread", "consolidate_deferred")])
def test_a_run_mode_on_another_users_thread_is_refused_at_its_entry(ctx: Context, mode: str, entry: str) -> None:
    with MemoryAgent(ctx) as alice:
        alice.say("My locker code is kept at home.", "private")
        bob = replace(ctx, user_id="bob")
        chunks = alice.graph.stream({"mode": mode}, alice.config("private"), context=bob, stream_mode="updates")
        ran = [(node, update) for chunk in chunks for node, update in chunk.items()]
        assert [node for node, _ in ran] == [entry]
        assert "does not belong to user 'bob'" in ran[0][1]["error"]
        assert alice.store.search(("users", "bob"), limit=10) == []
        assert [m.text for m in alice.thread_messages("private")][0] == "My locker code is kept at home."
