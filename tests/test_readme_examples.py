"""The README's Python examples run as written (only the data dir and model specs are
pointed at the test's own), so a change that breaks one fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.runtime import MemoryAgent
from graph.context import Context
from tests.conftest import ROOT

README = (ROOT / "README.md").read_text()


def example(after_heading: str) -> str:
    """The first ```python block after the line that contains ``after_heading``."""
    start = README.index(after_heading)
    block = re.search(r"```python\n(.*?)```", README[start:], flags=re.S)
    assert block, f"no python example after {after_heading!r}"
    return block.group(1)


def test_add_a_tool_example(ctx: Context) -> None:
    from langgraph.runtime import Runtime

    code = example("**Add a tool.**")
    made: list[tuple[MemoryAgent, object]] = []

    def agent_on_test_data(**kwargs):  # the example's MemoryAgent(), on this test's data dir
        agent = MemoryAgent(ctx, **kwargs)
        made.append((agent, kwargs.get("tool_factory")))
        return agent

    scope: dict = {"MemoryAgent": agent_on_test_data}
    exec(compile(code, "README.md", "exec"), scope)
    agent, factory = made[-1]
    try:
        assert "tools" in agent.graph.get_graph().nodes
        tools = factory(Runtime(context=ctx, store=agent.store), {})
        assert {"weather", "remember", "search_memory", "forget", "memory"} <= {t.name for t in tools}
        assert scope["weather"].invoke({"city": "Lisbon"}) == "Sunny in Lisbon."
    finally:
        agent.close()


def test_swap_the_store_example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = example("## Swap the store or checkpointer")
    code = code.replace('load_embeddings("local")', 'load_embeddings("hash:384")')
    monkeypatch.chdir(tmp_path)  # "./data" is the example's data dir
    scope: dict = {}
    exec(compile(code, "README.md", "exec"), scope)
    graph = scope["graph"]
    assert {"retrieve", "assemble", "respond", "consolidate"} <= set(graph.get_graph().nodes)
    assert (tmp_path / "data" / "checkpoints.sqlite").exists()
