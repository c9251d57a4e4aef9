"""The message log's ranking levers that were measured and left off, beside their ablation rows.

Each is a switch on ``bench.message_levers.layer.LeverMessageLog`` with one row in the LoCoMo
ablation (bench/locomo_rows.py, bench/TRIED.md), and none calls a model:

- session-level ranking: a session whose turns keep turning up lifts all of them, so a
  conversation about the topic beats one stray matching line;
- spread across sessions: at most n of the first results from one session, because a
  multi-hop question's evidence sits in several;
- query decomposition: "X and also Y" searched as X and as Y, the best answer to each kept;
- pseudo-relevance feedback: the words the first results share, searched again;
- an entity cue: the capitalised words of the question ("Lisbon") in the message itself.

Facts and episodes as pointers to their source messages are in ``pointers``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from datetime import datetime
from itertools import zip_longest

from memory.layers.message_query import STOPWORDS, QueryInfo, analyse, stem
from memory.layers.message_rank import Scored
from memory.layers.scoring import boosted
from models.word_split import inner_capitalised, words


@dataclass(frozen=True)
class LeverInfo(QueryInfo):
    """The runtime's reading of a query, and the capitalised words the entity cue and the fusion read."""

    entities: frozenset[str] = frozenset()  # stemmed capitalised words past the first, speakers excluded


def analysed(query: str, speakers: set[str], now: datetime) -> LeverInfo:
    """``message_query.analyse`` with the query's entities (its capitalised content words)."""
    info = analyse(query, speakers, now)
    found = frozenset(stem(w) for w in inner_capitalised(query)) & info.terms
    return LeverInfo(**{f.name: getattr(info, f.name) for f in fields(info)}, entities=found)


def entity_share(info: QueryInfo, own: frozenset[str]) -> float:
    """The share of the query's capitalised words found in a message's own stemmed words (0 without any)."""
    found = getattr(info, "entities", frozenset())
    return len(found & own) / len(found) if found else 0.0


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

