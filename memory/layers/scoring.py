"""The read policy's score: relevance + recency + importance; and the rank fusion layers share.

score = w_rel * relevance + w_rec * recency + w_imp * importance / 10 + USAGE_WEIGHT * usage
recency = 0.5 ** (age_days / half_life_days)
usage = use_count / (use_count + USAGE_HALF)   (0 unused, 0.5 at USAGE_HALF uses, towards 1)

The usage term is small on purpose (at most 0.05, against weights summing to 1):
a memory answers have drawn on (``use_count``, written by nodes/usage.py) wins a
near tie, never over a clearly more relevant one, and an unused memory is not
pushed out by it alone — upkeep decides about forgetting.

Shared by every layer that ranks long-term memories, so the weights and presets
in ``Context`` mean the same thing everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from memory.clock import parse_time  # the one time parser; imported here for recency()

USAGE_WEIGHT = 0.05
USAGE_HALF = 2.0


def recency(then: datetime | str | None, now: datetime, half_life_days: float) -> float:
    """1.0 for now, 0.5 one half-life ago; future times count as now."""
    t = parse_time(then)
    if t is None or half_life_days <= 0:
        return 0.0
    age_days = max(0.0, (now - t).total_seconds() / 86400.0)
    return 0.5 ** (age_days / half_life_days)


def combined_score(
    relevance: float,
    then: datetime | str | None,
    importance: float,
    now: datetime,
    weights: tuple[float, float, float],
    half_life_days: float,
    use_count: int = 0,
) -> float:
    """Weighted sum of relevance, recency (half-life decay), importance (0-10, scaled to 0-1) and usage."""
    w_rel, w_rec, w_imp = weights
    imp = min(max(importance, 0.0), 10.0) / 10.0
    return w_rel * relevance + w_rec * recency(then, now, half_life_days) + w_imp * imp + usage_bonus(use_count)


def usage_bonus(use_count: int) -> float:
    """``USAGE_WEIGHT`` times a saturating share of uses: 0 for a memory no answer used."""
    uses = max(int(use_count or 0), 0)
    return USAGE_WEIGHT * uses / (uses + USAGE_HALF)


# -- rank fusion: how a layer turns a store's candidate order and its own cues into one score --

RANK_PRIOR_K = 61.0  # the first candidate scores 1.0; the shape of reciprocal-rank fusion's 1/(60+r)


def rank_prior(rank: int) -> float:
    """A candidate's standing in the store's fused order as a smooth prior (1.0 for the first)."""
    return RANK_PRIOR_K / (RANK_PRIOR_K + rank)


def boosted(base: float, boosts: Iterable[tuple[float, float]]) -> float:
    """``base`` lifted by each (weight, strength) cue: times (1 + weight × strength), strength 0-1.

    Multiplying keeps a cue from rescuing a candidate the store ranked far down: a
    boost moves a message past its near neighbours in the order, not past the top.
    """
    for weight, strength in boosts:
        base *= 1.0 + weight * strength
    return base


def fuse_orders(orders: Sequence[Sequence[str]]) -> list[str]:
    """Keys of several rankings in reciprocal-rank-fusion order (ties keep first-seen order)."""
    fused: dict[str, float] = {}
    for order in orders:
        for rank, key in enumerate(order):
            fused[key] = fused.get(key, 0.0) + rank_prior(rank)
    return sorted(fused, key=lambda key: -fused[key])
