"""What a cross-encoder reranker would cost per turn, against the 25 ms per-turn budget.

Issue 30's remaining recall gap is semantic (a question's category word against the
member its evidence names), which is what a cross-encoder reads. None ships offline
on these registries, so this measures its floor instead: the embedded MiniLM-L6
network itself (the graph the message log already runs on onnxruntime) over
(question, candidate) pairs, as a MiniLM-L6 cross-encoder would read them (one
sequence per pair, the question and the message joined). A real cross-encoder of
that size adds only a one-unit head, so it costs at least this. Side by side in
one run: one query embedding, the part of a turn the encoder costs today.

    python -m bench.reranker_cost [--pairs 5,10,20,50] [--reps 15]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np

from models.local_embeddings import LocalEmbeddings

DEV = Path(__file__).resolve().parent / "datasets" / "locomo-dev" / "conv-26"
BUDGET_MS = 25.0  # issue 30: per-turn memory overhead p50 at 10k memories


def _session(graph: Path, threads: int) -> Any:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(graph), options, providers=["CPUExecutionProvider"])


def _feed(tokenizer: Any, pairs: list[tuple[str, str]] | list[str]) -> dict[str, np.ndarray]:
    encoded = tokenizer.encode_batch(pairs)
    return {
        "input_ids": np.asarray([e.ids for e in encoded], dtype=np.int64),
        "attention_mask": np.asarray([e.attention_mask for e in encoded], dtype=np.int64),
        "token_type_ids": np.asarray([e.type_ids for e in encoded], dtype=np.int64),
    }


def _p50_ms(session: Any, feeds: list[dict[str, np.ndarray]]) -> float:
    times = []
    for feed in feeds:
        start = time.perf_counter()
        session.run(None, feed)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", default="5,10,20,50", help="candidates reranked per question (comma-separated)")
    parser.add_argument("--reps", type=int, default=15, help="questions timed per row")
    args = parser.parse_args(argv)
    try:
        sizes = [int(n) for n in args.pairs.split(",") if n.strip()]
    except ValueError:
        sizes = []
    if not sizes or min(sizes) < 1 or args.reps < 1:
        parser.error("--pairs takes positive integers and --reps must be at least 1")

    embeddings = LocalEmbeddings()
    embeddings.embed_query("warm up")  # builds the graph on first use
    onnx = embeddings.onnx()
    if onnx.graph is None:
        raise SystemExit("bench.reranker_cost: MiniLM's graph could not be cached; set MEMORY_MODEL_CACHE_DIR")
    tokenizer = onnx.tokenizer
    messages = [json.loads(line)["text"] for line in (DEV / "conversation.jsonl").open(encoding="utf-8")]
    questions = [json.loads(line)["query"] for line in (DEV / "queries.jsonl").open(encoding="utf-8")][: args.reps]
    cores = os.cpu_count() or 1
    sessions = {"1 thread": _session(onnx.graph, 1), f"{cores} threads": _session(onnx.graph, cores)}

    query_ms = _p50_ms(sessions["1 thread"], [_feed(tokenizer, [q]) for q in questions])
    print(f"one query embedding (today's encoder cost per turn), 1 thread: p50 {query_ms:.1f} ms\n")
    print("| candidates reranked | threads | p50 ms | × one query embedding | × the 25 ms budget |")
    print("|---|---|---|---|---|")
    for n in sizes:
        feeds = []
        for i, q in enumerate(questions):
            start = (i * n) % len(messages)
            picked = (messages * 2)[start : start + n]
            feeds.append(_feed(tokenizer, [(q, m) for m in picked]))
        for label, session in sessions.items():
            ms = _p50_ms(session, feeds)
            print(f"| {n} | {label} | {ms:.1f} | {ms / query_ms:.0f}× | {ms / BUDGET_MS:.1f}× |")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\nload average {load:.1f} on {cores} cores; pairs truncated at the model's 256 tokens")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
