"""Reject facts the user never said.

Every extractor's output passes through here before it can be stored. Small
models copy their few-shot examples and invent facts ("User lives in Berlin";
docs/architecture.md, "Why writes do not trust the model"), so a fact is kept
only when its claim (``value``, else its text) is made of words found in the
user's own messages, and every name and number it mentions appears there too.
Word matching is deliberately crude (shared stems), because a wrong rejection
costs a missed fact but a wrong acceptance costs trust.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import replace

from memory.layers.base import LoggedMessage
from memory.text import content_words
from memory.words import stop_words
from memory.write_policy.base import CandidateFact, user_messages
from memory.write_policy.people_words import words_for
from memory.write_policy.person_mention import SaidPerson
from models.word_split import names_and_numbers, plain_words

log = logging.getLogger(__name__)

STOPWORDS = stop_words("grounding")  # memory/words.toml
MIN_TEXT_SUPPORT = 0.6  # share of a value-less fact's words the user must have said


def _related(a: str, b: str) -> bool:
    """Same word or same stem: 'lives'~'live', 'allergic'~'allergy', 'peanuts'~'peanut'."""
    if a == b:
        return True
    prefix = 0
    for x, y in zip(a, b):
        if x != y:
            break
        prefix += 1
    return prefix >= 4 and prefix >= 0.75 * min(len(a), len(b))


def _said(word: str, source: set[str]) -> bool:
    return word in source or any(_related(word, s) for s in source)


def supported(fact: CandidateFact, user_text: str) -> bool:
    """Whether ``user_text`` (what the user wrote) supports ``fact``."""
    source = set(plain_words(user_text))
    names = [w for w in names_and_numbers(fact.text) if w not in STOPWORDS]
    if not all(_said(w, source) for w in names):
        return False
    claim = content_words(fact.value or "")
    if claim:
        return all(_said(w, source) for w in claim)
    words = content_words(fact.text)
    return bool(words) and sum(_said(w, source) for w in words) / len(words) >= MIN_TEXT_SUPPORT


def ground(candidates: Sequence[CandidateFact], messages: Sequence[LoggedMessage]) -> list[CandidateFact]:
    """The candidates the user's own messages support, with ``sources`` narrowed to
    those messages. A candidate without sources is attributed to the user messages
    that support it; one whose sources are not user messages here is rejected.
    """
    users = user_messages(messages)
    by_id = {m.id: m for m in users}
    kept: list[CandidateFact] = []
    for fact in candidates:
        pool = [by_id[s] for s in fact.sources if s in by_id] if fact.sources else users
        evidence = [m for m in pool if supported(fact, m.text)]
        if not evidence:
            log.info("rejected ungrounded fact %r (sources %s)", fact.text, list(fact.sources))
            continue
        stated = fact.stated_at or max(m.time for m in evidence)
        kept.append(fact.model_copy(update={"sources": [m.id for m in evidence], "stated_at": stated}))
    return kept


def ground_people(said: Sequence[SaidPerson], messages: Sequence[LoggedMessage]) -> list[SaidPerson]:
    """The people an extractor reported whom the user's own messages name: the name said (or, with no
    name, a word for the relation), the fact kept only when supported; sources narrowed to the evidence.
    """
    users = user_messages(messages)
    by_id = {m.id: m for m in users}
    kept: list[SaidPerson] = []
    for item in said:
        person = item.mention
        pool = [by_id[s] for s in item.sources if s in by_id] if item.sources else users
        evidence = [m for m in pool if _names(person.name, person.relation, person.species, m.text)]
        if not evidence:
            log.info("rejected ungrounded person %r (%s)", person.name, person.relation)
            continue
        if person.fact and not any(supported(CandidateFact(text=person.fact), m.text) for m in evidence):
            person = replace(person, fact=None)
        kept.append(SaidPerson(person, [m.id for m in evidence], item.stated_at or max(m.time for m in evidence)))
    return kept


def _names(name: str | None, relation: str, species: str | None, text: str) -> bool:
    if name:
        return re.search(rf"\b{re.escape(name)}\b", text, re.IGNORECASE) is not None
    words = sorted(words_for(relation, species), key=len, reverse=True)
    return any(re.search(rf"\b{re.escape(w)}\b", text, re.IGNORECASE) for w in words)
