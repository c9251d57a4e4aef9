"""Query-side reading for the message log: who is asked about, when, and what.

The message log answers questions about raw past turns ("When did Caroline go to
the support group?"). A hybrid store ranks candidates by text alone; these
helpers let the reranker use what the question says about the speaker (a name, or
"I" for the user), about time ("when", "yesterday", "in June") and which content
words must appear in the message itself rather than only in its neighbours.
No model is called: this runs on every turn.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache

from memory.text import FUNCTION_WORDS, content_words
from models.word_split import words

STOPWORDS = FUNCTION_WORDS | frozenset(
    """a after again am an as at be been before being both by did do does doing having her hers him his i if
    in is it kind likely me might most my no of on or out over she so such these those through to too type
    under up us we while whom""".split()
)
_FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself"})
_WHEN = re.compile(r"^\s*(when|what (year|month|day|date|time)|how long|how many (days|weeks|months|years))\b", re.I)
# Words that date an event inside a message ("last Friday", "two weeks ago", "in 2022").
TEMPORAL = re.compile(
    r"\b(yesterday|today|tonight|tomorrow|last|next|ago|week|weekend|month|year|years|since|recently|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"january|february|march|april|may|june|july|august|september|october|november|december|(19|20)\d\d)\b",
    re.I,
)
_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_RELATIVE = re.compile(
    r"\b(yesterday|today|last (week|month|year)|this (week|month|year)"
    r"|(\d+|a|one|two|three) (day|week|month)s? ago)\b",
    re.I,
)
_NUMBERS = {"a": 1, "one": 1, "two": 2, "three": 3}


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A crude suffix strip, enough to match "painted" with "painting" inside a candidate pool.

    Cached: the reranker stems every word of ~50 candidates per query, mostly the same words.
    """
    word = word.lower().removesuffix("'s")
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word



def terms(text: str) -> set[str]:
    """Stemmed content words of ``text``: what usage tracking, excerpts and the lean prompt compare."""
    return {stem(w) for w in content_words(text, "summary")}

@dataclass(frozen=True)
class QueryInfo:
    """What the reranker needs to know about one query."""

    names: frozenset[str]  # speaker names the query mentions (lower case)
    first_person: bool  # "I", "my": the user asks about themselves
    asks_when: bool  # the answer is a date or a duration
    window: tuple[datetime, datetime] | None  # the time the query points at, if any
    terms: frozenset[str]  # stemmed content words, names excluded


def _mentions(word: str, name: str) -> bool:
    # "Mel" for Melanie: a nickname is a prefix of at least three letters.
    return word == name or (len(word) >= 3 and name.startswith(word))


def analyse(query: str, speakers: set[str], now: datetime) -> QueryInfo:
    """Read a query against the speaker names seen among its candidates."""
    ws = words(query)
    content = [w for w in ws if w not in STOPWORDS]
    names = frozenset(n for n in speakers if any(_mentions(w, n) for w in content))
    terms = frozenset(stem(w) for w in content if not any(_mentions(w, n) for n in names))
    return QueryInfo(
        names=names,
        first_person=bool(_FIRST_PERSON.intersection(ws)),
        asks_when=bool(_WHEN.match(query)),
        window=time_window(query, now),
        terms=terms,
    )


def _day(dt: datetime) -> datetime:
    return dt.replace(hour=0, minute=0, second=0, microsecond=0)


def time_window(query: str, now: datetime) -> tuple[datetime, datetime] | None:
    """The period a query refers to: relative ("yesterday", "2 weeks ago") or a named month/year.

    Messages are dated when they were said, which can be a little after the event
    they report, so a named period is stretched by a week at its end.
    """
    rel = _RELATIVE.search(query)
    if rel:
        phrase = rel.group(0).lower()
        today = _day(now)
        if phrase == "today":
            return today, now
        if phrase == "yesterday":
            return today - timedelta(days=1), today
        unit = phrase.split()[-2 if phrase.endswith("ago") else -1].rstrip("s")
        span = {"day": 1, "week": 7, "month": 31, "year": 366}[unit]
        if phrase.startswith("this"):
            return today - timedelta(days=span), now
        count = 1 if phrase.startswith("last") else _NUMBERS.get(phrase.split()[0]) or int(phrase.split()[0])
        start = today - timedelta(days=span * count)
        return start - timedelta(days=span // 2), start + timedelta(days=span // 2 + 1)
    ws = words(query)
    years = [int(w) for w in ws if re.fullmatch(r"(19|20)\d\d", w)]
    months = [_MONTHS[w] for w in ws if w in _MONTHS and w != "may"]  # "may" is mostly a verb
    year = years[0] if years else now.year
    if months:
        start = datetime(year, months[0], 1, tzinfo=now.tzinfo)
        end = datetime(year + months[0] // 12, months[0] % 12 + 1, 1, tzinfo=now.tzinfo)
        return start, end + timedelta(days=7)
    if years:
        return datetime(year, 1, 1, tzinfo=now.tzinfo), datetime(year + 1, 1, 8, tzinfo=now.tzinfo)
    return None
