"""How the message log orders its candidates, beyond the store's own fused order.

Each idea here is a switch on ``MessageLogLayer`` with one row in the LoCoMo ablation
(bench/README.md), and none calls a model:

- cues from the query (named speaker, "when", a period, its words in the message
  itself), fused with the store's order through the shared scorer;
- session-level ranking: a session whose turns keep turning up lifts all of them, so a
  conversation about the topic beats one stray matching line;
- spread across sessions: at most n of the first results from one session, because a
  multi-hop question's evidence sits in several;
- query decomposition: "X and also Y" searched as X and as Y as well as whole;
- pseudo-relevance feedback: the words the first results share, searched again.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import zip_longest

from langgraph.store.base import SearchItem

from nodes.layers.message_query import STOPWORDS, QueryInfo, stem, words
from nodes.layers.scoring import boosted, parse_time, rank_prior

Scored = tuple[float, SearchItem]


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


def session_lift(scored: list[Scored], weight: float, depth: int = 3) -> list[Scored]:
    """Each candidate lifted by its session's strength: the sum of that session's ``depth`` best
    scores, as a share of the strongest session's (``weight`` × 1 for a turn of the best session).
    """
    if weight <= 0 or not scored:
        return scored
    per: dict[str, list[float]] = {}
    for score, hit in scored:
        per.setdefault(str(hit.value.get("thread")), []).append(score)
    strength = {t: sum(sorted(s, reverse=True)[:depth]) for t, s in per.items()}
    best = max(strength.values()) or 1.0
    return [(boosted(score, [(weight, strength[str(hit.value.get("thread"))] / best)]), hit) for score, hit in scored]


def spread(ranked: Sequence[Scored], per_session: int, k: int) -> list[Scored]:
    """The first ``k`` with at most ``per_session`` from one session; those passed over follow, in order.

    0 turns it off. Later results keep their order, so a deeper read still finds them.
    """
    if per_session <= 0:
        return list(ranked)
    taken: Counter[str] = Counter()
    head: list[Scored] = []
    rest: list[Scored] = []
    for pair in ranked:
        thread = str(pair[1].value.get("thread"))
        if len(head) < k and taken[thread] < per_session:
            taken[thread] += 1
            head.append(pair)
        else:
            rest.append(pair)
    return head + rest


_SPLIT = re.compile(r"\s*(?:,?\s+and also\s+|,?\s+as well as\s+|;\s*|,\s+and\s+|\s+and\s+)", re.I)
_HEAD_WORDS = 3  # a part shorter than this borrows the head of the one before it


def sub_queries(query: str) -> list[str]:
    """The parts of a question that asks for several things ("X and also Y"), each as a query.

    [] when it asks for one. A short part ("... hiking and camping?") borrows the first
    part's words before its last one ("Did Caroline go camping?"), so it is still a question
    about the same person. Names joined by "and" stay together ("Caroline and Melanie").
    """
    text = query.strip().rstrip("?").removeprefix("Both ").removeprefix("both ")
    text = re.sub(r"\bboth\b\s*", "", text)
    parts = [p for p in _SPLIT.split(text) if p.strip()]
    if len(parts) < 2:
        return []
    first = parts[0].split()
    out = [parts[0]]
    for part in parts[1:]:
        ws = part.split()
        if len(ws) < _HEAD_WORDS:
            if ws and ws[0][:1].isupper() and first and first[-1][:1].isupper():
                return []  # "Caroline and Melanie": one subject, not two questions
            part = " ".join([*first[:-len(ws)], *ws]) if len(first) > len(ws) else part
        out.append(part)
    return [p.strip() + "?" for p in out]


def interleave(rankings: Sequence[Sequence[Scored]], k: int) -> list[Scored]:
    """The first ``k`` of several rankings taken in turn (the whole query's first), each message once.

    A question that asks for two things gets the best answer to each near the top, not ten
    answers to the easier one. Scores are capped by the one before, so the order stays
    monotone when the results are merged with other layers'.
    """
    out: list[Scored] = []
    seen: set[str] = set()
    for row in zip_longest(*rankings):
        for pair in row:
            if pair is not None and pair[1].key not in seen:
                seen.add(pair[1].key)
                out.append((min(pair[0], out[-1][0]) if out else pair[0], pair[1]))
    return out[:k]


def feedback_words(texts: Sequence[str], info: QueryInfo, n: int, min_docs: int = 2) -> list[str]:
    """Up to ``n`` content words the top results share (in at least ``min_docs`` of them) that the
    query does not hold: pseudo-relevance feedback, searched again beside the query.
    """
    if n <= 0:
        return []
    counts: Counter[str] = Counter()
    shown: dict[str, str] = {}
    for text in texts:
        seen = set()
        for w in words(text):
            s = stem(w)
            if w in STOPWORDS or len(w) < 4 or s in info.terms or s in seen or w in info.names:
                continue
            seen.add(s)
            shown.setdefault(s, w)
        counts.update(seen)
    return [shown[s] for s, c in counts.most_common() if c >= min_docs][:n]


def cue_score(rank: int, c: Cues, weights: tuple[float, float, float, float]) -> float:
    """The store's order as a prior, lifted by the cues (speaker, when, period, terms)."""
    speaker, when, period, term = weights
    return boosted(rank_prior(rank), [
        (speaker, float(c.speaker)), (when, float(c.dated)), (period, float(c.in_period)), (term, c.term_share),
    ])
