"""Ended states: "I've stopped being vegetarian", "I'm not vegan anymore", "I quit my job at Deloitte".

An ended state is stored as a fact with ``negation_of``, which the semantic layer uses to end
the current slot value or loose fact, keeping it in the history
(``memory/layers/semantic_records.py``). Each form is brought to the positive clause that ended
("I'm vegetarian", "I work at Deloitte"), so the slot patterns name the slot it ends; a
positive clause no pattern reads still ends a loose fact ("The user no longer smokes.").

A wrong ending deletes a true memory, so the forms are narrow: only the speaker ("I"), never a
mood or a moment ("I'm not hungry anymore", "I stopped at the shop", "I quit the game halfway").
"""

from __future__ import annotations

import re

from memory.write_policy.base import CandidateFact
from memory.write_policy.person import third_person

_I = re.IGNORECASE
_STOPPED = r"(?:'ve|'d| have)? (?:just |finally |recently |completely |officially )?(?:stopped|quit|given up|gave up)"
_ANYMORE = r"(?:anymore|any more|any longer|no more)"
# States that come and go: ending one is not news for the memory.
_PASSING = re.compile(
    r"^(?:(?:so|that|very|really|too|as) )?(?:hungry|thirsty|tired|sleepy|angry|mad|sad|upset|sure|certain|sick|ill|"
    r"scared|afraid|worried|cold|hot|warm|full|bored|busy|stressed|confused|annoyed|nervous|anxious|lonely|"
    r"interested|around|here|there|able|allowed|alone|awake|asleep|free|available|in the mood|in pain|"
    r"mad at \w+|angry at \w+|upset with \w+|worried about .+|sure (?:about|what|if|how|why|whether) .*)$",
    _I,
)
# Objects that make "I stopped/quit X" a moment, not an ended habit.
_MOMENT = re.compile(r"^(?:at|to|by|in|on|for|off|it|this|that|there|here|now)\b|\b(?:halfway|midway|early|"
                     r"because|for a (?:bit|while|second|minute|moment)|that (?:book|game|show|film|movie))\b", _I)
# Where the ended thing's words stop: "since my knee surgery", ", 2 years sober".
_TAIL = re.compile(r"\s*(?:[,;:(]|\s[-–—]\s|\s(?:since|because|as|so|but|and now|now that|after|ago)\b)", _I)
CESSATION: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^i no longer (?P<x>.+)$", _I), "I {x}"),
    (re.compile(r"^i'm no longer (?P<x>.+)$", _I), "I'm {x}"),
    (re.compile(rf"^i don't (?P<x>.+?) {_ANYMORE}\b.*$", _I), "I {x}"),
    (re.compile(rf"^i'm not (?P<x>.+?) {_ANYMORE}\b.*$", _I), "I'm {x}"),
    (re.compile(rf"^i{_STOPPED} being (?P<x>.+)$", _I), "I'm {x}"),
    (re.compile(rf"^i(?:{_STOPPED}|'ve left| left) (?:my job|my position|working|my post) (?P<p>at|as|in|for) "
                r"(?P<x>.+)$", _I), "I work {p} {x}"),
    (re.compile(rf"^i{_STOPPED} (?P<g>[a-z]+ing)\b(?P<x>.*)$", _I), "I {g}{x}"),
    (re.compile(rf"^i(?:{_STOPPED}|'ve left| left) (?P<x>(?:the|my) [\w -]+|(?-i:[A-Z])[\w-]+)$", _I), "I'm in {x}"),
)
# Whole-sentence forms brought to a clause the table above reads.
_SENTENCE_FORMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bI used to be (?:an? )?(?P<x>[\w -]+?),? but (?:I )?(?:have |'ve )?(?:stopped|quit|gave (?:it )?up)"
                r"\b", _I), r"I stopped being \g<x>,"),
    (re.compile(r"\b(?:after (?:like )?[\w ]+ of being (?P<x>[\w-]+)),? I(?:'ve| have)? (?:finally )?(?:stopped|quit)"
                r"\b", _I), r"I stopped being \g<x>,"),
    (re.compile(rf"^not (?P<x>(?:an? )?[\w-]+(?: [\w-]+)?) {_ANYMORE}(?=\s*(?:[-–—,.!:;]|$))", _I),
     r"I'm not \g<x> anymore"),
    (re.compile(r"^no longer (?=\w+ing\b)", _I), "I'm no longer "),
    (re.compile(r"^(?P<x>[\w-]+) is over for me\b", _I), r"I'm not \g<x> anymore"),
    (re.compile(r"^(?:stopped|quit|gave up)(?= (?:being|\w+ing)\b)", _I), "I stopped"),
)
_GERUNDS = {"running": "run", "swimming": "swim", "shopping": "shop", "jogging": "jog", "getting": "get",
            "sitting": "sit", "putting": "put", "cutting": "cut", "planning": "plan", "dating": "date",
            "smoking": "smoke", "taking": "take", "using": "use", "living": "live", "dancing": "dance",
            "cycling": "cycle", "riding": "ride", "writing": "write", "baking": "bake", "driving": "drive",
            "making": "make", "having": "have", "giving": "give", "coming": "come", "vaping": "vape",
            "hiking": "hike", "skating": "skate", "biking": "bike", "practising": "practise", "practicing": "practice"}


def ended_sentence(sentence: str) -> str:
    """``sentence`` with its whole-sentence ending forms written as the clauses ``CESSATION`` reads."""
    for pattern, replacement in _SENTENCE_FORMS:
        sentence = pattern.sub(replacement, sentence)
    return sentence


def positive_form(clause: str) -> tuple[str, bool]:
    """'I don't play tennis anymore' -> ('I play tennis', True): the clause that ended."""
    clause = re.sub(r"[^\w)'\"]+$", "", clause)
    for pattern, template in CESSATION:
        m = pattern.match(clause)
        if m is None:
            continue
        groups = {k: v or "" for k, v in m.groupdict().items()}
        rest = groups["x"] = _TAIL.split(groups.get("x", ""))[0].strip()
        if _PASSING.match(rest) or _MOMENT.search(rest) or _MOMENT.match(groups.get("g", "")):
            return clause, False
        if "g" in groups:
            groups["g"] = _base(groups["g"])
        return template.format(**groups), True
    return clause, False


def loose_ending(positive: str, clause: str) -> CandidateFact:
    """The ending of a clause no slot or statement pattern reads: ends a loose fact of the same words.
    Its value is the user's own words for what ended ("running", not "run").
    """
    head, rest = positive.split(" ", 1)
    negative = ("I'm no longer " if head.lower() == "i'm" else "I no longer ") + rest
    m = re.match(rf"^i{_STOPPED} (?P<g>[a-z]+ing\b)", clause, _I)
    value = m["g"] + rest[len(rest.split(" ", 1)[0]):] if m else rest
    return CandidateFact(text=third_person(negative), value=value, negation_of=third_person(positive))


def _base(gerund: str) -> str:
    low = gerund.lower()
    return _GERUNDS.get(low, low[:-3] if len(low) > 5 else low)
