"""First-person readings of parsed clauses, for the slot patterns to read alone.

The slot patterns (``patterns.py``) match a whole clause in plain form ("I'm
vegan", "I live in Lisbon"). Chat rarely says it that way; the parse cuts the
clause out, spells out a shared subject and puts a duration into the present.
"""

from __future__ import annotations

import re

from memory.write_policy.parse import Clause, Sentence
from memory.write_policy.parse_policy import settled
from memory.write_policy.patterns import SHORT_STAY

DURATION_PHRASE = re.compile(r"\s+(?:for|since)\b.*$", re.IGNORECASE)
_MORE = re.compile(r",|\s+(?:so|because|but|and|with|since|for)\s+", re.IGNORECASE)
_HEDGE_FREE = re.compile(r"\b(?:recently|currently|now|also|happily|still|just)\s+", re.IGNORECASE)


def _first_person_readings(clause: Clause) -> list[str]:
    """The clause as the slot patterns expect it: subject spelled out, one complement, present tense.

    "moved to Vancouver" (subject shared with an earlier verb) -> "I moved to Vancouver";
    "I'm 52 and recently widowed" -> "I'm widowed" (a participle sharing the copula);
    "I'm vegan, no dairy" -> "I'm vegan"; "I'm 52 and recently widowed" -> "I'm widowed";
    "I've lived in Seoul for six years" -> "I live in Seoul"; "I have been a nurse for 15 years"
    -> "I'm a nurse".
    """
    text = clause.text.rsplit(": ", 1)[-1]  # "quick context: I'm a chemistry teacher"
    subject = clause.subject
    readings = []
    if not text.lower().startswith(subject.lower()):
        if clause.dep == "conj" and clause.tag in ("VBN", "JJ", "VBG") and not clause.aux and subject.lower() == "i":
            readings.append(f"I'm {_HEDGE_FREE.sub('', text)}")  # "I'm 52 and recently widowed"
        text = f"{subject} {text}"
    readings += [text, *_cuts(text)]
    if clause.lemma == "be" and clause.tag in ("VBP", "VBZ") and " and " in clause.complement:  # "I'm tall and blond"
        readings += [f"I'm {_HEDGE_FREE.sub('', part.strip())}" for part in clause.complement.split(" and ")]
    if clause.tag == "VBN" and "have" in clause.aux and DURATION_PHRASE.search(text):
        present = "I'm" if clause.lemma == "be" and subject.lower() == "i" else f"{subject} {clause.lemma}"
        rest = re.sub(r"^\w+(?:'ve|\s+have)\s+(?:always\s+)?(?:been\s+)?\w+\s*", "", text.split(",")[0])
        if clause.lemma == "be":
            rest = re.sub(r"^\w+(?:'ve|\s+have)\s+been\s*", "", text.split(",")[0])
        readings.append(DURATION_PHRASE.sub("", f"{present} {rest}").strip())
    return list(dict.fromkeys(r for r in readings if r))


def _cuts(text: str) -> list[str]:
    """The clause's first part alone ("I'm halal so no pork", "married with kids"), unless that cuts off a
    short stay in it: "we moved to Leeds for a week" is a visit, "we moved to Leeds" a home (``SHORT_STAY``).
    """
    first = text.split(",")[0]
    stay = SHORT_STAY.search(first)
    return [cut for cut in (first, _MORE.split(text)[0]) if stay is None or stay.group() in cut]


def rule_readings(sentence: Sentence) -> list[str]:
    """First-person readings of the sentence's settled clauses, for the slot rules to read alone.

    "I'm engaged, the wedding's in May" -> "I'm engaged"; "Dutch is my native
    language" -> "my native language is Dutch"; the fragment "originally from
    Cork" -> "I'm originally from Cork". Only keyed rule facts are taken from them.
    """
    if sentence.question or sentence.conditional:
        return []
    if sentence.subjectless:
        text = sentence.text.strip()
        if sentence.first_tag in ("JJ", "RB", "IN", "NN", "CD", "VBG"):
            return [f"I am {text[:1].lower()}{text[1:]}"]
        if re.match(r"(?:live|work|living|working)\s+(?:in|at|as|for)\b", text, re.IGNORECASE):
            return [f"I {text[:1].lower()}{text[1:]}"]
        return []
    readings = []
    for clause in sentence.clauses:
        if not settled(clause) or clause.reported:
            continue
        if clause.subject_head in ("i", "we"):
            readings.extend(_first_person_readings(clause))
        elif clause.lemma == "be" and clause.complement.lower().startswith("my ") and clause.subject:
            readings.append(f"{clause.complement.split(',')[0]} is {clause.subject}")
    return readings
