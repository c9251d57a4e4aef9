"""Retrieval measures for the LoCoMo report: R@k, NDCG@10, evidence within a token budget, latency.

One ranked list per question: message ids with the text each result puts in a prompt.
Evidence within B tokens is the share of a question's evidence among the results that
fit in B tokens of returned text, read in order (tokens estimated as the prompt
estimates them, ``CHARS_PER_TOKEN``): the measure that is fair to systems returning
chunks, and the one a prompt pays for.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from nodes.request_fit import CHARS_PER_TOKEN

KS = (1, 5, 10)
BUDGETS = (200, 400, 800, 1600)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}  # LoCoMo's numbering


def recall_at(ranked: Sequence[str], evidence: Sequence[str], k: int) -> float:
    top = set(ranked[:k])
    return sum(e in top for e in evidence) / len(evidence)


def ndcg_at(ranked: Sequence[str], evidence: Sequence[str], k: int = 10) -> float:
    """Binary-relevance NDCG: evidence near the top counts more; 1.0 when it all leads the list."""
    wanted = set(evidence)
    dcg = sum(1.0 / math.log2(i + 2) for i, key in enumerate(ranked[:k]) if key in wanted)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(wanted), k)))
    return dcg / ideal if ideal else 0.0


def within_budget(ranked: Sequence[tuple[str, str]], evidence: Sequence[str], budget: int) -> float:
    """Share of ``evidence`` among the (id, text) results whose texts together fit in ``budget`` tokens."""
    used, shown = 0, set()
    for key, text in ranked:
        used += max(1, len(text) // CHARS_PER_TOKEN)
        if used > budget:
            break
        shown.add(key)
    return sum(e in shown for e in evidence) / len(evidence)


@dataclass
class Tally:
    """One row's scores, per question, with each question's category."""

    rows: list[tuple[int, dict[str, float]]] = field(default_factory=list)
    latency_ms: list[float] = field(default_factory=list)

    def add(self, category: int, ranked: Sequence[tuple[str, str]], evidence: Sequence[str]) -> None:
        ids = [key for key, _ in ranked]
        score = {f"R@{k}": recall_at(ids, evidence, k) for k in KS}
        score["NDCG@10"] = ndcg_at(ids, evidence)
        score.update({f"ev@{b}": within_budget(ranked, evidence, b) for b in BUDGETS})
        self.rows.append((category, score))

    def mean(self, metric: str, category: int | None = None) -> float:
        xs = [s[metric] for c, s in self.rows if category is None or c == category]
        return statistics.fmean(xs) if xs else float("nan")

    def latency(self) -> str:
        if len(self.latency_ms) < 2:
            return "| |"
        return f"| {statistics.median(self.latency_ms):.1f} | {statistics.quantiles(self.latency_ms, n=20)[-1]:.1f} |"


OVERALL = ["R@1", "R@5", "R@10", "NDCG@10", *(f"ev@{b}" for b in BUDGETS)]


def overall_table(tallies: dict[str, Tally], title: str) -> str:
    head = f"| {title} | " + " | ".join(OVERALL) + " | p50 ms | p95 ms |"
    lines = [head, "|---" * (len(OVERALL) + 3) + "|"]
    for label, t in tallies.items():
        lines.append(f"| {label} | " + " | ".join(f"{t.mean(m):.3f}" for m in OVERALL) + f" {t.latency()}")
    return "\n".join(lines)


def category_table(tallies: dict[str, Tally], metric: str) -> str:
    counts = {c: sum(1 for cat, _ in next(iter(tallies.values())).rows if cat == c) for c in CATEGORIES}
    head = f"| {metric} by category | " + " | ".join(f"{n} ({counts[c]})" for c, n in CATEGORIES.items()) + " |"
    lines = [head, "|---" * (len(CATEGORIES) + 1) + "|"]
    for label, t in tallies.items():
        lines.append(f"| {label} | " + " | ".join(f"{t.mean(metric, c):.3f}" for c in CATEGORIES) + " |")
    return "\n".join(lines)
