"""Benchmark FaissSqliteStore against LangGraph's InMemoryStore, side by side.

Both stores get the same texts and the same precomputed random unit vectors
(384-d), injected through an embed function that looks them up, so embedding time
does not hide store cost. Query embedding is excluded except in the last row,
which uses the real local MiniLM embedder.

    .venv/bin/python -m bench.store_bench [--quick] [--big N] [--users U]

Prints a markdown table and saves it to bench/results/store.md.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from langgraph.store.base import BaseStore, PutOp
from langgraph.store.memory import InMemoryStore

from stores.faiss_sqlite import FaissSqliteStore

DIMS = 384
CHUNK = 5000
RESULTS = Path(__file__).parent / "results" / "store.md"


class Corpus:
    """Synthetic message texts, each with its own random unit vector."""

    def __init__(self, n: int, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        vocab = np.array([f"w{i}" for i in range(5000)])
        words = vocab[rng.integers(0, len(vocab), (n, 10))]
        self.texts = [f"m{i} " + " ".join(row) for i, row in enumerate(words.tolist())]
        self.vectors = rng.standard_normal((n, DIMS), dtype=np.float32)
        self.vectors /= np.linalg.norm(self.vectors, axis=1, keepdims=True)
        self.lookup = {t: i for i, t in enumerate(self.texts)}

    def embed(self, texts: list[str]) -> list[np.ndarray]:
        return [self.vectors[self.lookup[t]] for t in texts]


def percentiles(samples: list[float]) -> tuple[float, float]:
    ms = sorted(s * 1000 for s in samples)
    return statistics.median(ms), ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]


def fill(store: BaseStore, corpus: Corpus, ids: range, ns_of: Callable[[int], tuple[str, ...]]) -> float:
    """Put items in large batches; returns items per second."""
    start = time.perf_counter()
    for lo in range(ids.start, ids.stop, CHUNK):
        store.batch([PutOp(ns_of(i), f"k{i}", {"text": corpus.texts[i]}) for i in range(lo, min(ids.stop, lo + CHUNK))])
    return len(ids) / (time.perf_counter() - start)


def time_search(store: BaseStore, ns: tuple[str, ...], queries: list[str], warmup: int = 1) -> tuple[float, float]:
    for q in queries[:warmup]:
        store.search(ns, query=q, limit=10)  # loads / builds the partition
    samples = []
    for q in queries:
        t = time.perf_counter()
        store.search(ns, query=q, limit=10)
        samples.append(time.perf_counter() - t)
    return percentiles(samples)


def disk_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def ours(path: Path, embed: Callable, **kw) -> FaissSqliteStore:
    return FaissSqliteStore(path, index={"dims": DIMS, "embed": embed, "fields": ["text"]}, **kw)


def one_namespace_row(n: int, n_queries: int, mem_queries: int, tmp: Path) -> str:
    corpus = Corpus(n + n_queries)
    ns = ("users", "u0", "messages")
    queries = corpus.texts[n : n + n_queries]  # unseen texts: only their vectors and words count
    store = ours(tmp / f"one-{n}", corpus.embed)
    put_rate = fill(store, corpus, range(n), lambda i: ns)
    p50, p95 = time_search(store, ns, queries)
    store.close()
    per_item = disk_bytes(tmp / f"one-{n}") / n
    mem = InMemoryStore(index={"dims": DIMS, "embed": corpus.embed, "fields": ["text"]})
    mem_rate = fill(mem, corpus, range(n), lambda i: ns)
    m50, m95 = time_search(mem, ns, queries[:mem_queries], warmup=0)
    del mem
    gc.collect()
    return (
        f"| one user, {n:,} items | {p50:.2f} / {p95:.2f} | {m50:.1f} / {m95:.1f} | {m50 / p50:,.0f}x "
        f"| {put_rate:,.0f} | {mem_rate:,.0f} | {per_item:,.0f} |"
    )


def many_users_row(total: int, users: int, n_queries: int, tmp: Path) -> str:
    """One user's search when ``total`` items are spread over ``users``, vs that user alone.

    Both stores stay open and answer each query in turn (in alternating order), so
    the ratio compares them under the same machine conditions.
    """
    per_user = total // users
    corpus = Corpus(total + n_queries, seed=1)
    ns_of = lambda i: ("users", f"u{i % users}", "messages")  # noqa: E731  interleaved, as in real use
    queries = corpus.texts[total : total + n_queries]
    target = ("users", "u7", "messages")
    store = ours(tmp / "many", corpus.embed)
    start = time.perf_counter()
    put_rate = fill(store, corpus, range(total), ns_of)
    fill_s = time.perf_counter() - start
    alone = ours(tmp / "alone", corpus.embed)
    alone.batch([PutOp(target, f"k{i}", {"text": corpus.texts[i]}) for i in range(7, total, users)])
    samples: dict[str, list[float]] = {"shared": [], "alone": []}
    for rep in range(3):
        for n, q in enumerate(queries):
            pair = [("shared", store), ("alone", alone)]
            for name, st in pair if (n + rep) % 2 == 0 else pair[::-1]:
                t = time.perf_counter()
                st.search(target, query=q, limit=10)
                if rep:  # the first pass only warms both up
                    samples[name].append(time.perf_counter() - t)
    store.close()
    alone.close()
    per_item = disk_bytes(tmp / "many") / total
    shared, solo = percentiles(samples["shared"]), percentiles(samples["alone"])
    return (
        f"| one user ({per_user} items) among {total:,} items / {users:,} users "
        f"| {shared[0]:.2f} / {shared[1]:.2f} | alone: {solo[0]:.2f} / {solo[1]:.2f} "
        f"| {shared[0] / solo[0]:.2f}x of alone | {put_rate:,.0f} ({fill_s:.0f} s) | - | {per_item:,.0f} |"
    )


def real_embedder_row(n: int, n_queries: int, tmp: Path) -> str:
    from models.loader import load_embeddings

    emb = getattr(load_embeddings("local"), "inner", None) or load_embeddings("local")  # uncached: every query embeds
    rng = np.random.default_rng(2)
    subjects = ["my sister", "the dentist", "our trip", "the new job", "grandma", "the garden", "my bike"]
    verbs = ["called about", "reminded me of", "is planned for", "went badly on", "starts on", "needs help with"]
    objects = ["Monday", "the flight to Lisbon", "a vegetarian dinner", "the broken window", "tax forms", "a birthday"]
    texts = [f"{rng.choice(subjects)} {rng.choice(verbs)} {rng.choice(objects)} ({i})" for i in range(n)]
    queries = [f"what about {rng.choice(subjects)} and {rng.choice(objects)}" for _ in range(n_queries)]
    ns = ("users", "u0", "messages")
    emb.embed_documents(texts[:64])  # warm the model so neither store pays for it
    emb.embed_query(queries[0])
    store = FaissSqliteStore(tmp / "real", index={"dims": 384, "embed": emb, "fields": ["text"]})
    mem = InMemoryStore(index={"dims": 384, "embed": emb, "fields": ["text"]})
    rates = []
    for s in (store, mem):
        start = time.perf_counter()
        for lo in range(0, n, 256):
            s.batch([PutOp(ns, f"k{i}", {"text": texts[i]}) for i in range(lo, min(n, lo + 256))])
        rates.append(n / (time.perf_counter() - start))
    p50, p95 = time_search(store, ns, queries)
    m50, m95 = time_search(mem, ns, queries, warmup=0)
    store.close()
    return (
        f"| MiniLM, {n:,} items, query embedding included | {p50:.2f} / {p95:.2f} | {m50:.1f} / {m95:.1f} "
        f"| {m50 / p50:,.1f}x | {rates[0]:,.0f} | {rates[1]:,.0f} | {disk_bytes(tmp / 'real') / n:,.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    parser.add_argument("--big", type=int, default=1_000_000, help="items in the many-users row")
    parser.add_argument("--users", type=int, default=10_000, help="users in the many-users row")
    parser.add_argument("--no-real", action="store_true", help="skip the real-embedder row")
    args = parser.parse_args()
    sizes = [(1_000, 100, 100), (10_000, 100, 30)] if args.quick else [(1_000, 200, 200), (10_000, 200, 50), (100_000, 200, 5)]
    big, users = (20_000, 200) if args.quick else (args.big, args.users)
    header = [
        f"Store benchmark: {DIMS}-d random unit vectors, top-10 search, {os.cpu_count()} CPU cores, "
        f"{time.strftime('%Y-%m-%d')}. Latency in ms (p50 / p95), query embedding excluded unless noted.",
        "",
        "| case | FaissSqliteStore search | InMemoryStore search | speed-up | ours put/s | InMemory put/s | ours bytes on disk / item |",
        "|---|---|---|---|---|---|---|",
    ]
    print("\n".join(header), flush=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="store-bench-") as tmp:
        for n, nq, mem_q in sizes:
            rows.append(one_namespace_row(n, nq, mem_q, Path(tmp)))
            print(rows[-1], flush=True)
        rows.append(many_users_row(big, users, 200, Path(tmp)))
        print(rows[-1], flush=True)
        if not args.no_real:
            rows.append(real_embedder_row(300 if args.quick else 1000, 50, Path(tmp)))
            print(rows[-1], flush=True)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text("\n".join(header + rows) + "\n")
    print(f"\nsaved to {RESULTS}")


if __name__ == "__main__":
    main()
