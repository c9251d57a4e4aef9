"""Recall of people and pets: the records a message names, by name or by the word for their relation.

"How should I celebrate with my girlfriend?" or "Who am I dating?" recalls the current partner
(Marta); "Is chocolate bad for Churro?" recalls Churro; "my ex" recalls ex-partners; "the dog" recalls the user's dogs.
A word recalls only the records it can mean: a partner word the current partner, "ex" the
ex-partners, a pet word the pets of its species, a family word the relatives called by it (or of
that relation, when the record keeps no word). Each person is one ``person`` memory (score 1.0:
the message named them), shown once in the prompt's people block (memory/prompt.py).
"""

from __future__ import annotations

import re

from memory.layers.base import LayerEnv, Recalled
from memory.layers.people import Record, people_records
from memory.write_policy.people_words import PLURALS, RELATION_WORD, relation_of, species_of

_WORD = re.compile(rf"\b(?:{RELATION_WORD})\b", re.IGNORECASE)
# A question about the relation itself names the partner without a partner word ("Who am I dating?").
_COUPLE = re.compile(r"\b(?:dating|am i seeing|married to|engaged to|in a relationship|date night)\b", re.IGNORECASE)
MAX_PEOPLE = 6  # a message that names the whole family still gets a short block


def recall_people(env: LayerEnv, query: str) -> list[Recalled]:
    """The user's people and pets that ``query`` names (none for a message that names nobody)."""
    if not query:
        return []
    records = people_records(env)
    if not records:
        return []
    words = [w.group(0).lower() for w in _WORD.finditer(query)] + (["partner"] if _COUPLE.search(query) else [])
    named = [r for r in records if _named(r, query) or any(_called(r, w) for w in words)]
    named.sort(key=lambda r: (not _named(r, query), not r["current"], r["id"]))
    return [
        Recalled(kind="person", text=r["text"], score=1.0, sources=tuple(r["sources"]), key=r["id"],
                 meta={"relation": r["relation"], "name": r.get("name"), "current": r["current"]})
        for r in named[:MAX_PEOPLE]
    ]


def _named(record: Record, query: str) -> bool:
    name = str(record.get("name") or "")
    return bool(name) and re.search(rf"\b{re.escape(name)}\b", query, re.IGNORECASE) is not None


def _called(record: Record, word: str) -> bool:
    """Whether the relation word ``word`` can mean ``record``."""
    relation = relation_of(word)
    if relation == "pet":
        species = species_of(word)
        return record["relation"] == "pet" and (species is None or record.get("species") in (None, species))
    if relation != record["relation"]:
        return False
    if relation in ("partner", "ex_partner"):
        return relation == "ex_partner" or record["current"]
    kept = record.get("words") or []
    return not kept or any(_same_word(word, k) for k in kept)


def _same_word(a: str, b: str) -> bool:
    """The same word, or a plural ("my kids", "my parents") that means everyone of the relation."""
    return a == b or a in PLURALS
