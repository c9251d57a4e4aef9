"""Numbers, names and identifiers: what a sentence embedding barely sees, and dedup must.

"My locker number 7 code word is zeta7." and "... 12 ... zeta12." are near
neighbours to MiniLM (cosine well above ``dedup_threshold``), so write-time
dedup merged distinct facts into one and the user's new fact was lost while the
reply said it was remembered. Every dedup (a new fact against stored ones, an
opposite being archived, upkeep's merge, an episode) asks ``same_particulars``
first: two texts are the same only if each one's particulars occur among the
other's words. A particular is a token with a digit (numbers, ``zeta7``,
``TCK-7731``), an identifier (``a.b@c.io``, ``snake_case``, ``camelCase``), or
a capitalised word that is no function word (a name, wherever it stands).
Comparing against the other's *words*, not its particulars, keeps "Coffee is
my favourite" and "I love coffee" the same.
"""

from __future__ import annotations

import re

from memory.words import stop_words

_TOKEN = re.compile(r"\w(?:[\w@+\-./:]*\w)?")
_COMMON = stop_words("grounding") | {"i"}


def _words(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _is_particular(token: str) -> bool:
    if any(ch.isdigit() for ch in token) or any(ch in "@_.+-/:" for ch in token):
        return True
    if any(ch.isupper() for ch in token[1:]):
        return True  # camelCase, an acronym
    return token[:1].isupper() and token.casefold() not in _COMMON


def particulars(text: str) -> frozenset[str]:
    """The numbers, names and identifiers of ``text``, case-folded."""
    return frozenset(t.casefold() for t in _words(text) if _is_particular(t))


def same_particulars(a: str, b: str) -> bool:
    """Whether neither text names a number, name or identifier the other lacks (so they may be merged)."""
    words_a, words_b = {t.casefold() for t in _words(a)}, {t.casefold() for t in _words(b)}
    return particulars(a) <= words_b and particulars(b) <= words_a
