"""Per-turn memory overhead: retrieve + assemble at ~10k memories of one user.

Measures the graph's own retrieve, per-layer recall and assemble nodes, wired
as the builder wires them (``add_recall``: the recall node of every default layer
that can recall this turn, in parallel, then the prompt rendering and budget),
query embedding included, no LLM.
Side by side, in the same loop, it times the floor no memory system avoids:
embedding the query once (the embedded MiniLM on onnxruntime). The ratio says what the memory
machinery costs on top.

Setup: the LoCoMo sample (CC BY-NC 4.0, snap-research) is imported through all
default layers, in copies, until the user holds ``--target`` memories (messages,
facts, episodes). Copies share texts, so the embedding cache keeps setup short.

    python -m bench.turn_overhead [--target 10000] [--queries 100]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from langchain_core.messages import HumanMessage
from langgraph.graph import END, START, StateGraph

from app.runtime import MemoryAgent
from bench.locomo_recall import DEFAULT_DATA, load_conversation
from core.context import Context
from core.state import State
from graph.builder import add_recall
from memory.layers import default_layers
from nodes.assemble import make_assemble
from nodes.importer import import_messages
from nodes.retrieve import make_retrieve
from stores.namespaces import EPISODES, FACTS, MESSAGES, PROFILE

RESULTS = Path(__file__).resolve().parent / "results" / "turn_overhead.md"


def hot_path(agent: MemoryAgent):  # type: ignore[no-untyped-def]
    """Retrieve → recall_<layer> → assemble only: exactly the memory work a turn adds before the LLM."""
    layers = default_layers()
    g = StateGraph(State, context_schema=Context)
    g.add_node("retrieve", make_retrieve())
    g.add_node("assemble", make_assemble([layer.name for layer in layers]))
    add_recall(g, layers)
    g.add_edge(START, "retrieve")
    g.add_edge("assemble", END)
    return g.compile(store=agent.store)


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def count(agent: MemoryAgent, kind: str) -> int:
    ns = agent.env().scope.ns(kind)
    return len(agent.store.search(ns, limit=1_000_000))


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--target", type=int, default=10_000, help="memories to hold before timing")
    p.add_argument("--queries", type=int, default=100)
    p.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = p.parse_args(argv)

    convs = [load_conversation(d) for d in sorted(args.data.iterdir()) if (d / "conversation.jsonl").exists()]
    base = [m for msgs, _ in convs for m in msgs]
    questions = [q.query for _, qs in convs for q in qs][: args.queries]
    with tempfile.TemporaryDirectory() as tmp:
        ctx = Context(user_id="bench", data_dir=tmp, chat_model="scripted", embedding_model="local")
        with MemoryAgent(ctx) as agent:
            env, layers, copies, held = agent.env(), default_layers(), 0, 0
            t0 = time.perf_counter()
            while held < args.target:
                batch = [replace(m, id=f"c{copies}-{m.id}", thread=f"c{copies}-{m.thread}") for m in base]
                import_messages(batch[: max(1, args.target - held)], env, layers, progress=False)
                copies += 1
                held = sum(count(agent, k) for k in (MESSAGES, FACTS, EPISODES, PROFILE))
            setup_s = time.perf_counter() - t0
            held_by_kind = {k: count(agent, k) for k in (MESSAGES, FACTS, EPISODES, PROFILE)}
            graph = hot_path(agent)
            cached = env.embeddings  # the process-wide embedder, shared with the store
            inner = getattr(cached, "inner", cached)
            cfg = {"configurable": {"thread_id": "bench"}}  # retrieve claims the thread for the user
            turn_ms: list[float] = []
            embed_ms: list[float] = []
            graph.invoke({"messages": [HumanMessage("warm up")]}, cfg, context=ctx)  # load the model, warm the graph
            for q in questions:
                t = time.perf_counter()
                inner.embed_query(q)
                embed_ms.append((time.perf_counter() - t) * 1000)
                getattr(cached, "_cache", {}).clear()  # a new message is never cached
                t = time.perf_counter()
                graph.invoke({"messages": [HumanMessage(q, id="q")]}, cfg, context=ctx)
                turn_ms.append((time.perf_counter() - t) * 1000)
    e50, t50 = statistics.median(embed_ms), statistics.median(turn_ms)
    lines = [
        f"Per-turn memory overhead (retrieve + assemble, query embedding included, no LLM), {len(questions)} LoCoMo "
        "questions, each query also embedded alone just before its turn (MiniLM on onnxruntime, one thread).",
        f"Held for one user: {sum(held_by_kind.values())} memories {held_by_kind}; setup {setup_s:.0f} s; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.",
        "",
        "| query embedding p50 / p95 ms | retrieve + assemble p50 / p95 ms | ratio to the query embedding |",
        "|---|---|---|",
        f"| {e50:.1f} / {_p95(embed_ms):.1f} | {t50:.1f} / {_p95(turn_ms):.1f} | {t50 / e50:.1f}x |",
    ]
    lines += ["", "LLM calls added to the turn's hot path: 0 (retrieve and assemble call no model; see tests/test_graph.py)."]
    report = "\n".join(lines)
    print(report)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(report + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
