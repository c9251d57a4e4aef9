"""Durable self-disclosure in everyday words, where no profile pattern applies.

People rarely say "I enjoy pottery"; they say "Pottery is a huge part of my life"
or "Guitar's mostly my thing". The slot patterns (``patterns.py``) cannot list
every such phrasing, so this module works one level up: a clause is kept as a
loose fact when it is about the speaker (first person), carries a *durability
cue* (a lasting taste, a habit's frequency, a duration, an identity, a goal, a
job) and no *trap cue* (a question, a hypothetical, a one-off time, someone
else as the subject). The fact is the clause itself in the third person, so
grounding always holds: nothing is stored that the user did not say.
"""

from __future__ import annotations

import re

from memory.write_policy.base import CandidateFact
from memory.write_policy.hypotheticals import SUPPOSING
from memory.write_policy.patterns import DURATION_SPAN
from memory.write_policy.people_words import PET_WORD
from memory.write_policy.person import third_person

_I = re.IGNORECASE
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|my|me|mine|myself|we|we're|we've|our)\b", _I)
_CLAUSE = re.compile(r",\s*|;\s*|\s+-+\s+|\s+—\s+|:\s+|\s+(?:but|because|'cause|cuz|while|though|although)\s+", _I)
_SECOND_PERSON_START = re.compile(r"^(?:you|your|you're|you've|u)\b", _I)

# A sentence with one of these is not about the speaker's real, lasting life.
SENTENCE_TRAP = re.compile(rf"\b(?:{SUPPOSING}|when i (?:retire|grow up|have|get|finish|move))\b", _I)
# A clause with one of these is a one-off, a plan, or someone else's view.
CLAUSE_TRAP = re.compile(
    r"\b(?:might|maybe|i'd|i would|i could|gonna|gotta|wanna|going to|will|i'll|we'll|can't wait|tell you|"
    r"today|tonight|tomorrow|yesterday|this (?:morning|week|weekend|month)|last (?:night|week|weekend|month|year|"
    r"summer|fri\w*|mon\w*|tue\w*|wed\w*|thu\w*|sat\w*|sun\w*)|next (?:week|month|year|fri\w*|time)|"
    r"(?:a few|two|three) (?:days|weeks) ago|just (?:got|signed|finished|made|did|bought)|right now|rn|"
    r"at the moment|here's|check (?:out|it)|in the (?:next|coming) (?:few )?\w+|"
    r"(?:it's|it has|it've) been (?:quite |such )?an? (?:\w+ )?(?:ride|journey|rollercoaster|struggle)|"
    r"this (?:pic|photo|one)|thinks?|said|says|told|you|your|you're)\b",
    _I,
)
_DEICTIC = re.compile(r"\b(?:love|enjoy|like|adore) (?:how|that|it|this|these|those|you|your|the way|seeing|"
                      r"hearing|to see|to hear|what)\b", _I)

# Durability cues, by category. Order matters: the first that fires names the category.
CUES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (category, re.compile(pattern, _I))
    for category, pattern in (
        ("identity", r"\b(?:i'm|i am|as) an? (?:trans(?:gender)?|queer|gay|lesbian|bi(?:sexual)?|nonbinary|"
                     r"non-binary) \w+|\bmy (?:transition|home country|roots)\b|\bsince i started transitioning\b|"
                     r"\bmy (?:path|journey) as an? \w+"),
        ("goal", r"\bmy (?:goal|dream|plan|ambition) (?:is|was)\b|\bas a career\b|\bdetermined to \w+|"
                 r"\bi (?:want|hope|plan|intend) to (?:become|build|create|adopt|work|open|start|be an?|give|mentor|"
                 r"guide|go full-time)\b|\b(?:been|is) (?:a|my) dream\b|\bmy dream (?:business|job)\b|"
                 r"\bexcited to (?:guide|mentor|teach|help)\b|\bgoing full-time\b|\bthinking of working\b|"
                 r"\bcounseling\b.*\bthe way to go\b|\btowards becoming\b"),
        ("work", r"\b(?:lost|quit|left) my job\b|\blosing my job\b|\bmy (?:own |online |new )?(?:clothing |clothes |"
                 r"dance )?(?:business|biz|store|shop|studio|company|restaurant|practice|startup)\b|"
                 r"\b(?:temp|part-time|full-time|day) job\b|\bi(?:'m| am) (?:offering|running|teaching)\b|"
                 r"\bmy (?:own |online |new |clothing |clothes )+(?:store|shop|business)\b"),
        ("habit", r"\b(?:every|each) (?:day|morning|evening|night|week|weekend|month|year|summer|winter|sunday|"
                  r"monday|tuesday|wednesday|thursday|friday|saturday)\b|\b(?:twice|once|three times) a (?:day|week|"
                  r"month|year)\b|\bmost (?:days|weekends|mornings|evenings)\b|\bon (?:weekends|sundays|saturdays|"
                  r"mondays|fridays)\b|\bwe always\b|\bi always\b|\b(?:color|colour)-code\b"),
        ("activity", rf"\bi(?:'ve| have) been \w+ing\b.*{DURATION_SPAN}|\bi (?:started|began|took up) \w+ing\b|"
                     r"\bi (?:mentor|volunteer|coach|teach|paint|sculpt|knit|write|play the)\b|"
                     r"\b(?:huge|big|important|major|large) part of my life\b|\bmy (?:real )?muses?\b|"
                     r"\bbeen busy \w+ing\b|"
                     r"\bis mostly my thing\b|'s mostly my thing\b|\bjoined an? (?:new )?[\w ]*(?:group|club|team|"
                     r"choir|league|class)\b|\bwe love \w+ing\b|\bi (?:made|use) (?:it|art)\b"),
        ("preference", r"\b(?:passionate|crazy|mad) about\b|\bmy passion\b|\bmy (?:fave|favou?rite)\b|"
                       r"\bis my (?:fave|favou?rite|top pick)\b|\btop pick\b|\b(?:brings|gives) me (?:so much |such )?"
                       r"joy\b|\bmakes me (?:so |really )?happy\b|\b(?:is|are) (?:really |so )?important to me\b|"
                       r"\b(?:my )?love (?:of|for) \w+|\bcan't picture (?:my )?life without\b|\bbeen into\b|"
                       r"\bi'm (?:a )?(?:big|huge) fan of\b|\bi'm (?:really |very |quite )?keen on \w+|"
                       r"\bi'm obsessed with\b|\bwe (?:love|enjoy) \w+|"
                       r"\bi (?:really |absolutely )?(?:love|enjoy|adore) \w+|\bi loved \w+ing\b.*\bas a kid\b"),
        ("family", r"\bbeing an? (?:\w+ )?(?:mum|mom|dad|mother|father|parent|grandparent)\b|"
                   r"\b(?:lucky|blessed) to have my (?:husband|wife|partner|kids|children|family|friends)\b|"
                   rf"\b(?:{PET_WORD}) named \w+|\bmy (?:friends|family|mentors),? .*\bare my\b"),
    )
)


def clauses(sentence: str) -> list[str]:
    """Comma- and conjunction-separated parts of a sentence, trimmed."""
    return [c.strip(" .!") for c in _CLAUSE.split(sentence) if c and c.strip(" .!")]


def disclosure_fact(sentence: str) -> CandidateFact | None:
    """A loose fact for the first clause of ``sentence`` that discloses something lasting."""
    if sentence.rstrip().endswith("?") or SENTENCE_TRAP.search(sentence) or _SECOND_PERSON_START.match(sentence):
        return None
    for clause in clauses(sentence):
        if not _FIRST_PERSON.search(clause) or _DEICTIC.search(clause) or CLAUSE_TRAP.search(clause):
            continue
        for category, cue in CUES:
            if cue.search(clause):
                text = third_person(we_as_user(clause))
                return CandidateFact(text=text, category=category, value=clause, importance=5)
    return None


def we_as_user(clause: str) -> str:
    """'We love hiking' -> 'The user says we love hiking'.

    Naming who "we" are would invent; the rewrite only has to name the user.
    """
    if re.search(r"\b(?:i|i'm|i've|my|me)\b", clause, _I):
        return clause
    return "I say " + clause[:1].lower() + clause[1:]
