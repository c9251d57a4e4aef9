"""What every fact extractor produces, and the profile slots they share.

An extractor turns logged messages into ``CandidateFact`` objects. Candidates are
only proposals: the grounding check and the semantic layer decide what is stored.
Keeping the slot registry here lets the rule extractor, the LLM prompt and the
layer's merge logic agree on one vocabulary of profile keys.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, Field

from memory.layers.base import LoggedMessage
from memory.text import statements
from stores.redaction.secrets import contains_secret


class CandidateFact(BaseModel):
    """One atomic, self-contained statement about the user, not yet stored.

    ``text`` is a standalone third-person sentence ("The user is vegetarian.").
    ``value`` is the claim's core words ("vegetarian"); grounding checks it against
    what the user actually said. ``negation_of`` marks a fact that ends an earlier
    one ("The user no longer plays tennis." ends "The user plays tennis."); for a
    keyed fact it means "this slot value no longer holds" and nothing new is stored.
    """

    text: str = Field(min_length=1)
    category: str = "other"
    key: str | None = None
    value: str | None = None
    importance: int = Field(default=5, ge=1, le=10)
    sources: list[str] = Field(default_factory=list)
    stated_at: datetime | None = None
    explicit: bool = False
    negation_of: str | None = None


@runtime_checkable
class FactExtractor(Protocol):
    """Turns messages into candidate facts. ``needs_llm`` extractors run at session end."""

    needs_llm: bool

    def extract(self, messages: Sequence[LoggedMessage]) -> list[CandidateFact]:
        """Candidates about the user, each with the ids of the messages it came from."""


@dataclass(frozen=True)
class Slot:
    """A profile key. ``multi`` slots collect values instead of replacing them."""

    name: str
    category: str
    importance: int
    multi: bool = False
    template: str = ""  # how a multi slot renders its values; "{values}" is filled in


SLOTS: dict[str, Slot] = {
    s.name: s
    for s in (
        Slot("name", "identity", 8),
        Slot("preferred_name", "identity", 8),
        Slot("pronouns", "identity", 8),
        Slot("age", "identity", 5),
        Slot("birthday", "identity", 6),
        Slot("hometown", "identity", 5),
        Slot("location", "location", 6),
        Slot("timezone", "location", 5),
        Slot("occupation", "work", 6),
        Slot("employer", "work", 6),
        Slot("relationship_status", "family", 5),
        Slot("diet", "diet", 8),
        Slot("allergies", "health", 9, multi=True, template="The user is allergic to {values}."),
        Slot("language", "language", 6, multi=True, template="The user speaks {values}."),
    )
}

FAVOURITE_PREFIX = "favourite_"


def slot_for(key: str | None) -> Slot | None:
    """The slot for a profile key; ``favourite_<thing>`` keys are open-ended."""
    if key is None:
        return None
    if key in SLOTS:
        return SLOTS[key]
    if re.fullmatch(FAVOURITE_PREFIX + r"[a-z0-9_]{1,40}", key):
        return Slot(key, "preference", 4)
    return None


def join_values(values: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c' — how multi slot values read in a sentence."""
    items = list(values)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


split_sentences = statements  # a message's fact-sized pieces (memory/text.py)


def safe_sentences(text: str) -> list[str]:
    """Sentences without a secret. A sentence holding a secret is dropped whole,
    so no fact (and no LLM prompt) is ever built from it.
    """
    return [s for s in split_sentences(text) if not contains_secret(s)]


def user_messages(messages: Sequence[LoggedMessage]) -> list[LoggedMessage]:
    """Facts are about the user, so only the user's own messages are evidence."""
    return [m for m in messages if m.role == "user"]
