"""The project's word lists, read once from ``words.toml``.

One data file for the words more than one part uses (diets, relatives, stop
words) and the answer check's food lexicon, so a newcomer extends the agent by
editing TOML, and the write policy and the answer check never disagree on what
a diet is.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

WORDS_FILE = Path(__file__).with_name("words.toml")


@cache
def words() -> dict[str, Any]:
    """The whole file, parsed once per process."""
    with WORDS_FILE.open("rb") as fh:
        return tomllib.load(fh)


def stop_words(*uses: str) -> frozenset[str]:
    """The function words plus each named use's own (``grounding``, ``summary``)."""
    table = words()["stop_words"]
    return frozenset(w for use in ("function", *uses) for w in table[use].split())


def relatives(use: str) -> list[str]:
    """Who "my X" can be besides the user, for ``use`` (``rules`` or ``parse``)."""
    table = words()["relatives"]
    return [*table["both"], *table[use]]


def diets() -> list[str]:
    """Every diet the write policy recognises, as written in the file ("gluten-free")."""
    return list(words()["diets"])


def profile_topic(slot: str) -> str:
    """The words a question about profile ``slot`` uses ([profile_topics]); "favourite X" for open slots."""
    return str(words()["profile_topics"].get(slot) or slot.replace("_", " "))


def alternation(terms: Iterable[str]) -> str:
    """A regex alternation of literal terms, longest first (as a greedy pattern reads them); a hyphen also
    matches a space ("gluten-free", "gluten free").
    """
    return "|".join(re.escape(t).replace(r"\-", "[- ]") for t in sorted(terms, key=len, reverse=True))
