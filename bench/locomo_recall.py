"""LoCoMo evidence recall of the message log, next to plain baselines.

Data: ``bench/datasets/locomo-dev`` (vendored) — two conversations from LoCoMo
("Evaluating Very Long-Term Conversational Memory of LLM Agents", Maharana et
al., 2024; snap-research/LoCoMo), licensed CC BY-NC 4.0; see the README there.
The measure is described in ``docs/architecture.md`` ("Retrieval quality").

Each conversation is imported (through ``nodes.importer``) into a fresh
``FaissSqliteStore`` with the real local embedder; R@k is the share of a
question's evidence turns among the top k messages, averaged over questions of
categories 1-4. The baselines run on the same messages in the same process: dense
MiniLM cosine, FTS5 BM25 (porter) and their reciprocal-rank fusion, each over
"name: text". The ladder then adds one idea of the message-log layer at a time,
so the table says what each idea gained. ``--per-turn`` instead times the
retrieve path (query embedding + search + rerank) over 10k messages of one user.
Reports go to ``bench/results/`` (git-ignored). No LLM is called at query time.

    python -m bench.locomo_recall [--data DIR] [--per-turn] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from graph.context import Context
from models.loader import load_embeddings
from nodes.clock import parse_time
from nodes.importer import import_messages, parse_import
from nodes.layers.base import LayerEnv, LoggedMessage
from nodes.layers.message_log import MessageLogLayer
from stores.faiss_sqlite import FaissSqliteStore
from stores.namespaces import UserScope

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO / "bench" / "datasets" / "locomo-dev"
RESULTS = REPO / "bench" / "results" / "locomo.md"
ATTRIBUTION = (
    "Data: LoCoMo (Maharana et al., 2024; snap-research/LoCoMo), CC BY-NC 4.0 — "
    "conversations conv-26 and conv-30, converted in bench/datasets/locomo-dev."
)
KS = (5, 10)

# The ladder: each row adds one idea to the one above it.
LADDER: list[tuple[str, dict[str, object]]] = [
    ("store hybrid search, name + text", dict(date_in_index=False, neighbours=False, speaker_boost=0, when_boost=0, period_boost=0, term_boost=0)),
    ("+ session date indexed", dict(neighbours=False, speaker_boost=0, when_boost=0, period_boost=0, term_boost=0)),
    ("+ neighbouring turns indexed", dict(speaker_boost=0, when_boost=0, period_boost=0, term_boost=0)),
    ("+ rerank: named speaker", dict(when_boost=0, period_boost=0, term_boost=0)),
    ("+ rerank: 'when' → dated messages", dict(period_boost=0, term_boost=0)),
    ("+ rerank: period named in the query", dict(term_boost=0)),
    ("+ rerank: content words in the message itself (= MessageLogLayer)", dict()),
]


@dataclass(frozen=True)
class Question:
    id: str
    query: str
    time: str | None
    evidence: tuple[str, ...]


def load_conversation(folder: Path) -> tuple[list[LoggedMessage], list[Question]]:
    with (folder / "conversation.jsonl").open(encoding="utf-8") as fh:
        messages = parse_import(fh, source=str(folder / "conversation.jsonl"))
    questions = []
    with (folder / "queries.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            q = json.loads(line)
            if q.get("category") in (1, 2, 3, 4) and q.get("evidence"):
                questions.append(Question(q["id"], q["query"], q.get("time"), tuple(q["evidence"])))
    return messages, questions


def recall_at(ranked: Sequence[str], evidence: Sequence[str], k: int) -> float:
    top = set(ranked[:k])
    return sum(e in top for e in evidence) / len(evidence)


# -- baselines ---------------------------------------------------------------

_TERM = re.compile(r"\w+")


def _plain(m: LoggedMessage) -> str:
    return f"{m.name or m.role}: {m.text}"


def baseline_rankers(messages: list[LoggedMessage], embed: Callable[[list[str]], np.ndarray]) -> dict[str, Callable[[str], list[str]]]:
    """Dense, BM25 and RRF rankers over the plain message text (whole conversation ranked)."""
    ids = [m.id for m in messages]
    vecs = embed([_plain(m) for m in messages])
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(doc, tokenize='porter')")
    db.executemany("INSERT INTO t(rowid, doc) VALUES (?, ?)", [(i, _plain(m)) for i, m in enumerate(messages)])

    def dense(q: str) -> list[str]:
        return [ids[i] for i in np.argsort(-(vecs @ embed([q])[0]))]

    def bm25(q: str) -> list[str]:
        terms = " OR ".join(f'"{t}"' for t in dict.fromkeys(_TERM.findall(q.lower())))
        rows = db.execute("SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t)", (terms,)).fetchall() if terms else []
        return [ids[r[0]] for r in rows]

    def rrf(q: str) -> list[str]:
        fused: dict[str, float] = {}
        for ranking in (dense(q), bm25(q)):
            for rank, key in enumerate(ranking):
                fused[key] = fused.get(key, 0.0) + 1.0 / (61 + rank)
        return sorted(fused, key=lambda key: -fused[key])

    return {"dense MiniLM cosine": dense, "BM25 (FTS5, porter)": bm25, "reciprocal-rank fusion of both": rrf}


# -- the layer ---------------------------------------------------------------


def _env(store: FaissSqliteStore, embeddings: object, user: str = "bench") -> LayerEnv:
    return LayerEnv(store=store, scope=UserScope(user), context=Context(), embeddings=embeddings)  # type: ignore[arg-type]


def _store(path: Path, embeddings: object) -> FaissSqliteStore:
    return FaissSqliteStore(path, index={"dims": 384, "embed": embeddings, "fields": ["text"]})  # type: ignore[typeddict-item]


def layer_ranker(env: LayerEnv, layer: MessageLogLayer) -> Callable[[Question], list[str]]:
    def rank(q: Question) -> list[str]:
        q_env = replace(env, now=parse_time(q.time) or env.now)
        return [r.sources[0] for r in layer.search(q_env, q.query, max(KS))]

    return rank


def run(data: Path) -> list[tuple[str, float, float]]:
    embeddings = load_embeddings("local")

    def embed(texts: list[str]) -> np.ndarray:
        return np.asarray(embeddings.embed_documents(texts), dtype=np.float32)

    scores: dict[str, list[tuple[float, float]]] = {}
    order: list[str] = []

    def add(label: str, ranked: Sequence[str], q: Question) -> None:
        if label not in scores:
            scores[label] = []
            order.append(label)
        scores[label].append(tuple(recall_at(ranked, q.evidence, k) for k in KS))  # type: ignore[arg-type]

    for folder in sorted(p for p in data.iterdir() if (p / "conversation.jsonl").exists()):
        messages, questions = load_conversation(folder)
        print(f"{folder.name}: {len(messages)} messages, {len(questions)} questions", file=sys.stderr)
        for label, ranker in baseline_rankers(messages, embed).items():
            for q in questions:
                add(label, ranker(q.query), q)
        index_built: dict[tuple[object, object], LayerEnv] = {}
        with tempfile.TemporaryDirectory() as tmp:
            for label, options in LADDER:
                layer = MessageLogLayer(**options)  # type: ignore[arg-type]
                shape = (layer.date_in_index, layer.neighbours)
                if shape not in index_built:
                    env = _env(_store(Path(tmp) / f"store-{len(index_built)}", embeddings), embeddings)
                    import_messages(messages, env, [layer], progress=False)
                    index_built[shape] = env
                rank = layer_ranker(index_built[shape], layer)
                for q in questions:
                    add(label, rank(q), q)
    return [(label, *(statistics.fmean(s[i] for s in scores[label]) for i in range(len(KS)))) for label in order]  # type: ignore[misc]


def per_turn(data: Path, target: int = 10_000, queries: int = 200) -> dict[str, float]:
    """Retrieve-path latency (ms) with ``target`` messages of one user in the store.

    The LoCoMo messages are replayed as copies in new threads (new ids) until the
    log holds ``target`` messages. Copies share texts, so the store's embedding
    cache keeps the setup short; search cost depends on how many vectors there
    are, not on what they say.
    """
    embeddings = load_embeddings("local")
    convs = [load_conversation(p) for p in sorted(data.iterdir()) if (p / "conversation.jsonl").exists()]
    base = [m for msgs, _ in convs for m in msgs]
    questions = [q for _, qs in convs for q in qs][:queries]
    layer = MessageLogLayer()
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(_store(Path(tmp) / "store", embeddings), embeddings)
        copies = -(-target // len(base))
        messages = [replace(m, id=f"c{c}-{m.id}", thread=f"c{c}-{m.thread}") for c in range(copies) for m in base][:target]
        t0 = time.perf_counter()
        import_messages(messages, env, [layer], progress=sys.stderr.isatty())
        setup_s = time.perf_counter() - t0
        layer.search(env, "warm-up query about nothing in particular", 5)
        totals, embeds = [], []
        for q in questions:
            t = time.perf_counter()
            embeddings.embed_query(q.query)
            embeds.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            layer.search(env, q.query, env.context.top_k)
            totals.append((time.perf_counter() - t) * 1000)
    return {
        "messages": float(len(messages)),
        "queries": float(len(totals)),
        "p50_ms": statistics.median(totals),
        "p95_ms": statistics.quantiles(totals, n=20)[-1],
        "embed_p50_ms": statistics.median(embeds),
        "rest_p50_ms": statistics.median(t - e for t, e in zip(totals, embeds)),
        "setup_s": setup_s,
    }


def table(rows: list[tuple[str, float, float]], n_questions: str) -> str:
    lines = [f"| on locomo-dev ({n_questions}) | R@5 | R@10 |", "|---|---|---|"]
    lines += [f"| {label} | {r5:.3f} | {r10:.3f} |" for label, r5, r10 in rows]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of LoCoMo conversations in import format")
    parser.add_argument("--per-turn", action="store_true", help="time the retrieve path at 10k messages instead")
    parser.add_argument(
        "--torch-threads",
        type=int,
        default=1,
        help="torch threads for --per-turn (default 1: one short query gains nothing from more, "
        "and on busy cores their synchronisation costs tens of ms; 0 keeps torch's default)",
    )
    parser.add_argument("--out", type=Path, help=f"markdown report (default: {RESULTS.parent}/<mode>.md)")
    args = parser.parse_args(argv)
    if args.per_turn:
        if args.torch_threads > 0:
            import torch

            torch.set_num_threads(args.torch_threads)
        pt = per_turn(args.data)
        report = [
            f"Per-turn retrieve path of the message log (query embedding + search + rerank, no LLM): "
            f"{int(pt['messages'])} messages of one user, {int(pt['queries'])} LoCoMo questions: "
            f"p50 {pt['p50_ms']:.1f} ms, p95 {pt['p95_ms']:.1f} ms; of which query embedding p50 "
            f"{pt['embed_p50_ms']:.1f} ms and search + rerank p50 {pt['rest_p50_ms']:.1f} ms "
            f"(torch threads {args.torch_threads or 'default'}; import took {pt['setup_s']:.0f} s; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores).",
        ]
    else:
        n = sum(len(load_conversation(p)[1]) for p in args.data.iterdir() if (p / "conversation.jsonl").exists())
        report = [table(run(args.data), f"{n} questions, categories 1-4")]
    text = "\n".join([*report, "", ATTRIBUTION]) + "\n"
    out = args.out or RESULTS.with_name("locomo-per-turn.md" if args.per_turn else RESULTS.name)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
