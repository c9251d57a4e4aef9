"""Where the message log loses LoCoMo evidence: in the store's candidate pool, or in the rerank.

The layer reranks the store's hybrid top ``pool`` (50) candidates. This reports, per category,
the share of each question's evidence among the store's first n results (n = 10, 50, 100, 200)
beside the layer's own top 10: the gap between the pool's figure and the layer's is what a
better reranker could win, and the pool's gap to 1 what only a better first stage could.
Same data, import and questions as ``bench.locomo_recall`` (LoCoMo, CC BY-NC 4.0); no LLM.

    python -m bench.locomo_pool [--data DIR]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from bench.locomo_recall import DEFAULT_DATA, _env, _store, load_conversation, write_report
from bench.recall_baselines import FreshQueries
from bench.recall_metrics import CATEGORIES, recall_at
from memory.clock import parse_time
from memory.layers import default_layers
from memory.layers.message_log import MessageLogLayer
from models.loader import load_embeddings
from nodes.importer import import_messages
from stores.namespaces import MESSAGES

DEPTHS = (10, 50, 100, 200)


def pool_recall(data: Path) -> dict[str, dict[int, list[float]]]:
    """Per row label and category, each question's share of evidence found."""
    embeddings = FreshQueries(load_embeddings("local"))
    found: dict[str, dict[int, list[float]]] = {}

    def add(label: str, category: int, ranked: list[str], evidence: Sequence[str]) -> None:
        found.setdefault(label, {}).setdefault(category, []).append(recall_at(ranked, evidence, len(ranked) or 1))

    for folder in sorted(p for p in data.iterdir() if (p / "conversation.jsonl").exists()):
        messages, questions = load_conversation(folder)
        print(f"{folder.name}: {len(messages)} messages, {len(questions)} questions", file=sys.stderr)
        with tempfile.TemporaryDirectory() as tmp:
            env = _env(_store(Path(tmp) / "store", embeddings), embeddings)
            layer = MessageLogLayer()
            import_messages(messages, env, [layer if isinstance(d, MessageLogLayer) else d for d in default_layers()],
                            progress=False)
            ns = env.scope.ns(MESSAGES)
            for q in questions:
                for n in DEPTHS:
                    add(f"store's first {n}", q.category, [h.key for h in env.store.search(ns, query=q.query, limit=n)],
                        q.evidence)
                q_env = replace(env, now=parse_time(q.time) or env.now)
                add("the layer's top 10 (reranked from the first 50)", q.category,
                    [r.sources[0] for r in layer.search(q_env, q.query, 10)], q.evidence)
            getattr(env.store, "close", lambda: None)()
    return found


def table(found: dict[str, dict[int, list[float]]], title: str) -> str:
    head = f"| {title} | all | " + " | ".join(CATEGORIES.values()) + " |"
    lines = [head, "|---" * (len(CATEGORIES) + 2) + "|"]
    for label, by_cat in found.items():
        every = [x for xs in by_cat.values() for x in xs]
        cells = [f"{statistics.mean(by_cat[c]):.3f}" if by_cat.get(c) else "" for c in CATEGORIES]
        lines.append(f"| {label} | {statistics.mean(every):.3f} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder of conversations in import format")
    parser.add_argument("--out", type=Path, help="markdown report (default: bench/results/locomo-pool.md)")
    args = parser.parse_args(argv)
    found = pool_recall(args.data)
    out = args.out or Path(__file__).resolve().parent / "results" / "locomo-pool.md"
    write_report([table(found, f"{args.data.name}: share of the evidence")], args.data, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
