"""What the people rules and the capable-model extractor say about a person or pet in the user's life.

``PersonMention`` is one mention as a message gives it (``people.py`` reads them by rules,
``llm.py`` from the model's answer); ``SaidPerson`` adds where and when it was said, as the
semantic layer's person records (memory/layers/people.py) keep it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class PersonMention:
    """One person or pet in the user's life as a message names them.

    ``relation`` is one of ``people_words.RELATIONS``; ``ended`` says the relation has
    ended (a break-up: relation ``ex_partner``; a death: the relation it was); ``fact`` is a
    standalone sentence about them, in the third person ("The user's sister Anna lives in Berlin.").
    """

    name: str | None
    relation: str
    species: str | None = None
    ended: bool = False
    fact: str | None = None
    word: str | None = None  # the word the user called them by ("sister"), when there was one


@dataclass(frozen=True)
class SaidPerson:
    """A mention with where it came from: the ids of the user's messages and when they were said."""

    mention: PersonMention
    sources: Sequence[str]
    stated_at: datetime | None = None
