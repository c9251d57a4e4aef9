"""The parse's veto on the rules' loose facts: one-offs, hedges, questions, other people.

The rules' loose facts ("The user loves ...", a disclosure cue) are read off the
surface; the parse shows when the clause they came from is a past event, a
hedge, a question, a supposition or about someone else, whatever the words.
"""

from __future__ import annotations

from memory.write_policy.parse import Clause, Sentence
from memory.write_policy.parse_policy import FREQUENCY, LASTING_CHANGE, ONGOING, RELATIVES, lasting_complement
from memory.write_policy.patterns import DURATION

# What "I got ..." must be about to be lasting ("I got a temp job", "we got another cat"), not "I got some offers".
_LASTING_GETS = RELATIVES | {"job", "position", "degree", "diploma", "license", "licence", "married", "engaged",
                             "divorced", "cat", "dog"}
# Progressive forms of a project or role the user carries on ("I'm starting a dance studio"), unlike
# "I'm currently reading ..." or "I'm having trouble ...".
_ONGOING_PROJECTS = ONGOING | {"expect", "start", "offer", "build", "create", "open", "volunteer", "mentor", "coach",
                               "expand", "prep", "prepare", "develop", "grow"}
# People who are not the user's relations: what they do is not the user's fact ("my boss is a micromanager").
OTHER_PEOPLE = set("neighbour neighbor friend friends boss colleague colleagues coworker coworkers roommate flatmate "
                   "housemate landlord landlady teacher doctor therapist manager classmate classmates".split())

_ANYONE = {"everyone", "everybody", "someone", "somebody", "nobody", "anyone", "anybody", "people"}
_IN_VIEW = {"the", "this", "that", "these", "those"}


def doubtful(clause: Clause, category: str = "other") -> bool:
    """Whether a rule's loose fact read from this clause is a one-off, a hedge or not about the user.

    Looser than what ``clause_facts`` proposes: the rules' own loose facts keep the
    benefit of the doubt unless the parse shows the user's past event ("I found a
    great piece for my store") or a hedge ("I might ..."). An identity or a goal
    names something lasting even in a past or ongoing clause ("I made it to show my
    journey as a transgender woman"), so tense does not veto those.
    """
    if clause.modal and "can" not in clause.aux:  # an ability lasts: "I can't stand ...", "I can swim"
        return True
    mine = clause.subject_head in ("i", "we")
    timeless = category in ("identity", "goal")
    past = clause.tag == "VBD" and "have" not in clause.aux and clause.lemma not in LASTING_CHANGE
    if mine and not timeless and past:
        return not (clause.lemma == "get" and set(clause.objects + tuple(clause.text.lower().split())) & _LASTING_GETS)
    habitual = DURATION.search(clause.full_text) or FREQUENCY.search(clause.full_text)  # "each day", "for years"
    if mine and not timeless and clause.tag == "VBG" and "be" in clause.aux and not habitual:
        return clause.lemma not in _ONGOING_PROJECTS  # "I've been doing some promotion": a stretch of work
    if clause.subject_head in RELATIVES and clause.lemma == "be" and not lasting_complement(clause):
        return True  # "my kids are so excited": a passing state of a relation
    if category == "preference" and clause.subject_det in _IN_VIEW:
        return True  # "The mural is important to me": a thing in view, not a lasting taste
    return clause.subject_head in OTHER_PEOPLE or clause.subject_head in _ANYONE


def uncertain(sentence: Sentence) -> bool:
    """A sentence that asks or supposes: nothing in it is a fact, whatever a rule matched."""
    return sentence.question or sentence.conditional
