"""Profile facts said in passing: fragments, inverted forms, and a statement before a question.

Natural messages rarely say "I live in X" on their own. A request carries the fact
in its first clause ("I'm allergic to latex, does that mean ...?"); a chat drops the
subject ("electrician, live in Brno", "severe peanut allergy here", "divorced, 2
times"); a taste comes inverted ("Blue's my favourite colour"); a fact ends with a
relevance tag ("I live in Dubai if that matters"), which is no condition.
``REWRITES`` bring such forms to the canonical clause before the patterns run;
``FORMS`` are patterns for the shapes with no canonical clause. Word lists and
clause shapes, not sentences.
"""

from __future__ import annotations

import re

from memory.write_policy.patterns import OCCUPATIONS, Pattern, Rewrite, rewrites, rule

_I = re.IGNORECASE
# "if that matters", "in case it helps": a relevance tag on a statement, not a supposition.
RELEVANCE_TAG = re.compile(
    r",?\s*\b(?:if|in case) (?:that|it|this) (?:matters|helps|is relevant|makes a difference)\b[^,.;!?]*", _I)
_ASKS = (r"(?:can|could|would|will|do|does|did|is|are|should|shall|what|what's|which|how|where|when|who|why|"
         r"any|anything)\b")
# A question asked after a statement: "..., does that mean ...?", "... — what should I ...?", "... so can you ...?"
_QUESTION_TAIL = re.compile(rf"(?:,|;|\s[-–—]|\s+(?=so\s|and\s|but\s))\s*(?:(?:so|and|but)\s+)?(?={_ASKS})[^?]*\?+\s*$",
                            _I)
_FIRST_PERSON_START = re.compile(
    r"^(?:(?:ok|okay|so|well|also|btw|fyi|hi|hey|hello|yeah|right)[,!]?\s+)*"
    r"(?:i|i'm|im|i've|my|we|we're|we've|as (?:someone|somebody))\b"
    r"|^[\w' -]{1,30}?(?:'s| is| are) my\b", _I)


def statement_before_question(sentence: str) -> str | None:
    """The first-person statement that opens a question, or None when the whole sentence asks.

    "I'm a nurse working nights, how do I sleep during the day?" -> "I'm a nurse working
    nights"; "If I move to Paris, what ...?" and "Is it weird that I ...?" stay questions.
    """
    tail = _QUESTION_TAIL.search(sentence)
    if tail is None:
        return None
    head = sentence[:tail.start()].strip(" ,;-–—")
    return head if head and "?" not in head and _FIRST_PERSON_START.match(head) else None


_NOT_A_TITLE = r"(?:as|a|an|the|my|your|his|her|our|their|speaking|i|i'm|im|was|is|am|he|she|we|they|to)"
_OCC = rf"(?:(?!{_NOT_A_TITLE}\b)[\w-]+ ){{0,2}}?(?:{OCCUPATIONS})"  # a job title: "bus driver", "senior nurse"
_STATUS = r"single|divorced|married|engaged|separated|widowed"
_NUMBER_WORDS = (r"(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
                 r"(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?")
_ZONE = (r"(?-i:(?:GMT|UTC)\s?[+-]\s?\d{1,2}(?::\d\d)?|GMT|UTC|PST|PDT|PT|EST|EDT|ET|CST|CT|MST|MT|CET|CEST|BST|"
         r"IST|AEST|AEDT|JST|SGT|HKT|NZST|NZDT)|(?:pacific|eastern|central|mountain) time")
_FAVOURITE_OF = (r"colou?r|season|food|dish|drink|film|movie|book|band|song|singer|artist|author|team|sport|"
                 r"animal|flower|show|game|city|place|holiday|number|day|month")
_NOT_A_NAME = (r"(?!(?:same|also|me|us|all|everyone|everybody|nobody|nothing|someone|it|there|home|rain|snow|sun|"
               rf"winter|summer|spring|autumn|fall|lunch|dinner|breakfast|morning|night|evening|{OCCUPATIONS})\b)")

REWRITES: tuple[Rewrite, ...] = rewrites(
    (
        # Texting shorthand: "live in bristol w my bf", "moved last wk"
        (r"\bw/? (?=(?:my|our|the|a|an|his|her|their|him|them|me|us)\b)", "with "),
        (r"\b(last|next|this|a|one|two|three|\d+) wks?\b", r"\1 week"),
        # A job as a fragment: "Nurse at St Mary's", "electrician, live in Brno", "Driving instructor 15 yrs".
        (rf"^(?:an? )?(?!(?:retired|former|ex)\b)({_OCC})"
         r"(?=,\s*(?-i:[a-z0-9])| here\b| at (?-i:[A-Z])|$)", r"I'm a \1"),
        (rf"^(?:an? )?(?!(?:retired|former|ex)\b)({_OCC}) \d+ (?:yrs|years)\b", r"I'm a \1,"),
        # An age opening a list of what one is: "55, widower, retired postman".
        (rf"^(\d{{2}}),\s*(?=(?:{_STATUS}|widow|widower|male|female|retired|an? )\b|{_OCC})", r"I'm \1, "),
        # "As a dentist, ...", "speaking as a nurse", "as someone who's halal".
        (rf"^(?:speaking )?as an? ((?!(?:retired|former|ex)\b){_OCC}),?\s*", r"I'm a \1, "),
        (r"^as (?:someone|somebody|a person) who(?:'s| is) ", "I'm "),
        # The subject left out of a change of status: "just got engaged!!!", "got married last saturday".
        (rf"^(?:(?:i|we)(?:'ve| have)? )?(?:just |finally |recently )?got ({_STATUS})\b", r"I'm \1,"),
        (r"^(?:my \w+ and i|we)(?:'ve| have) been married\b", "I'm married,"),
        # A severe allergy said as a noun phrase: "Severe peanut allergy here", "bad shellfish allergy, ...".
        (r"^(?:an? )?(?=(?:severe|serious|bad|mild|life[- ]threatening|deadly|anaphylactic) [\w -]+? allerg)",
         "I have a "),
    )
)


FORMS: tuple[Pattern, ...] = (
    rule(rf"^i'm (?:a|an) (?P<v>{_OCC}) (?:\w+ing)\b.*$", "work", key="occupation", template="The user is {a_v}."),
    rule(r"^i'm (?P<v>\d{1,3})(?: years old| yrs| yo)?(?: (?:so|and|but|now|btw|lol|haha)\b.*| [-–—] .*)$",
         "identity", key="age", template="The user is {v} years old."),
    rule(rf"^i'm (?P<v>{_NUMBER_WORDS})(?: years old)?(?:$|[,.]| (?:so|and|but|now|i|i've|i'm)\b.*)", "identity",
         key="age", template="The user is {v} years old."),
    rule(r"^i have (?:a |an )?(?:severe |serious |mild |bad |life[- ]threatening |deadly |anaphylactic )?"
         r"(?P<v>[\w -]+?) allerg(?:y|ies)(?: here| for me)?(?:,.*| and .*| so .*)?$", "health", key="allergies"),
    rule(rf"^(?P<v>(?!(?:it|that|this|which|what|who|he|she|they|there)\b)[\w' -]{{1,30}}?)(?:'s| is| are) "
         rf"(?:my|our) (?:all-time |absolute |very |total )?(?:favou?rite|fave|fav) (?P<k>{_FAVOURITE_OF})\b",
         "preference", importance=4),
    rule(r"^(?P<v>(?-i:[A-Z])[\w' -]{1,30}?)(?:'s| is| are) my (?:football |footy |home )?(?P<k>team)(?:$|,)",
         "preference", importance=4),
    rule(rf"^(?:my )?(?:favou?rite|fave|fav) (?P<k>{_FAVOURITE_OF})(?: is| are|\s*[:=-])? (?P<v>[\w' -]+)",
         "preference", importance=4),
    rule(rf"^(?:.*?\b)?(?:i'm (?:always |usually |normally )?on|(?:my )?time ?zone(?: is|:|=)?) (?P<v>{_ZONE})(?!\w)",
         "location", key="timezone", template="The user's time zone is {v}."),
    rule(rf"^(?:i'm )?(?:happily |newly |recently )?(?P<v>{_STATUS})(?:$|,| and\b| but\b| (?:\w+ ){{0,3}}here\b|"
         r" (?:for )?(?:\d+|\w+) years\b)", "family", key="relationship_status", template="The user is {v}."),
    rule(r"^(?:i'm )?(?:an? )?(?P<v>widow|widower)(?:$|,| here\b)", "family", key="relationship_status",
         template="The user is {a_v}."),
    rule(rf"^(?P<v>{_NOT_A_NAME}(?-i:[A-Z])[a-z]+) here(?:$|,)", "identity", key="name",
         template="The user's name is {v}."),
)
