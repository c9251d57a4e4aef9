"""How the message log orders its candidates, beyond the store's own fused order.

Each idea here is a switch on ``MessageLogLayer`` with one row in the LoCoMo ablation
(bench/README.md), and none calls a model:

- cues from the query (named speaker, "when", a period, its words in the message
  itself), fused with the store's order through the shared scorer;
- session-level ranking: a session whose turns keep turning up lifts all of them, so a
  conversation about the topic beats one stray matching line;
- spread across sessions: at most n of the first results from one session, because a
  multi-hop question's evidence sits in several;
- query decomposition: "X and also Y" searched as X and as Y, the best answer to each kept;
- pseudo-relevance feedback: the words the first results share, searched again;
- an entity cue: the capitalised words of the question ("Lisbon") in the message itself.

Facts and episodes as pointers to their source messages (off by default) are in
``message_pointers``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import zip_longest

from langgraph.store.base import SearchItem

from memory.layers.message_query import STOPWORDS, TEMPORAL, QueryInfo, stem
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
    entity_share: float = 0.0


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
    entity = len(info.entities & own) / len(info.entities) if info.entities else 0.0
    return Cues(speaker, info.asks_when and dated, in_period, share, entity)


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


# Where a question asks a second thing: "and also", "as well as", ";", or "and" before a new
# question ("... go and how did she prepare?"). A bare "and" mostly joins nouns ("Melanie and
# her kids"), which is one question, so it is not split on.
_SPLIT = re.compile(
    r",?\s+(?:and also|as well as)\s+|;\s*|,?\s+and\s+(?=(?:how|when|what|where|why|who|which)\b)", re.I
)
# A list of short items at the end ("her friends, family, and mentors"): one query per item.
_LIST = re.compile(r"^(.*?)(\w+(?: \w+)?), (\w+(?: \w+)?(?:, \w+(?: \w+)?)*),? and (\w+(?: \w+)?)$")


def sub_queries(query: str) -> list[str]:
    """The parts of a question that asks for several things, each as a query; [] when it asks one.

    "X and also Y", "X; Y" and "X and how Y" split into X and Y; a closing list of short
    items ("When did Caroline meet her friends, family, and mentors?") into one question per
    item. A plain "A and B" is left whole: it usually names one thing with two nouns.
    """
    text = re.sub(r"\bboth\s+", "", query.strip().rstrip("?"))
    parts = [p.strip() for p in _SPLIT.split(text) if p.strip()]
    if len(parts) >= 2:
        return [p + "?" for p in parts]
    listed = _LIST.match(text)
    if listed:
        head, first, middle, last = listed.groups()
        return [f"{head}{item.strip()}?" for item in [first, *middle.split(","), last]]
    return []


def part_info(part: QueryInfo, whole: QueryInfo) -> QueryInfo:
    """A part of a decomposed query about "she" is about whoever the whole query names."""
    return part if part.names else replace(part, names=whole.names, first_person=whole.first_person)


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


def cue_score(rank: int, c: Cues, weights: tuple[float, float, float, float, float]) -> float:
    """The store's order as a prior, lifted by the cues (speaker, when, period, terms, entities)."""
    speaker, when, period, term, entity = weights
    return boosted(rank_prior(rank), [
        (speaker, float(c.speaker)), (when, float(c.dated)), (period, float(c.in_period)), (term, c.term_share),
        (entity, c.entity_share),
    ])
