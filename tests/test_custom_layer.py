"""The README's "Make it yours" example, kept honest: add a layer, remove a layer.

A layer is any object with ``recall`` / ``on_turn`` / ``on_session_end``;
``LayerBase`` makes every hook a no-op so a new layer writes only what it needs.
"""

from __future__ import annotations

from app.runtime import MemoryAgent
from core.context import Context
from memory.layers import default_layers
from memory.layers.base import LayerBase, LayerEnv, MemoryLayer, Recalled
from stores.namespaces import EPISODES, UserScope

MEETING = "Design review with Priya on Friday at 10:00."


class CalendarLayer(LayerBase):
    """Recalls the user's next meeting: a stand-in for any outside source (a CRM, a calendar API)."""

    name = "calendar"

    def recall(self, env: LayerEnv, query: str) -> list[Recalled]:
        if "meeting" not in query.lower():
            return []
        return [Recalled(kind="fact", text=MEETING, score=0.9, meta={"source": "calendar"})]


def test_a_custom_layer_reaches_the_prompt(ctx: Context) -> None:
    layers = [*default_layers(), CalendarLayer()]
    assert isinstance(layers[-1], MemoryLayer)
    with MemoryAgent(ctx, layers=layers) as agent:
        unrelated = agent.say("Suggest a recipe.", "t1")
        result = agent.say("When is my next meeting?", "t1")
    assert MEETING in result.system_prompt.split("Current date:")[0]
    assert any(r["text"] == MEETING for r in result.recalled)
    assert MEETING in result.reply  # the scripted model repeats what memory gave it
    assert MEETING not in unrelated.system_prompt  # the layer's read policy decides


def test_swapping_a_layer_swaps_its_nodes_in_the_graph() -> None:
    """Studio draws the compiled graph: the new layer shows by its name, the old one is gone."""
    from graph.builder import build_graph

    layers = [CalendarLayer() if layer.name == "episodic" else layer for layer in default_layers()]
    nodes = set(build_graph(layers=layers).compile().get_graph().nodes)
    assert {"recall_calendar", "consolidate_calendar"} <= nodes
    assert not {"recall_episodic", "consolidate_episodic"} & nodes
    assert {"recall_semantic", "recall_message_log", "consolidate_semantic"} <= nodes


def test_two_layers_of_one_name_are_refused() -> None:
    import pytest

    from graph.builder import build_graph

    with pytest.raises(ValueError, match="two layers share the name 'calendar'"):
        build_graph(layers=[CalendarLayer(), CalendarLayer()])


def test_removing_a_default_layer(ctx: Context) -> None:
    layers = [layer for layer in default_layers() if layer.name != "episodic"]
    assert "episodic" not in {layer.name for layer in layers}
    with MemoryAgent(ctx, layers=layers) as agent:
        agent.say("I'm vegetarian. Let's plan the Lisbon trip for May.", "t1")
        agent.end_session("t1")
        assert agent.store.search(UserScope(ctx.user_id).ns(EPISODES), limit=10) == []
        prompt = agent.say("What should I cook tonight?", "t2").system_prompt
    assert "vegetarian" in prompt  # the other layers still work
    assert 'kind="episode"' not in prompt


def test_a_custom_layer_list_reaches_import_and_recall(ctx: Context, tmp_path) -> None:
    """The CLI's import and recall use the agent's layer list, not a second default list."""
    import json

    from nodes.importer import import_jsonl
    from nodes.recall import recall_queries

    seen: list[str] = []

    class Counting(CalendarLayer):
        def on_session_end(self, env, session):  # type: ignore[override]
            seen.append(session[-1].thread)
            return None

    conversation = tmp_path / "conv.jsonl"
    conversation.write_text(json.dumps(
        {"thread": "s1", "id": "m1", "time": "2025-01-01T10:00:00", "role": "user", "text": "I like tea."}) + "\n")
    queries = tmp_path / "queries.jsonl"
    queries.write_text(json.dumps({"id": "q1", "query": "When is my meeting?"}) + "\n")
    with MemoryAgent(ctx, layers=[*default_layers(), Counting()]) as agent:
        import_jsonl(str(conversation), agent.env(), agent.layers, progress=False)
        rows = list(recall_queries(str(queries), agent.env(), agent.layers, k=5, kind=None))
    assert seen == ["s1"]  # the custom layer consolidated the imported session
    assert any(r["text"] == MEETING for r in rows[0]["results"])  # and answered the recall
