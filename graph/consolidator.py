"""The ``consolidator`` graph: one upkeep pass for the run's user (named in langgraph.json).

A second, small graph beside the chat graph, so upkeep can be enqueued as a
background run or put on a LangGraph cron job (``client.crons.create(
"consolidator", schedule="0 3 * * *")``) without a chat turn. The user comes from
the run's context and, under server auth, from the authenticated caller, exactly
as in the chat graph (``memory/env.py``). Input: ``{"dry_run": bool, "now": ISO}``
(both optional; ``now`` simulates the clock as ``--now`` does); output: the
pass's report.
"""

from __future__ import annotations

from typing import Any, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from core.context import Context
from core.run_context import RunContext
from memory.clock import parse_now
from memory.env import make_env
from memory.upkeep.run import run_upkeep


class UpkeepState(TypedDict, total=False):
    """Input and output of one upkeep run."""

    dry_run: bool
    now: str
    report: dict[str, Any]


def upkeep(state: UpkeepState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Graph node: one upkeep pass for the run's user, at ``state["now"]`` when given."""
    env = make_env(runtime, dict(state))
    if state.get("now"):
        env.now = parse_now(str(state["now"]))
    return {"report": run_upkeep(env, dry_run=bool(state.get("dry_run"))).as_dict()}


def build_consolidator(context_schema: type[Any] = Context) -> StateGraph:
    """The uncompiled one-node upkeep graph (the server's takes ``RunContext``: per-run settings only)."""
    g = StateGraph(UpkeepState, context_schema=context_schema)
    g.add_node("upkeep", upkeep)
    g.add_edge(START, "upkeep")
    g.add_edge("upkeep", END)
    return g


graph = build_consolidator(RunContext).compile()  # as the chat graph: server settings from the server
graph.name = "memory-consolidator"
