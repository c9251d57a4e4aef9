"""Memory commands in plain words, recognised by rules (no LLM).

A user's right to be forgotten cannot depend on the model's skill: the embedded
model gets no tools, and users do not type slash commands. These rules map a
whole message to the operation of its slash command — forget, show (export),
memory off, memory on, a retention limit ("only keep the last 30 days",
nodes/intents_retention.py) — or to nothing.

Precision over recall: the whole message must be the request ("I always forget
my keys", "don't forget to remind me…", "forget it" are not), and a forget
target must point at the user ("that I…", "my…", "what you know about my…").
A request that these rules miss still reaches the model (and its tools, when it
has them); a false match would answer a normal message with a memory command.
The labelled set in bench/datasets/intents_labelled.tsv measures both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from models.word_split import address_words
from nodes.intents_retention import retention_request

Kind = Literal["forget", "show", "memory_off", "memory_on", "retention"]
_I = re.IGNORECASE

_POLITE = re.compile(
    r"^(?:(?:ok|okay|hey|hi|so|and|also|now|please|pls|kindly)\b[,!]?\s+"
    r"|(?:can|could|would|will) you\s+(?:please\s+)?"
    r"|i(?:'d| would)? (?:want|like|need|ask) you to\s+(?:please\s+)?)+",
    _I,
)
_TAIL = re.compile(r"(?:[\s,]+(?:please|pls|thanks|thank you|for me|from now on|anymore|any more))+$", _I)
_ABOUT_ME = r"(?:about|of|on) me"
_WHAT_YOU = (
    r"(?:what|everything|all|anything)(?: that)? (?:do |did |have )?you(?:'ve)? "
    r"(?:remember(?:ed)?|know|keep|kept|store[d]?|save[d]?|have(?: stored| saved| remembered| kept| got)?|got)"
)
_RULES: tuple[tuple[Kind, re.Pattern[str]], ...] = (
    ("memory_on", re.compile(
        r"^(?:you (?:can|may) (?:start )?remember(?:ing)?|(?:start|begin) remembering|remember)"
        rf"(?: (?:things|stuff|everything))?(?: {_ABOUT_ME})? again$"
        r"|^(?:turn|switch) (?:your |the )?memory (?:back )?on(?: again)?$"
        r"|^(?:turn|switch) (?:back )?on (?:your |the )?memory$"
        r"|^(?:re-?)?enable (?:your |the )?memory(?: again)?$", _I)),
    ("memory_off", re.compile(
        r"^stop (?:remembering|saving|storing|keeping) (?:things|stuff|anything|everything|what i (?:say|tell you))"
        rf"(?: {_ABOUT_ME})?$"
        r"|^(?:don't|do not) (?:remember|save|store|keep) (?:anything|everything)"
        rf"(?: {_ABOUT_ME}| i (?:say|tell you|write))?$"
        r"|^(?:turn|switch) (?:your |the )?memory off$|^(?:turn|switch) off (?:your |the )?memory$"
        r"|^disable (?:your |the )?memory$", _I)),
    ("show", re.compile(
        rf"^(?:(?:tell me|show me|list|show)\s+)?{_WHAT_YOU} {_ABOUT_ME}$"
        r"|^(?:show|list|give)(?: me)? (?:my|your) memories(?: of me| about me)?$"
        r"|^what (?:information|info|data|memories) (?:do|did|have) you (?:have|got|kept|stored|saved|keep|store|save)"
        rf"(?: {_ABOUT_ME})?$", _I)),
)
_FORGET_VERB = (
    r"(?P<verb>forget|erase|delete|remove|wipe|(?:don't|do not|not) (?:remember|keep|store|save)|stop remembering)"
)
_FORGET = re.compile(rf"^{_FORGET_VERB}\s+(?P<rest>.+)$", _I)
# What follows the verb; the target must point at the user.
_TARGETS = (
    re.compile(r"^(?:about )?(?:the (?:fact|memory|note|thing) )?that (?P<t>(?:i|i'm|my)\b.+)$", _I),
    re.compile(rf"^{_WHAT_YOU}(?: about| of| on)? (?P<t>(?:my|where i|what i|who i|how i|how old i)\b.+)$", _I),
    re.compile(r"^(?:what|everything|all) i (?:said|told you|mentioned|shared)(?: about)? (?P<t>.+)$", _I),
    re.compile(r"^i (?:told you|said|mentioned)(?: that)?(?: about)? (?P<t>.+)$", _I),
    re.compile(r"^(?:about |everything about |all about )?(?P<t>my\b.+)$", _I),
)
_MEMORY_PLACE = re.compile(r"\s+from (?:your |my )?(?:memory|memories|records|notes)$", _I)
# "delete my X" is an ordinary request unless X is personal data or memory is named.
_PERSONAL = re.compile(
    r"^my (?:(?:home|email|e-mail|postal|work|old|current|new) )?(?:address|phone(?: number)?|number|email|salary|"
    r"income|diet|birthday|birth ?date|age|name|job|employer|health|medical\b.*|diagnosis|religion|family|"
    r"details|data|info|information|personal\b.*|ex|girlfriend|boyfriend|partner|wife|husband)$",
    _I,
)
_FIRST_PERSON_LEAD = re.compile(r"^(?:i (?:told you|said|mentioned)(?: that)?\s+)", _I)


@dataclass(frozen=True)
class Intent:
    """A recognised memory command; ``target`` is what to forget, as the user put it (for a
    retention request, the number of days to keep).
    """

    kind: Kind
    target: str = ""


def normalise(text: str) -> str:
    """One line, straight quotes, no politeness around it and no end punctuation."""
    s = " ".join(text.replace("\u2019", "'").replace("\u2018", "'").split())
    s = re.sub(r"[\s.!?…]+$", "", s)
    for _ in range(3):  # "Okay, could you please …, please"
        s = _TAIL.sub("", _POLITE.sub("", s)).strip(" ,")
    return s


def _forget_target(verb: str, rest: str) -> str | None:
    placed = _MEMORY_PLACE.search(rest) is not None  # "… from your memory"
    rest = _MEMORY_PLACE.sub("", rest).strip(" ,")
    memory_verb = not re.match(r"^(?:erase|delete|remove|wipe)$", verb, _I)
    for pattern in _TARGETS:
        m = pattern.match(rest)
        if m is None:
            continue
        target = _FIRST_PERSON_LEAD.sub("", m.group("t")).strip(" ,")
        if pattern is _TARGETS[-1] and not (memory_verb or placed or _PERSONAL.match(target)):
            return None  # "delete my essay" is a task, not a memory command
        return target or None
    return None


def parse_intent(text: str) -> Intent | None:
    """The memory command ``text`` asks for, or None when it is not one."""
    if not isinstance(text, str) or len(text) > 300 or "\n" in text.strip():
        return None
    s = normalise(text)
    days = retention_request(s)
    if days is not None:
        return Intent("retention", str(days))
    for kind, pattern in _RULES:
        if pattern.match(s):
            return Intent(kind)
    m = _FORGET.match(s)
    if m is None:
        return None
    target = _forget_target(m.group("verb"), m.group("rest"))
    return Intent("forget", target) if target else None


# Words that frame a forget target without naming what to find ("that I'm …", "my …").
_FRAME = frozenset(
    "i i'm im me my mine myself we our a an the that this is am are was were be been being do does did "
    "have has had got called named about of on at in to for as from with where what who how when which "
    "live lives living lived work works working worked told tell said say mentioned "
    "you your know remember any some very really".split()
)
# Topic words that the extractor files under another word ("my job" is stored as "work").
_TOPICS = {
    "job": "work", "jobs": "work", "career": "work", "employer": "work", "occupation": "occupation",
    "profession": "occupation", "address": "location", "home": "location", "city": "location",
    "birthday": "birthday", "diet": "diet", "health": "health", "medical": "health", "diagnosis": "health",
    "family": "family", "name": "name", "allergy": "allergies", "allergies": "allergies", "age": "age",
}
MIN_NEEDLE_CHARS = 3
_MIN_VALUE_CHARS = 4  # a lone value word shorter than this finds too much


def needles(target: str) -> list[str]:
    """What to search memory for, in order: the target's content words, last first
    ("my name is Sam" -> "sam"; memories are kept in the third person, so "I'm
    vegetarian" is stored as "The user is vegetarian."), then the target as said,
    then the topic it is filed under ("my job" -> "work").
    """
    said = " ".join(target.casefold().split()).strip(" .,!?")
    words = address_words(said)
    runs: list[list[str]] = [[]]
    for word in words:
        if word in _FRAME:
            runs.append([])
        else:
            runs[-1].append(word)
    content = [" ".join(r) for r in reversed(runs) if r]  # the value comes last: "my name is Sam"
    # A run's last word alone: "I speak Spanish" is kept as "The user speaks French and Spanish".
    values = [r[-1] for r in reversed(runs) if len(r) > 1 and len(r[-1]) >= _MIN_VALUE_CHARS]
    topics = [_TOPICS[w] for w in words if w in _TOPICS] + (["location"] if "live" in words else [])
    out: list[str] = []
    for candidate in [*content, *values, said, *topics]:
        if len(candidate) >= MIN_NEEDLE_CHARS and candidate not in out:
            out.append(candidate)
    return out
