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
from memory.write_policy.people_words import BREAK_UP, PET_WORD
from memory.write_policy.person import third_person

_I = re.IGNORECASE
_STOPPED = r"(?:'ve|'d| have)? (?:just |finally |recently |completely |officially )?(?:stopped|quit|given up|gave up)"
_ANYMORE = r"(?:anymore|any more|any longer|no more)"
# "on" that holds a lasting state, not a moment ("on the phone"): a shift, a team, a diet, a medication.
_DURABLE_ON = (r"(?:(?:the|a|an|my) )?(?:[\w-]+ ){0,2}(?:shifts?|team|rota|diet|committee|board|council|pill|meds|"
               r"medication|tablets)\b|antidepressants\b|benefits\b|the dole\b")
_QUITTING = r"(?:'ve|'d| have)? (?:just |finally |recently |completely |officially )?(?:quit|given up|gave up)"
# States that come and go: ending one is not news for the memory.
_PASSING = re.compile(
    r"^(?:(?:so|that|very|really|too|as) )?(?:hungry|thirsty|tired|sleepy|angry|mad|sad|upset|sure|certain|sick|ill|"
    r"scared|afraid|worried|cold|hot|warm|full|bored|busy|stressed|confused|annoyed|nervous|anxious|lonely|"
    r"interested|around|here|there|able|allowed|alone|awake|asleep|free|available|in the mood|in pain|happy|well|"
    r"ok|okay|fine|good|great|myself|the same|right|home|back|out|outside|online|in touch|"
    r"(?:remember|recall|recogni[sz]e|understand|know|feel|hear|want to talk)\b.*|"
    r"need (?:help|it|that|this|to|you)\b.*|"
    r"mad at \w+|angry at \w+|upset with \w+|worried about .+|sure (?:about|what|if|how|why|whether) .*)$",
    _I,
)
# Objects that make "I stopped/quit X" a moment, not an ended habit.
_MOMENT = re.compile(rf"^(?:at|to|by|in|on(?! {_DURABLE_ON})|for|off|it|this|that|there|here|now)\b|"
                     r"\b(?:halfway|midway|early|because|for a (?:bit|while|second|minute|moment)|"
                     r"that (?:book|game|show|film|movie))\b", _I)
# Where the ended thing's words stop: "since my knee surgery", ", 2 years sober".
_TAIL = re.compile(r"\s*(?:[,;:(]|\s[-–—]\s|\s(?:since|because|as|so|but|and now|now that|after|ago|last|"
                   r"in (?:january|february|march|april|may|june|july|august|september|october|november|december|"
                   r"(?:19|20)\d\d)|and (?=(?:i|i'm|i've|haven't|have|never|now|it|it's|still|feel|am)\b))\b)", _I)
CESSATION: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^i no longer (?P<x>.+)$", _I), "I {x}"),
    (re.compile(r"^i'm no longer (?P<x>.+)$", _I), "I'm {x}"),
    (re.compile(rf"^i don't (?P<x>.+?) {_ANYMORE}\b.*$", _I), "I {x}"),
    (re.compile(rf"^i'm not (?P<x>.+?) {_ANYMORE}\b.*$", _I), "I'm {x}"),
    (re.compile(rf"^i{_STOPPED} being (?P<x>.+)$", _I), "I'm {x}"),
    (re.compile(rf"^i(?:{_STOPPED}|'ve left| left) (?:my job|my position|working|my post) (?P<p>at|as|in|for) "
                r"(?P<x>.+)$", _I), "I work {p} {x}"),
    (re.compile(rf"^i{_STOPPED} (?P<g>[a-z]+ing)\b(?P<x>.*)$", _I), "I {g} {x}"),
    (re.compile(rf"^i(?:{_QUITTING}|'ve left| left) (?![\w -]*\b(?:at|after|before|around|by|early|party|meeting|"
                r"room|house|office|building|shop|pub|bar|restaurant|station|table|call|chat)\b)"
                r"(?P<x>(?:the|my) [\w -]+|(?-i:[A-Z])[\w-]+)$", _I), "I'm in {x}"),
)
# What follows "… but not anymore" up to the next clause of the speaker's ("…, had a burger yesterday lol"):
# dropped, so a passing detail does not make the ending look like a moment.
_AFTERWORDS = (r"[^,;]*(?:,\s*(?!(?:and |but |so )?(?:now |then )?(?:i|i'm|i've|my|we|live|work|speak|have|play|love|"
               r"study)\b)[^,;]*)*")
# Whole-sentence forms brought to a clause the table above reads.
_ANSWERING = (r"using|giving|sending|replying|answering|asking|telling|suggesting|recommending|writing|adding|"
              r"putting|calling|saying|talking|apologi[sz]ing|ending|starting")
_SENTENCE_FORMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bI (?:used to be|was) (?P<x>(?:an? )?[\w-]+(?: [\w-]+)?)(?: for [\w ]+?)?,? but (?:(?:I )?"
                r"(?:have |'ve )?(?:stopped|quit|gave (?:it )?up)|(?:I'm )?(?:not|no longer) (?:anymore|any more|"
                rf"any longer|now)|not since)\b{_AFTERWORDS}", _I), r"I stopped being \g<x>"),
    (re.compile(r"\b(?:the|my) (?P<x>[\w-]+) (?:phase|days|era|stint) (?:is|are) (?:over|done|behind me)\b", _I),
     r"I'm not \g<x> anymore"),
    (re.compile(r"(?:^|\bI )(?:haven't|have not) been (?P<x>(?:an? )?(?!(?:to|in|at|on|there|here|so|that|this|very|"
                r"really|too|able|allowed|myself)\b)[\w-]+(?<!ing)) since\b", _I), r"I'm not \g<x> anymore since"),
    (re.compile(r"\b(?:me and )?my (?P<r>girlfriend|boyfriend|partner|wife|husband|fianc[eé]e?) and I (?:have |'ve )?"
                rf"{BREAK_UP}\b", _I),
     r"I'm no longer with my \g<r>"),
    (re.compile(rf"\bI (?:have |'ve )?{BREAK_UP} with my (?P<r>girlfriend|boyfriend|partner|"
                r"wife|husband|fianc[eé]e?)\b", _I), r"I'm no longer with my \g<r>"),
    (re.compile(r"\bI (?:have |'ve )?moved (?:out of|away from) (?P<x>(?-i:[A-Z])[\w-]+(?: (?-i:[A-Z])[\w-]+)*|"
                r"(?!(?:the|my|a|an|our|his|her|their|home|there|here)\b)[a-z][\w-]+)\b", _I),
     r"I no longer live in \g<x>"),
    # Retiring is news of its own (occupation "retired"), kept next to what it ended.
    (re.compile(r"\bI (?:have |'ve )?retired from (?=\w+ing\b)", _I), "I retired, I stopped "),
    (re.compile(r"\bI (?:have |'ve )?retired from (?=(?:the|my) )", _I), "I retired, I left "),
    (re.compile(r"\b(?:I(?:'ve| have)? (?:given up|gave up|quit|stopped|come off|came off|gone off|went off)(?: on)?|"
                r"I'm (?:off|done with)) (?P<x>(?:the|my) [\w-]+(?: [\w-]+)? diet)\b", _I),
     r"I'm not on \g<x> anymore"),
    (re.compile(rf"\bwe (?:don't|do not) (?P<v>have|own) (?P<x>(?:the|our|a) (?:{PET_WORD}|car|van|boat|caravan|"
                rf"allotment)) {_ANYMORE}\b", _I), r"I don't \g<v> \g<x> anymore"),
    (re.compile(r"^no more (?P<x>[\w -]+?) for me\b(?!.*\b(?:tonight|today|thanks|thank you|please|for now|right now|"
                r"this (?:time|week|evening))\b)", _I), r"I don't do \g<x> anymore"),
    (re.compile(r"\b(?:after (?:like )?[\w ]+ of being (?P<x>[\w-]+)),? I(?:'ve| have)? (?:finally )?(?:stopped|quit)"
                r"\b", _I), r"I stopped being \g<x>,"),
    (re.compile(rf"^not (?P<x>(?:an? )?[\w-]+(?: [\w-]+){{0,3}}?) {_ANYMORE}(?=\s*(?:[-–—,.!:;]|$)|\s+(?:since|"
                r"because|after|now)\b)", _I),
     r"I'm not \g<x> anymore"),
    (re.compile(r"^no longer (?=\w+ing\b)", _I), "I'm no longer "),
    (re.compile(r"^(?P<x>[\w-]+) is over for me\b", _I), r"I'm not \g<x> anymore"),
    # Subjectless: "Stopped drinking …" is the user's news; "Quit using jargon" is an order to the assistant,
    # so a bare "quit" needs a time ("Quit smoking 6 months ago") and no gerund is one of answering.
    (re.compile(r"^(?:quit|left) (?=my (?:job|position|post)\b)", _I), "I quit "),
    (re.compile(rf"^(?:(?:stopped|gave up|given up)|quit(?=.*\b(?:ago|last|since|for good|in (?:19|20)\d\d)\b))"
                rf"(?= (?!(?:{_ANSWERING})\b)(?:being|\w+ing)\b)", _I), "I stopped"),
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
        return template.format(**groups).strip(), True
    return clause, False


def loose_ending(positive: str, clause: str) -> CandidateFact:
    """The ending of a clause no slot or statement pattern reads: ends a loose fact of the same words.
    Its value is the user's own words for what ended ("running", not "run").
    """
    head, rest = positive.split(" ", 1)
    negative = ("I'm no longer " if head.lower() == "i'm" else "I no longer ") + rest
    m = re.match(rf"^i{_STOPPED} (?P<g>[a-z]+ing\b)", clause, _I)
    value = m["g"] + rest[len(rest.split(" ", 1)[0]):] if m and m["g"].lower() != "being" else rest
    value = re.sub(r"^(?:an?|the) ", "", value, flags=_I)  # "stopped being a smoker": the value is "smoker"
    if rest.split(" ", 1)[0].lower().endswith("ing"):  # a verb without a known base form: "caring what people think"
        return CandidateFact(text=f"The user has stopped {value}.", value=value, negation_of=f"The user keeps {value}.")
    return CandidateFact(text=third_person(negative), value=value, negation_of=third_person(positive))


def _base(gerund: str) -> str:
    """'drinking' -> 'drink'; a stem that may have lost its e ('caring') stays a gerund."""
    low = gerund.lower()
    stem = low[:-3]
    if low in _GERUNDS:
        return _GERUNDS[low]
    if len(stem) > 2 and re.search(r"(?:[^aeiou][^aeiouy]|[aeiou]{2}[^aeiou]|[wxy])$", stem):
        return stem
    return low
