"""The ``consolidator`` graph (langgraph.json): one upkeep pass for the run's user, enqueueable or on a cron."""

from __future__ import annotations

import json
from pathlib import Path

from app.runtime import MemoryAgent
from graph.consolidator import build_consolidator
from stores.namespaces import PROFILE
from tests.support.upkeep_helpers import context, plant, session

ROOT = Path(__file__).resolve().parents[1]


def test_langgraph_json_names_the_consolidator_graph() -> None:
    graphs = json.loads((ROOT / "langgraph.json").read_text())["graphs"]
    assert graphs["consolidator"] == "./graph/consolidator.py:graph"


def test_the_graph_runs_one_pass_for_the_context_user_at_the_given_time(tmp_path: Path) -> None:
    with MemoryAgent(context(tmp_path)) as agent:
        plant(agent, *(session(f"s{i}", i, "I ordered the vegetarian lasagna.") for i in range(3)))
        graph = build_consolidator().compile(store=agent.store)
        dry = graph.invoke({"dry_run": True, "now": "2025-02-01T00:00:00Z"}, context=agent.context)["report"]
        assert dry["user_id"] == "alice" and dry["dry_run"] and dry["changed"] > 0
        assert agent.env().store.get(agent.env().scope.ns(PROFILE), "diet") is None
        out = graph.invoke({"now": "2025-02-01T00:00:00Z"}, context=agent.context)["report"]
        assert out["now"].startswith("2025-02-01") and out["changed"] > 0
        assert agent.env().store.get(agent.env().scope.ns(PROFILE), "diet").value["value"] == "vegetarian"
        again = graph.invoke({"now": "2025-02-01T00:00:00Z"}, context=agent.context)["report"]
        assert again["changed"] == 0
