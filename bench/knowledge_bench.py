"""The knowledge base, measured: search latency, answer retrieval on a handbook, and a mixed turn.

``latency``: ``knowledge search`` (``search_chunks``: the store's hybrid search over
``KNOWLEDGE_CHUNKS``) at 10k and 100k chunks, on our FAISS + SQLite store and on
LangGraph's ``InMemoryStore`` in the same run, the same chunks and queries. Embeddings
are ``hash:384`` (feature hashing): they cost the same for both stores and make the fill
fast, and latency does not depend on what the vectors mean. Query embedding included.

``qa``: the invented handbook in ``bench/datasets/handbook/`` (24 pages) is added with
``add_file``; each of the 100 labelled questions of ``bench/datasets/handbook_questions.tsv``
(labels written before any retrieval ran; 30 held out, never looked at while writing the
handbook's code paths) is a hit at k when one of the top k chunks is the labelled page
and section. Reports hit@1, hit@5 and MRR (over the top 10) per split.

``mixed``: one user holding 1,000 memories (LoCoMo messages imported through every
default layer) and a 500-chunk knowledge base; the per-turn memory overhead (the graph's
retrieve + assemble, every default layer, query embedding included, no LLM) over the 100
handbook questions, as ``bench/turn_overhead.py`` measures it.

    python -m bench.knowledge_bench latency [--sizes 10000 100000] [--queries 100]
    python -m bench.knowledge_bench qa [--embedding-model local]
    python -m bench.knowledge_bench mixed [--embedding-model local]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
from langchain_core.messages import HumanMessage
from langgraph.store.base import BaseStore, PutOp
from langgraph.store.memory import InMemoryStore

from memory.knowledge.base import add_file, search_chunks
from models.loader import load_embeddings
from stores.namespaces import KNOWLEDGE_CHUNKS
from stores.open import open_store

DATA = Path(__file__).parent / "datasets"
HANDBOOK = DATA / "handbook"
QUESTIONS = DATA / "handbook_questions.tsv"
BATCH = 5000


def questions() -> list[dict[str, str]]:
    """The labelled handbook questions: id, split, doc, section, question."""
    rows = []
    for line in QUESTIONS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            qid, split, doc, section, text = line.split("\t")
            rows.append({"id": qid, "split": split, "doc": doc, "section": section, "question": text})
    return rows


def pct(samples: Sequence[float]) -> tuple[float, float]:
    """(p50, p95) in ms of samples in seconds."""
    ms = sorted(s * 1000 for s in samples)
    return statistics.median(ms), ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]


def synthetic_chunks(n: int, seed: int = 0) -> list[dict[str, object]]:
    """``n`` chunk values shaped like ``add_file``'s, from the handbook's words, shuffled."""
    words = sorted({w.strip(".,;:()").lower() for p in HANDBOOK.glob("*.md") for w in p.read_text().split()} - {""})
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(words), (n, 40))
    return [{"text": " ".join(words[j] for j in row), "doc": f"/bench/doc{i // 20}.md", "title": f"doc{i // 20}.md",
             "section": f"Part {i % 20}", "chunk": i % 20, "version": "bench"} for i, row in enumerate(picks)]


def fill(store: BaseStore, chunks: Sequence[dict[str, object]]) -> float:
    """Put the chunks in batches; returns seconds."""
    t = time.perf_counter()
    for lo in range(0, len(chunks), BATCH):
        store.batch([PutOp(KNOWLEDGE_CHUNKS, f"c{i}", chunks[i]) for i in range(lo, min(len(chunks), lo + BATCH))])
    return time.perf_counter() - t


def time_search(store: BaseStore, queries: Sequence[str]) -> tuple[float, float]:
    search_chunks(store, queries[0], 5)  # warm-up: loads the partition
    samples = []
    for q in queries:
        t = time.perf_counter()
        search_chunks(store, q, 5)
        samples.append(time.perf_counter() - t)
    return pct(samples)


def latency(sizes: Sequence[int], n_queries: int, mem_queries: int) -> str:
    qs = [q["question"] for q in questions()][:n_queries]
    rows = ["| chunks | FaissSqliteStore p50 / p95 ms | InMemoryStore p50 / p95 ms | fill s (ours / InMemory) |",
            "|---|---|---|---|"]
    emb = load_embeddings("hash:384")
    for n in sizes:
        chunks = synthetic_chunks(n)
        with tempfile.TemporaryDirectory() as tmp:
            ours = open_store(tmp, "hash:384")
            ours_fill = fill(ours, chunks)
            o50, o95 = time_search(ours, qs)
            ours.close()  # type: ignore[attr-defined]
        mem = InMemoryStore(index={"dims": 384, "embed": emb, "fields": ["text"]})
        mem_fill = fill(mem, chunks)
        m50, m95 = time_search(mem, qs[:mem_queries])
        del mem
        rows.append(f"| {n:,} | {o50:.1f} / {o95:.1f} | {m50:.1f} / {m95:.1f} | {ours_fill:.0f} / {mem_fill:.0f} |")
        print(rows[-1], flush=True)
    return (f"Knowledge search latency, k=5, hash:384 embeddings (query embedding included), {len(qs)} queries "
            f"on ours, {min(mem_queries, len(qs))} on InMemoryStore.\n\n" + "\n".join(rows))


def _section_of(value: dict[str, object]) -> str:
    return str(value.get("section") or "").split(" / ")[-1]


def qa(embedding_model: str) -> str:
    rows = questions()
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(tmp, embedding_model)
        for page in sorted(HANDBOOK.glob("*.md")):
            add_file(store, page)
        ranks: dict[str, list[int | None]] = {"dev": [], "held": []}
        for q in rows:
            hits = search_chunks(store, q["question"], 10)
            found = [i for i, h in enumerate(hits) if h.value["title"] == q["doc"] and _section_of(h.value) == q["section"]]
            ranks[q["split"]].append(found[0] + 1 if found else None)
        store.close()  # type: ignore[attr-defined]
    lines = ["| split | questions | hit@1 | hit@5 | MRR@10 |", "|---|---|---|---|---|"]
    for split, rs in (*ranks.items(), ("all", ranks["dev"] + ranks["held"])):
        hit1 = sum(r == 1 for r in rs) / len(rs)
        hit5 = sum(r is not None and r <= 5 for r in rs) / len(rs)
        mrr = sum(1 / r for r in rs if r) / len(rs)
        lines.append(f"| {split} | {len(rs)} | {hit1:.2f} | {hit5:.2f} | {mrr:.2f} |")
    return (f"Handbook retrieval ({len(list(HANDBOOK.glob('*.md')))} pages, {len(rows)} questions), "
            f"embeddings {embedding_model}; a hit is the labelled page and section.\n\n" + "\n".join(lines))


def mixed(embedding_model: str, memories: int, kb_chunks: int) -> str:
    from app.runtime import MemoryAgent
    from bench.locomo_recall import DEFAULT_DATA, load_conversation
    from bench.turn_overhead import hot_path
    from core.context import Context
    from memory.layers import default_layers
    from nodes.importer import import_messages

    convs = [load_conversation(d) for d in sorted(DEFAULT_DATA.iterdir()) if (d / "conversation.jsonl").exists()]
    base = [m for msgs, _ in convs for m in msgs]
    qs = [q["question"] for q in questions()]
    with tempfile.TemporaryDirectory() as tmp:
        ctx = Context(user_id="bench", data_dir=tmp, chat_model="scripted", embedding_model=embedding_model)
        with MemoryAgent(ctx) as agent:
            for page in sorted(HANDBOOK.glob("*.md")):
                add_file(agent.store, page)
            real = [i.value for i in agent.store.search(KNOWLEDGE_CHUNKS, limit=10_000)]
            extra = [{**real[i % len(real)], "text": f"{real[i % len(real)]['text']} (edition {i})",
                      "doc": f"/bench/edition{i}.md"} for i in range(kb_chunks - len(real))]
            fill(agent.store, extra)
            env = agent.env()
            held: dict[str, int] = {}
            done = 0
            while sum(held.values()) < memories:  # messages and what they became; LoCoMo in copies
                copy, at = divmod(done, len(base))
                batch = [replace(m, id=f"c{copy}-{m.id}", thread=f"c{copy}-{m.thread}") for m in base[at: at + 50]]
                import_messages(batch, env, default_layers(), progress=False)
                done += len(batch)
                held = {k: len(agent.store.search(env.scope.ns(k), limit=100_000))
                        for k in ("messages", "facts", "episodes", "profile")}
            kb = len(agent.store.search(KNOWLEDGE_CHUNKS, limit=100_000))
            graph = hot_path(agent)
            cfg = {"configurable": {"thread_id": "bench"}}
            graph.invoke({"messages": [HumanMessage("warm up")]}, cfg, context=ctx)
            cache = getattr(env.embeddings, "_cache", {})
            inner = getattr(env.embeddings, "inner", env.embeddings)
            samples, embed_only, with_knowledge = [], [], 0
            for q in qs:
                t = time.perf_counter()
                inner.embed_query(q)  # the baseline, same loop: embedding the query alone
                embed_only.append(time.perf_counter() - t)
                cache.clear()  # a new message is never cached
                t = time.perf_counter()
                out = graph.invoke({"messages": [HumanMessage(q, id="q")]}, cfg, context=ctx)
                samples.append(time.perf_counter() - t)
                with_knowledge += "<knowledge>" in (out.get("system_prompt") or "")
    p50, p95 = pct(samples)
    e50, e95 = pct(embed_only)
    return (f"Mixed prompt: {kb} knowledge chunks + one user's {sum(held.values())} memories {held}, embeddings "
            f"{embedding_model}, {len(qs)} handbook questions; retrieve + assemble, every default layer, query "
            f"embedding included, no LLM. Turns whose prompt cites knowledge: {with_knowledge} of {len(qs)}.\n\n"
            "| path | p50 ms | p95 ms |\n|---|---|---|\n"
            f"| query embedding alone (baseline) | {e50:.1f} | {e95:.1f} |\n"
            f"| retrieve + assemble, all layers | {p50:.1f} | {p95:.1f} |\n"
            f"| difference: the memory and knowledge work | {p50 - e50:.1f} | |")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="part", required=True)
    s = sub.add_parser("latency")
    s.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    s.add_argument("--queries", type=int, default=100)
    s.add_argument("--mem-queries", type=int, default=20, help="queries timed on InMemoryStore (slow at 100k)")
    for name in ("qa", "mixed"):
        s = sub.add_parser(name)
        s.add_argument("--embedding-model", default="local")
    s.add_argument("--memories", type=int, default=1000)
    s.add_argument("--chunks", type=int, default=500)
    args = ap.parse_args(argv)
    if args.part == "latency":
        print(latency(args.sizes, args.queries, args.mem_queries))
    elif args.part == "qa":
        print(qa(args.embedding_model))
    else:
        print(mixed(args.embedding_model, args.memories, args.chunks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
