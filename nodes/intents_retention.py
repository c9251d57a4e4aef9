"""A retention request in plain words: "only keep the last 30 days", "delete anything older than 3 months".

The whole message must be the request and name a period (days, weeks, months
or a year); "keep the last slice for me" names none and is no request. Weeks
are 7 days, months 30, years 365.
"""

from __future__ import annotations

import re

_I = re.IGNORECASE
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
_NUMBER_WORDS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "twelve": 12, "fourteen": 14, "thirty": 30, "sixty": 60, "ninety": 90}
_PERIOD = r"(?P<n>\d{1,5}|" + "|".join(_NUMBER_WORDS) + r")?\s*(?P<unit>day|week|month|year)s?"
_WHAT = r"(?:(?:my |our )?(?:data|messages|conversations|chats|memories|memory|history|what i (?:say|said|tell you))|" \
        r"(?:anything|everything|things|stuff|what i say))"
_RULES = (
    re.compile(rf"^(?:only (?:keep|remember|store|save)|(?:keep|remember|store|save) only)(?: {_WHAT})?"
               rf"(?: from| for)? (?:the )?(?:last|past|latest) {_PERIOD}(?: of (?:it|them|{_WHAT}))?$", _I),
    re.compile(rf"^(?:don't|do not|never) (?:keep|remember|store|save) {_WHAT} (?:older than|for more than|"
               rf"longer than|past|beyond) (?:a |one )?{_PERIOD}(?: old| ago)?$", _I),
    re.compile(rf"^(?:delete|forget|erase|remove) {_WHAT} (?:older than|from more than|after) (?:a |one )?{_PERIOD}"
               r"(?: old| ago)?$", _I),
    re.compile(rf"^(?:keep|remember|store) {_WHAT} (?:for )?(?:only |just |at most |no more than )(?:the )?"
               rf"(?:last )?{_PERIOD}$", _I),
)


def retention_request(text: str) -> int | None:
    """The number of days a normalised message asks to keep, or None when it asks nothing of the kind."""
    for pattern in _RULES:
        m = pattern.match(text)
        if m is None:
            continue
        raw = (m.group("n") or "1").lower()
        n = int(raw) if raw.isdigit() else _NUMBER_WORDS[raw]
        return n * _UNIT_DAYS[m.group("unit").lower()] if n > 0 else None
    return None
