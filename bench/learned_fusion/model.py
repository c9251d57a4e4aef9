"""A learned fusion of what the message log already knows about each candidate: an opt-in of the benchmarks.

The runtime's hand-set rerank (``message_rank.cue_score``) multiplies the store's order by a few
round-number boosts. This instead scores a candidate with a logistic model over the
same signals (its standing in the store's fused order and in cosine order, its cosine,
the query's cues in the message, how strongly its session turns up, how recent it is,
whether its neighbouring turns were found too and whether it answers a question that was):
a few numbers in ``message_fusion.json``, trained on the LoCoMo dev questions only by
``python -m bench.learned_fusion.train``. numpy only; no model is called. LoCoMo is CC BY-NC 4.0,
so these weights stay in ``bench/`` and the runtime never reads them (docs/data-and-licences.md);
``LeverMessageLog(fusion="shipped")`` ranks with them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from langgraph.store.base import SearchItem

from bench.message_levers.rank import entity_share
from memory.layers.message_query import QueryInfo
from memory.layers.message_rank import cues, features
from memory.layers.scoring import parse_time, rank_prior

WEIGHTS_PATH = Path(__file__).with_name("message_fusion.json")

FEATURES = (
    "fused rank",  # rank_prior of the store's own (dense + BM25) order
    "cosine rank",  # rank_prior of the pool's order by cosine alone
    "cosine",  # the store's cosine to the query
    "cosine below the best",  # this cosine minus the pool's best
    "named speaker",
    "dated, for a 'when' question",
    "said in the period named",
    "query words in the message",
    "capitalised query words in the message",
    "session strength",  # the session's best three fused-rank priors, as a share of the best session's
    "recency",  # 1 for the newest candidate of the pool, 0 for the oldest
    "query words around it",  # share of the query's content words in its indexed text (neighbours too)
    "a question itself",  # it ends with "?": a question is rarely the evidence for one
    "length",  # characters, as a share of 400 (capped at 1)
    "a neighbouring turn in the pool",  # rank_prior of the better-ranked of its previous and next turns, 0 if neither
    "answers a question ranked high",  # its previous turn is a question among the pool's first ANSWERED_TOP
)

ANSWERED_TOP = 10  # how high the question before a turn must rank for the turn to count as its answer


@dataclass(frozen=True)
class FusionModel:
    """A logistic model: score = sigmoid(bias + weights · features), one weight per ``FEATURES``."""

    bias: float
    weights: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.weights) != len(FEATURES):
            raise ValueError(f"fusion model has {len(self.weights)} weights, the features are {len(FEATURES)}")

    def scores(self, x: np.ndarray) -> np.ndarray:
        """Scores in (0, 1) for a matrix of candidates' features, one row each."""
        return 1.0 / (1.0 + np.exp(-(x @ np.asarray(self.weights) + self.bias)))


@lru_cache(maxsize=1)
def shipped_model() -> FusionModel:
    """The weights in ``bench/learned_fusion`` (trained on locomo-dev by bench.learned_fusion.train)."""
    data = json.loads(WEIGHTS_PATH.read_text(encoding="utf-8"))
    if list(data["features"]) != list(FEATURES):
        raise ValueError(f"{WEIGHTS_PATH.name} was trained on other features; retrain it")
    return FusionModel(float(data["bias"]), tuple(float(w) for w in data["weights"]))


def _share_ranks(values: Sequence[float]) -> list[int]:
    order = sorted(range(len(values)), key=lambda i: -values[i])
    ranks = [0] * len(values)
    for r, i in enumerate(order):
        ranks[i] = r
    return ranks


def _share(info: QueryInfo, text: str) -> float:
    return len(info.terms & features(text)[0]) / len(info.terms) if info.terms else 0.0


def _asks(hit: SearchItem) -> bool:
    return str(hit.value.get("text", "")).rstrip().endswith("?")


def candidate_features(found: Sequence[SearchItem], info: QueryInfo) -> np.ndarray:
    """One row of ``FEATURES`` per candidate, ``found`` in the store's order (scored ones only)."""
    n = len(found)
    if n == 0:
        return np.zeros((0, len(FEATURES)))
    cos = [float(h.score or 0.0) for h in found]
    cos_rank = _share_ranks(cos)
    best_cos = max(cos)
    per: dict[str, list[float]] = {}
    for rank, h in enumerate(found):
        per.setdefault(str(h.value.get("thread")), []).append(rank_prior(rank))
    strength = {t: sum(sorted(s, reverse=True)[:3]) for t, s in per.items()}
    top = max(strength.values())
    rank_of = {h.key: rank for rank, h in enumerate(found)}
    said = [parse_time(h.value.get("time")) for h in found]
    stamps = [t.timestamp() if t is not None else float("-inf") for t in said]
    age_rank = _share_ranks(stamps)
    rows = []
    for rank, h in enumerate(found):
        text = h.value.get("text", "")
        c = cues(h.value, info, features(text))
        around = [rank_of[k] for k in (h.value.get("prev"), h.value.get("next")) if k in rank_of]
        before = rank_of.get(h.value.get("prev"))
        answers = before is not None and before < ANSWERED_TOP and _asks(found[before])
        rows.append((
            rank_prior(rank), rank_prior(cos_rank[rank]), cos[rank], cos[rank] - best_cos,
            float(c.speaker), float(c.dated), float(c.in_period), c.term_share, entity_share(info, features(text)[0]),
            strength[str(h.value.get("thread"))] / top, 1.0 - age_rank[rank] / max(n - 1, 1),
            _share(info, h.value.get("search_text", "")), float(_asks(h)),
            min(len(text) / 400.0, 1.0), max((rank_prior(r) for r in around), default=0.0), float(answers),
        ))
    return np.asarray(rows, dtype=np.float64)
