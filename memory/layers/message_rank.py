"""How the message log orders its candidates, beyond the store's own fused order.

Cues from the query (the named speaker, "when" and a message that dates something, a
period, its words in the message itself), each a round-number boost on the store's order
through the shared scorer; no model is called. The levers measured and left off (session-level
ranking, a cap per session, query decomposition, pseudo-relevance feedback, an entity cue,
a learned fusion, pointers) are in ``bench/message_levers`` beside their ablation rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from langgraph.store.base import SearchItem

from memory.layers.message_query import TEMPORAL, QueryInfo, stem
from memory.layers.scoring import boosted, parse_time, rank_prior
from models.word_split import words

Scored = tuple[float, SearchItem]


@lru_cache(maxsize=16384)
def features(text: str) -> tuple[frozenset[str], bool]:
    """A message's stemmed words, and whether it dates something. Cached: the same
    messages come back as candidates turn after turn, and this was a third of reranking.
    """
    return frozenset(stem(w) for w in words(text)), TEMPORAL.search(text) is not None


@dataclass(frozen=True)
class Cues:
    """What a candidate message shows of the query: see ``MessageLogLayer`` for the weights."""

    speaker: bool
    dated: bool
    in_period: bool
    term_share: float


def cues(value: dict, info: QueryInfo, features: tuple[frozenset[str], bool]) -> Cues:
    """Read one candidate against the query."""
    own, dated = features
    name = (value.get("name") or "").lower()
    speaker = (bool(info.names) and name in info.names) or (
        not info.names and info.first_person and value.get("role") == "user"
    )
    in_period = False
    if info.window is not None:
        said = parse_time(value.get("time"))
        in_period = said is not None and info.window[0] <= said < info.window[1]
    share = len(info.terms & own) / len(info.terms) if info.terms else 0.0
    return Cues(speaker, info.asks_when and dated, in_period, share)



def cue_score(rank: int, c: Cues, weights: tuple[float, float, float, float]) -> float:
    """The store's order as a prior, lifted by the cues (speaker, when, period, terms)."""
    speaker, when, period, term = weights
    return boosted(rank_prior(rank), [
        (speaker, float(c.speaker)), (when, float(c.dated)), (period, float(c.in_period)), (term, c.term_share),
    ])
