"""A layer with nothing to recall this turn is skipped: its node stays in the graph, it does not run.

Each skipped node is one task less in LangGraph's thread pool per turn
(bench/README.md, "Per-turn memory overhead"); the recalled memories stay those
of every layer's recall, in layer order.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage

from app.runtime import MemoryAgent
from core.context import Context
from graph.builder import recall_node
from memory.knowledge.base import add_file
from memory.layers import default_layers
from nodes.retrieve import recall_all

SKIPPABLE = {"recall_working", "recall_knowledge", "recall_tasks", "recall_procedural"}


def _turn(agent: MemoryAgent, text: str, thread: str = "t1", msg_id: str | None = None
          ) -> tuple[set[str], dict[str, Any]]:
    """The nodes that ran in one turn (``stream_mode="updates"``) and the turn's final state."""
    ran: set[str] = set()
    cfg = agent.config(thread)
    for update in agent.graph.stream({"messages": [HumanMessage(text, id=msg_id)]}, cfg, context=agent.context,
                                     stream_mode="updates"):
        ran.update(update)
    return ran, agent.graph.get_state(cfg).values


def test_studio_still_shows_every_layer_while_empty_layers_are_not_run(ctx: Context) -> None:
    with MemoryAgent(ctx) as agent:
        nodes = set(agent.graph.get_graph().nodes)
        assert {recall_node(layer) for layer in agent.layers} <= nodes
        ran, _ = _turn(agent, "I live in Porto and my sister Ana is a nurse.")
    assert {"recall_semantic", "recall_episodic", "recall_message_log"} <= ran
    assert not ran & SKIPPABLE  # no summary, no documents, not a task, no rule


def test_a_layer_runs_once_it_has_something_to_offer(ctx: Context, tmp_path: Path) -> None:
    doc = tmp_path / "returns.md"
    doc.write_text("# Returns\n\nCheese can be returned within 30 days with the receipt.\n")
    small = replace(ctx, working_budget_tokens=60, keep_last_messages=2)
    with MemoryAgent(small) as agent:
        ran, _ = _turn(agent, "Write a short poem about the sea.")
        assert "recall_tasks" in ran and "recall_knowledge" not in ran
        add_file(agent.store, doc)
        ran, _ = _turn(agent, "Can I return cheese?")
        assert "recall_knowledge" in ran and "recall_tasks" not in ran
        for i in range(4):  # enough turns for the working layer to compact the thread into a summary
            _turn(agent, f"Here is one more long line about my garden, number {i}, with roses and tulips.")
        ran, state = _turn(agent, "What do I grow?")
        assert state.get("summary") and "recall_working" in ran and "recall_procedural" not in ran
        agent.say("Don't use emojis.", "t1")  # feedback: the procedural layer keeps a rule
        agent.end_session("t1")
        ran, state = _turn(agent, "What do I grow?", "t2")
        assert "recall_procedural" in ran and any(r["kind"] == "rule" for r in state["recalled"])


def test_skipping_changes_no_recalled_memory(ctx: Context, tmp_path: Path) -> None:
    doc = tmp_path / "returns.md"
    doc.write_text("# Returns\n\nCheese can be returned within 30 days with the receipt.\n")
    with MemoryAgent(ctx) as agent:
        add_file(agent.store, doc)
        for text in ("I'm vegetarian and I live in Porto.", "Please always answer briefly."):
            agent.say(text, "t1")
        agent.end_session("t1")
        for i, text in enumerate(("Can I return cheese?", "Write a recipe for dinner.", "Where do I live?")):
            # every layer's recall, in a loop, on the store as the turn will find it
            in_thread = {str(m.id) for m in agent.thread_messages("t2")} | {f"q{i}"}
            everything = recall_all(agent.env(), default_layers(), text, in_thread)
            _, state = _turn(agent, text, "t2", f"q{i}")
            assert _same(state["recalled"]) == _same(everything) != []


def _same(recalled: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What makes two recalls the same, less the scores' recency, which moves with the clock."""
    return [(r["kind"], r["text"], r["key"], tuple(r["sources"])) for r in recalled]
