"""Figures of speech that end a state, brought to the plain forms ``ending_forms`` reads.

"Netflix is history", "said goodbye to the night shifts", "swapped meat for lentils", "went from
vegetarian to vegan", "Sarah and I are done", "graduated from Leeds uni",
"finished my apprenticeship", "I used to live in Leeds": each says what "I gave up …", "I'm not …
anymore", "I'm no longer with …" or "I don't live in … anymore" says, in words a rule for those
would miss. They run with ``ending_idioms`` before ``ending_forms.SENTENCE_FORMS``.

Each needs the speaker and a lasting thing: "the rest is history", "said goodbye to my aunt at
the airport", "swapped seats with Jo", "we're done here" and "I used to live in Leeds and still
visit" end nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from memory.write_policy.patterns import OCCUPATIONS

_I = re.IGNORECASE
# Words that never name the user's lasting thing: "the rest is history", "that's history".
_NOT_A_THING = (r"(?:it|that|this|which|what|the rest|rest|he|she|they|everything|all|the past|history|the old days|"
                r"the worst|worst|the hard(?:est)? part|hard(?:est)? part|the best|best|pain|storm|surgery|operation|"
                r"exams?|interview|deadline|winter|summer|week|day|month|year|"
                r"today|tonight|the party|the match|the game|the meeting)\b")
# Things one eats, drinks, smokes or uses, and swaps for another: "swapped meat for lentils".
_CONSUMED = (r"(?:meat|red meat|dairy|cow'?s milk|milk|butter|cheese|sugar|coffee|tea|caffeine|alcohol|booze|beer|"
             r"wine|lager|spirits|soda|coke|fizzy drinks|energy drinks|cigarettes|cigs|fags|tobacco|vapes?|"
             r"vaping|smoking|drinking|junk food|takeaways|white bread|carbs|gluten|eggs|my car|the car)")
# A diet or a creed one goes from: "went from vegetarian to vegan".
_DIET = (r"(?:vegetarian|vegan|pescatarian|keto|paleo|carnivore|omnivore|catholic|muslim|christian|jewish|"
         r"hindu|buddhist|atheist|mormon|protestant|evangelical)")
_STUDY = (r"(?:apprenticeship|degree|course|phd|masters|master's|bachelors|bachelor's|training|residency|"
          r"internship|placement|contract|traineeship|studies|chemo|chemotherapy|rehab|probation)")
_STILL = r"(?![^.!?]*\b(?:still|again|now and then|sometimes)\b)"
# A "now" or an ending of its own later in the sentence: left to the rules for a past set against now.
_NOT_CONTRASTED = r"(?![^.!?]*\b(?:now|nowadays|these days|no longer|anymore|any more)\b)"
# A couple's ending said as done: "Sarah and I are done", "me and Tom are through".
_PARTNER = r"(?:girlfriend|boyfriend|partner|wife|husband|fianc[eé]e?)"
_NAME = r"(?-i:[A-Z][a-zà-ÿ]+)"
# Two things dropped at once, and the words that make a plain "cut" an ending: "cut the cola and the bread totally".
# Not a person, and not a second verb: "dropped the kids and went home", "quit the app and restarted it".
_TWO = (r"(?:the |my )?(?!(?:kids|children|boys|girls|baby|son|daughter|wife|husband|partner|mum|mom|dad|"
        r"friends?)\b)(?P<a>[\w-]+(?: [\w-]+)?) (?:and|n|&) (?:the |my )?(?!\w+ed\b|\w+ (?:it|them|this|that|"
        r"him|her|me|up|out|over)\b|(?:went|came|got|made|took|had|left|ran|drove|saw|sat|fell|felt|kept|put|"
        r"said|told|bought|brought|caught|found|gave|held|lost|met|paid|sent|spent|stood|thought|won|wrote|ate|"
        r"drank|slept|began|did|was|am|is)\b)")
_FOR_GOOD = r" (?:totally|completely|entirely|for good|altogether|out)\b"



def _divorce(m: re.Match[str]) -> str:
    """A divorce: "I'm divorced" supersedes the status "married", and the partner is one no longer."""
    who = f"my {m['r'] or m['q']}" if m["r"] or m["q"] else m["n"] or m["m"]
    return "I'm divorced" + (f", and I'm no longer with {who}," if who else "")


# Things one sells without ending a state: "I sold my tickets", "sold my old books".
_SOLD_IN_PASSING = {"ticket", "tickets", "book", "books", "clothes", "stuff", "things", "shares", "stock", "soul",
                    "vote", "photos", "art", "paintings", "cakes", "plants", "records", "games", "toys", "furniture"}


def _sold(m: re.Match[str]) -> str:
    """"I sold my Xbox to a lad": a lasting thing of the user's, not "my tickets" or "my old books"."""
    return m[0] if m["n"].lower() in _SOLD_IN_PASSING else f"I don't have {m['x']} anymore,"


FIGURES: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    # "My husband and I divorced", "Tom and I got divorced", "I divorced Tom", "I'm divorced now"
    (re.compile(rf"\b(?:(?:(?:me and )?my (?P<r>{_PARTNER}) and I|(?P<n>{_NAME}) and I|I) (?:have |'ve )?(?:got |"
                rf"finally |officially |recently |just )*divorced(?: (?:my (?P<q>{_PARTNER})|(?P<m>{_NAME})))?|"
                r"I(?:'m| am) (?:now |recently |officially |finally )*divorced)\b(?! (?:parents?|mums?|moms?|dads?|"
                r"friends?|couples?|people|men|women)\b)", _I), _divorce),
    # "Netflix is history", "my gym membership is officially history", "rodeo's behind me", "the allotment
    # is finished for me"
    (re.compile(rf"^(?:(?:my|our|the) )?(?!{_NOT_A_THING})(?P<x>[\w'-]+(?: [\w'-]+){{0,2}}?)(?<!days)(?<!phase)"
                r"(?<!era)(?<!stint)(?: is| are|'s) (?:now |officially |finally |long |well |all )?"
                r"(?:history|behind me|(?:finished|done) for me)\b", _I), r"I gave up \g<x>"),
    # "I let my gym membership lapse", "let the deer lease go this year"
    (re.compile(rf"(?:^|\b(?:I|we)(?:'ve| have)? )(?:just |finally )?let (?:my |our |the )?(?!{_NOT_A_THING})"
                r"(?P<x>[\w+'-]+(?: [\w+'-]+){0,2}?) (?:lapse|expire|run out|go)\b(?!\s+(?:to|out|home|on|off|in|"
                r"with|for|of|by|and)\b)", _I), r"I don't have my \g<x> anymore,"),
    # Two things given up at once: "ditched the energy drinks and the pot noodles"
    (re.compile(rf"(?:\bI(?:'ve| have)? |^)(?:ditched|binned|dropped|kicked|quit|gave up|given up|cut out) "
                rf"{_TWO}(?=[\w-]+(?: [\w-]+)?(?:{_FOR_GOOD}|\s*(?:[,.;!]|$)))", _I),
     r"I gave up \g<a>, and I gave up "),
    (re.compile(rf"(?:\bI(?:'ve| have)? |^)cut {_TWO}(?=[\w-]+(?: [\w-]+)?{_FOR_GOOD})", _I),
     r"I gave up \g<a>, and I gave up "),
    (re.compile(r"(?:^|\bI(?:'ve| have)? )cut (?:the |my |out )?(?P<x>[\w-]+(?: [\w-]+)?) (?:totally|completely|"
                r"entirely|for good|altogether|out of my (?:diet|life)|from my diet)\b", _I), r"I gave up \g<x>,"),
    # "sold my xbox to a boy in my year": the parse misses it when the message is lower case
    (re.compile(r"(?:^|\b(?:I|we)(?:'ve| have)? )(?:just |finally )?sold (?P<x>(?:my|our) (?:[\w-]+ ){0,2}?"
                r"(?P<n>[\w-]+)(?: in (?-i:[A-Z])[\w-]+)?)(?= (?:to|for|last|in|on|a|an|because|so|and)\b|"
                r"\s*(?:[,.;!]|$))", _I), _sold),
    # A learner's past and "more" for "anymore": "I leaved the hospital", "I don't make more night shifts"
    (re.compile(r"\bI leaved\b", _I), "I left"),
    (re.compile(r"\bI (?:don'?t|do not) (?P<x>(?!(?:need|want|have|know|like|get|see|care|mind)\b)[a-z]+ [\w -]+?) "
                r"more(?=\s*(?:[,.;!]|$))", _I), r"I don't \g<x> anymore"),
    # "Said goodbye to the night shifts", "I bid farewell to sugar": a thing, never a person or a moment.
    (re.compile(r"(?:^|\b(?:I|we)(?:'ve| have)? )(?:finally |officially )?(?:said|bid|bade|waved) (?:goodbye|"
                r"good-bye|bye|farewell|adios|adieu) to (?:the |my |our )?(?P<x>(?-i:[a-z])[\w-]+(?: [\w-]+)?)"
                r"(?![\w-]*\s+(?:at|on|in the|outside|before|after)\b)(?<!\bmum)(?<!\bmom)(?<!\bdad)", _I),
     r"I gave up \g<x>"),
    # "swapped meat for lentils", "traded the car for a bike"
    (re.compile(rf"(?:^|\b(?:I|we)(?:'ve| have)? )(?:swapped|traded|exchanged|replaced|ditched) (?:out )?(?P<x"
                rf">{_CONSUMED})"
                r" (?:for|with) ", _I), r"I gave up \g<x>, for "),
    # "went from vegetarian to vegan", "switched from Vodafone to EE", "converted from Catholic to …"
    (re.compile(rf"\b(?:I|we)(?:'ve| have)? (?:went|gone|switched|changed|converted|transitioned) from "
                rf"(?P<x>{_DIET}) (?:to|over to)\b", _I), r"I'm not \g<x> anymore, now"),
    (re.compile(r"\b(?:I|we)(?:'ve| have)? (?:switched|changed) (?:over )?from (?P<x>(?-i:[A-Z])[\w&-]+(?: "
                r"(?-i:[A-Z])[\w&-]+)?) (?:to|over to)\b", _I), r"I'm no longer with \g<x>, switched to"),
    # "Sarah and I are done", "me and my boyfriend are through"
    (re.compile(rf"(?:^|(?<=[,;] )|\b(?:and|but|so) )(?:(?:me and )?my (?P<r>{_PARTNER}) and I|me and my "
                rf"(?P<q>{_PARTNER})|(?P<n>{_NAME}) and I|me and (?P<m>{_NAME})) (?:are|'re) (?:so |officially |"
                r"finally )?(?:done|finished|through|over)\b(?!\s+(?:with|for|here|eating|talking|now\?))"),
     r"I'm no longer with \g<r>\g<q>\g<n>\g<m>"),
    # "I graduated from Leeds uni", "finished my apprenticeship at Rolls-Royce"
    (re.compile(r"\bI(?:'ve| have)? (?:just |finally |recently )?graduated from (?P<x>(?:the )?(?-i:[A-Z])[\w-]+"
                r"(?: (?:uni|university|college|school|(?-i:[A-Z])[\w-]+))*)", _I), r"I'm no longer at \g<x>"),
    (re.compile(rf"(?:^|\bI(?:'ve| have)? )(?:just |finally |recently )?(?:finished|completed|wrapped up) (?P<x>my "
                rf"(?:[\w-]+ )?{_STUDY})\b(?!\s+(?:early|for|tonight|today|this)\b){_NOT_CONTRASTED}", _I),
     r"I left \g<x>"),
    # "I used to be a teacher", "I used to live in Leeds", "I used to work at Google" (not "and still do")
    (re.compile(rf"(?:^|(?<=[,;] )|\b(?:and|but|so) )(?:I )?used to be (?P<x>an? (?:[\w-]+ )?(?:{OCCUPATIONS}))\b"
                rf"{_STILL}{_NOT_CONTRASTED}", _I), r"I stopped being \g<x>"),
    (re.compile(rf"(?:^|(?<=[,;] )|\b(?:and|but|so) )I used to (?P<v>live|work) (?P<p>in|at|for) "
                rf"(?P<x>(?-i:[A-Z])[\w-]+(?: (?-i:[A-Z])[\w-]+)*)(?=\s*(?:$|[,.;!]| (?:but|and|until|before|for|"
                rf"years|when)\b)){_STILL}{_NOT_CONTRASTED}", _I), r"I don't \g<v> \g<p> \g<x> anymore"),
)


def figurative_endings(sentence: str) -> str:
    """``sentence`` with its figures of speech for an ending in the plain forms."""
    for pattern, replacement in FIGURES:
        sentence = pattern.sub(replacement, sentence)
    return sentence
