"""Life events that change who is in the user's life, said with a name: a divorce, a wedding, dating, a pet
put down, a death.

"Abena and I are getting divorced.", "Efua and I got married on Saturday!", "Met a lovely woman at my
cousin's wedding, Efua. We've been on three dates." and "We had to put Bruno down yesterday." tell of a
partner ending, a partner, a new partner and a pet's death ("Bruno died yesterday." ends whoever the
user has called Bruno); the mention rules (``people.py``) read the forms with a relation word ("my wife
and I divorced", "our dog Rex died"). These give the same ``PersonMention``s, and
``memory/layers/people.py`` writes them with the others.

A wrong ending removes a true memory, so every form is the speaker's own news: it starts the sentence
(after a greeting or "so,"), never follows "if", "when" or "my friend", and a sentence with a
hypothetical, a question or a quote in it gives nothing. Putting someone down is only an animal's end with
"had to" ("I put Lea down for her nap" is a child's bedtime).
"""

from __future__ import annotations

import re

from memory.text import statements
from memory.write_policy.hypotheticals import SUPPOSING
from memory.write_policy.people_words import relation_of
from memory.write_policy.person_mention import PersonMention
from memory.write_policy.quoted import QUOTED
from memory.write_policy.self_names import NOT_A_NAME
from memory.write_policy.voices import CAPTION, is_not_the_user

_I = re.IGNORECASE
_NAME = r"(?P<n>(?-i:[A-Z][a-zà-ÿ]+(?:-[A-Z][a-zà-ÿ]+)?))"
_START = (r"^(?:(?:so|well|oh|ok|okay|update|news|big news|guess what|honestly|sadly|anyway|finally|hi|hey|hello)"
          r"\b[,:!.]?\s*)*")
_SOON = r"(?:just |finally |recently |officially |now )?"
_NOT_NEWS = re.compile(rf"\b(?:{SUPPOSING}|would|might|maybe|should|could|"
                       r"thinking (?:of|about)|talking about|considering|rumou?rs?|someday|one day|never|film|movie|"
                       r"show|series|episode|book|novel|game|story|play|song|dream)\b|\?", _I)
# What may follow the event: its end, or when and for how long ("Jo and I split up the chores" is no break-up).
_DONE = (r"(?=\s*(?:$|[,.!;:]|[-–—]|\s(?:after|last|this|yesterday|today|on|in|for|since|now|officially|finally|"
         r"and|but|so|at last|for good)\b))")
_DIVORCE = re.compile(
    rf"{_START}{_NAME} and I (?:are|'re|have|'ve|had)? ?{_SOON}(?:getting divorced|got divorced|divorced|"
    rf"getting a divorce|separating|separated|splitting up|split up|broken up){_DONE}", _I)
_WED = re.compile(
    rf"{_START}{_NAME} and I (?:are|'re|have|'ve)? ?{_SOON}(?P<how>(?:got|been|are|getting) married|got engaged|"
    r"are engaged|'re engaged|getting engaged|tied the knot|been together|been dating|been seeing each other|"
    rf"are dating|'re dating|moved in together){_DONE}", _I)
# "Met a lovely woman at my cousin's wedding, Efua." then "We've been on three dates." in the same message
_MET = re.compile(rf"{_START}(?:I )?{_SOON}met (?:a|an|this|someone|somebody)\b[^.!?]*?,? (?:(?:her|his|their) "
                  rf"name(?:'s| is) |(?:she's|he's|they're) called |called |named )?{_NAME}(?=\s*(?:[.!;,]|$))", _I)
_DATES = re.compile(r"\bwe(?:'ve| have) (?:been on|gone on|had) (?:a few|a couple of|some|two|three|four|five|"
                    r"several|\d+) dates\b|\bwe(?:'re| are) (?:dating|seeing each other|going out|together)\b|"
                    r"\bwe(?:'ve| have) been (?:dating|seeing each other|going out)\b", _I)
_DATES_WITH = re.compile(rf"{_START}I(?:'ve| have) (?:now )?been on (?:a few|a couple of|some|two|three|four|"
                         rf"five|several|\d+) dates with {_NAME}\b", _I)
_PUT_DOWN = re.compile(rf"{_START}(?:we|I) (?:had to|have had to|'ve had to) (?:put {_NAME} (?:down|to sleep)|"
                       rf"have {_NAME.replace('<n>', '<n2>')} put (?:down|to sleep))\b"
                       r"(?! for\b| early\b| again\b)(?!.*\b(?:naps?|bed|bedtime|cot|crib|the night)\b)", _I)

# "Bruno died yesterday.", "Ama passed away peacefully": a name alone, so the relation is whoever the user
# has called that (relation "", resolved against the records by ``memory/layers/people.py``).
_DIED = re.compile(rf"{_START}{_NAME} (?:sadly |finally |peacefully |suddenly )?(?:died|passed away|passed on|"
                   rf"was put down|was put to sleep|had to be put down){_DONE}", _I)


def life_events(text: str) -> list[PersonMention]:
    """The partners who came and went and the pets that died in one user message (see module docstring).
    A death said with a name alone has relation "": the one current record of that name is meant.
    """
    if is_not_the_user(text):
        return []
    found: list[PersonMention] = []
    sentences = statements(CAPTION.sub("", text))
    dating = any(_DATES.search(s) and not _NOT_NEWS.search(s) for s in sentences)
    for sentence in sentences:
        if _NOT_NEWS.search(sentence) or QUOTED.search(sentence):
            continue
        for m in _DIVORCE.finditer(sentence):
            found += _named(m, PersonMention(name=None, relation="ex_partner", ended=True))
        for m in _WED.finditer(sentence):
            found += _named(m, PersonMention(name=None, relation="partner", fact=_TIES[_tie(m["how"])]))
        for m in [*(_MET.finditer(sentence) if dating else ()), *_DATES_WITH.finditer(sentence)]:
            found += _named(m, PersonMention(name=None, relation="partner", fact=_TIES["dating"]))
        for m in _PUT_DOWN.finditer(sentence):
            found += _named(m, PersonMention(name=None, relation="pet", ended=True))
        for m in _DIED.finditer(sentence):
            found += _named(m, PersonMention(name=None, relation="", ended=True))
    return found


_TIES = {"married": "The user is married to {n}.", "engaged": "The user is engaged to {n}.",
         "dating": "The user is in a relationship with {n}."}


def _tie(how: str) -> str:
    """Which tie a wedding form says: "got married" married, "getting married" engaged, "been dating" dating."""
    how = how.lower()
    if "getting" in how or "engaged" in how:
        return "engaged"
    return "married" if "married" in how or "knot" in how else "dating"


def _named(m: re.Match[str], mention: PersonMention) -> list[PersonMention]:
    """The mention with the matched name (and in its fact), none when the word is no name ("Mum and I")."""
    name = m.groupdict().get("n2") or m["n"]
    if name.lower() in NOT_A_NAME or relation_of(name) is not None:
        return []
    fact = mention.fact.format(n=name) if mention.fact else None
    return [PersonMention(name=name, relation=mention.relation, ended=mention.ended, fact=fact)]
