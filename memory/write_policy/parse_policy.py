"""Which parsed clauses are lasting facts about the user or the user's relations (the proposer).

The rules in ``patterns.py`` list phrasings; people keep finding new ones. This
policy works on the parse instead (``parse.py``), so it judges the *shape* of a
clause, whatever its words:

- who: "I"/"we" (the user), "my <relative>" (the user's relation, stored as a
  family fact, never in the user's own slots), anyone else (nothing);
- when: present simple ("I teach maths") and ongoing states ("I've been
  learning piano for a year") last; a past event ("I went ...") does not;
- how sure: a modal ("I'd", "might"), an "if", a question or a negation stores
  nothing;
- what: a durable verb class with a real object, not one pointing at the
  conversation ("I love it", "I love how you ...").

Whatever it proposes is the user's own clause in the third person, so grounding
holds by construction. ``parse_veto.py`` judges the rules' own facts with the same
parse, ``parse_readings.py`` hands the rules the clauses they can read.
"""

from __future__ import annotations

import re

from memory.words import relatives
from memory.write_policy.base import CandidateFact
from memory.write_policy.disclosure import CLAUSE_TRAP
from memory.write_policy.parse import Clause, Sentence
from memory.write_policy.patterns import DEICTIC_OBJECT, DURATION, SHORT_STAY, TRANSIENT
from memory.write_policy.person import third_person

# Verbs whose present simple describes a lasting taste, habit, skill or situation, by category.
SELF_VERBS: dict[str, str] = {
    **dict.fromkeys("love enjoy like prefer hate dislike adore detest".split(), "preference"),
    **dict.fromkeys("live".split(), "location"),
    **dict.fromkeys("work teach coach mentor tutor manage".split(), "work"),
    **dict.fromkeys("speak".split(), "language"),
    **dict.fromkeys(
        "play collect volunteer practise practice swim cycle hike climb knit crochet sew paint draw sing dance cook "
        "bake read write study learn train own ride drive follow support use attend garden meditate code program "
        "surf ski skate fish foster raise grow brew lift box row jog run walk do go listen watch eat drink "
        "spend".split(),
        "activity"),
}
# Verbs that need no object to say something lasting ("I knit a lot", "I run every morning").
INTRANSITIVE = set("swim cycle hike climb knit crochet sew paint draw sing dance cook bake read write garden meditate "
                   "surf ski skate fish jog run walk lift box row".split())
ONGOING = {"live", "work", "study", "learn", "train", "teach"}  # "I'm living in ...", "I'm studying law"
RELATIVES = set(relatives("parse"))  # memory/words.toml [relatives]
RELATION_VERBS = {"be", "live", "work", "call", "name", "have", "study", "teach", "speak", "go", "play", "love",
                  "own", "attend", "turn", "start", "move", "marry", "retire", "graduate"}
# Past-tense verbs that report a lasting change ("I moved to Lisbon", "I started my own store").
LASTING_CHANGE = set("move relocate grow bear marry become adopt retire quit leave lose start begin take join switch "
                     "convert graduate open settle diagnose cut give stop".split())
_CONDITIONAL_MARKS = {"if", "unless", "when", "whenever", "once", "until", "whether", "till"}
EMPTY_OBJECTS = {"it", "that", "this", "these", "those", "you", "them", "they", "him", "her", "he", "she", "we",
                  "us", "me", "myself", "what", "thing", "things",
                  "stuff", "one", "something", "anything", "everything", "idea", "time"}
_NATIONALITY = (r"(?-i:[A-Z])[a-z]+(?:ish|ian|ese|an|ch|i)|(?i:polish|french|german|dutch|irish|welsh|scottish|english|"
                r"spanish|italian|swedish|danish|finnish|norwegian|greek|turkish|russian|ukrainian|czech|hungarian|"
                r"portuguese|romanian|japanese|chinese|korean|vietnamese|thai|indian|mexican|brazilian|nigerian|"
                r"kenyan|filipino|canadian|american|australian)|(?i:muslim|christian|catholic|protestant|jewish|hindu|"
                r"buddhist|sikh|atheist|agnostic|mormon|quaker)")
FREQUENCY = re.compile(r"\b(?:a lot|every \w+|each \w+|daily|weekly|regularly|often|usually|always|most \w+|"
                        r"on (?:weekends|\w+days)|(?:once|twice|\w+ times) a \w+)\b", re.IGNORECASE)


def clause_facts(sentence: Sentence) -> list[CandidateFact]:
    """Loose facts for the clauses of ``sentence`` that state something lasting."""
    if sentence.question or sentence.conditional:
        return []
    facts: list[CandidateFact] = []
    for clause in sentence.clauses:
        if clause.reported:
            continue
        if clause.subject_poss == "my":
            fact = _relation_fact(clause)
        else:
            fact = _self_fact(clause) or _described_fact(clause)
        if fact is not None:
            facts.append(fact)
    return facts


def settled(clause: Clause) -> bool:
    """Not hedged, not negated, not subordinate to a condition, not a one-off in time."""
    return not (clause.modal or clause.negated or clause.marker in _CONDITIONAL_MARKS
                or TRANSIENT.search(clause.text) or CLAUSE_TRAP.search(clause.text))


def _self_fact(clause: Clause) -> CandidateFact | None:
    head = clause.subject_head
    dropped = not clause.subject and clause.dep == "ROOT" and clause.lemma in ("live", "work") and bool(clause.objects)
    if not (head in ("i", "we") or dropped) or not settled(clause):
        return None
    category = _self_category(clause)
    if category is None:
        return None
    text = clause.text if not dropped else "I " + clause.text[:1].lower() + clause.text[1:]
    if head == "we":
        text = "I say " + text[:1].lower() + text[1:]
    return CandidateFact(text=third_person(text), category=category, value=clause.text, importance=5)


# Verbs by which a pastime says what it does for the user: "Painting helps me explore my identity".
_DOES_FOR_ME = {"help", "make", "keep", "let", "bring", "give", "calm", "relax", "ground", "inspire", "motivate"}


def _described_fact(clause: Clause) -> CandidateFact | None:
    """A pastime or thing described by what it is or does for the user, in the present.

    "Pottery is a huge part of my life", "Dance is my stress fix", "Painting helps
    me explore who I am": the subject is a thing or an activity, not a person,
    and the clause ties it to the user ("my ...", "me").
    """
    if not clause.subject or clause.subject_tag not in ("NN", "NNS", "NNP", "VBG") or clause.subject_head in RELATIVES:
        return None
    perfect = clause.tag == "VBN" and clause.aux == ("have",) and bool(DURATION.search(clause.text))
    present = clause.tag in ("VBZ", "VBP") or clause.tag == "VB" and clause.dep == "ROOT"  # base form: "X and Y let me"
    if not (present and not clause.aux or perfect) or not settled(clause) or clause.reported:
        return None  # present, or true up to now: "Photography has been my hobby since college"
    if in_view(clause.text):
        return None  # "The colours make me feel calm": something in view, not a pastime
    if clause.lemma == "be" and re.search(r"\bmy\b", clause.complement.lower()):
        return CandidateFact(text=third_person(clause.text), category="preference", value=clause.text)
    mine = re.search(r"\bm[ey]\b", clause.full_text.lower())  # "me" or "my" as a word
    if clause.lemma in _DOES_FOR_ME and mine and not TRANSIENT.search(clause.full_text):
        return CandidateFact(text=third_person(clause.full_text), category="activity", value=clause.full_text)
    return None


def _self_category(clause: Clause) -> str | None:
    """The category of a lasting first-person clause, or None when it is not one."""
    have_got = clause.lemma == "get" and clause.tag == "VBN" and clause.aux == ("have",)  # "we've got a pup"
    if clause.lemma in ("have", "own") or have_got:
        named = re.search(r"\b(?:called|named)\b", clause.text)
        present = _settled_present(clause) or have_got
        return "family" if present and (named or set(clause.objects) & RELATIVES) else None
    if clause.lemma in ("adopt", "foster") and clause.tag in ("VBD", "VBP", "VBZ") and not clause.aux:
        return "family" if _real_objects(clause) else None  # "we adopted a rescue greyhound"
    if clause.lemma == "be" and re.search(r"\b(?:fan|lover|enthusiast|buff|nerd|geek)\b", clause.complement):
        return "preference" if clause.tag in ("VBP", "VBZ") and not clause.aux else None  # "a huge football fan"
    if clause.lemma == "be" and re.fullmatch(_NATIONALITY, clause.complement) and not clause.aux:
        return "identity"  # "I'm Norwegian"
    if clause.lemma == "be":
        into = clause.tag in ("VBP", "VBZ") and not clause.aux and "into" in clause.text.lower().split()
        return "preference" if into and _real_objects(clause) else None
    category = SELF_VERBS.get(clause.lemma)
    if category is None or clause.has_clausal_object:
        return None
    if not _lasting_aspect(clause):
        return None
    objects = _real_objects(clause)
    if not objects and not (clause.lemma in INTRANSITIVE and FREQUENCY.search(clause.text)):
        return None
    if clause.lemma in ("go", "do", "spend") and not (FREQUENCY.search(clause.text) or "have" in clause.aux):
        return None  # "I go by my middle name", "I do my best"; "I go climbing twice a week" is a habit
    if category == "preference" and (DEICTIC_OBJECT.match(_after_verb(clause)) or in_view(_after_verb(clause))):
        return None
    return category


def _lasting_aspect(clause: Clause) -> bool:
    """Present simple, an ongoing state, or a duration up to now; never a past event."""
    if clause.tag in ("VBP", "VBZ"):
        return not clause.aux
    if clause.tag == "VB":
        return clause.aux in ((), ("do",)) and clause.dep == "ROOT" and not clause.subject == ""
    if clause.tag == "VBG" and "be" in clause.aux:  # not "I'm living in Paris for a few days" (SHORT_STAY)
        ongoing = clause.lemma in ONGOING and not SHORT_STAY.search(clause.text)
        return ongoing or "have" in clause.aux and bool(DURATION.search(clause.text))
    if clause.tag == "VBN" and "have" in clause.aux:
        return bool(DURATION.search(clause.text))
    return False


def _settled_present(clause: Clause) -> bool:
    return clause.tag in ("VBP", "VBZ") and not clause.aux


def _relation_fact(clause: Clause) -> CandidateFact | None:
    """'My wife is a doctor', 'my parents live in Toronto': a fact about the user's relation."""
    if clause.subject_head not in RELATIVES or clause.lemma not in RELATION_VERBS or not settled(clause):
        return None
    present = clause.tag in ("VBP", "VBZ") or clause.tag == "VBN" and clause.lemma in ("call", "name") or (
        clause.tag == "VBD" and clause.lemma in LASTING_CHANGE) or (  # "my son started university"
        clause.lemma == "turn" and any(o[:1].isdigit() for o in clause.objects))  # "my daughter just turned 9"
    if not present or not _real_objects(clause):
        return None
    origin = re.match(r"(?:originally )?(?:from|in) (?-i:[A-Z])", _after_verb(clause))  # "my wife is from Kenya"
    if clause.lemma == "be" and not (lasting_complement(clause) or origin):
        return None  # "my sister is sick" is a state; "my wife is a doctor", "my kids are 12" last
    text = _with_relation(clause)
    return CandidateFact(text=third_person(text), category="family", value=text, importance=5)


def _with_relation(clause: Clause) -> str:
    """The clause with its relation spelled out: in "My brother lives in Denver and works as a pilot"
    the second clause shares the subject, and "works as a pilot" alone would read as the user's job.
    """
    if re.match(rf"(?:my\s+)?{re.escape(clause.subject)}\b", clause.text, re.IGNORECASE):
        return clause.text
    return f"My {clause.subject} {clause.text}"


def in_view(obj: str) -> bool:
    """'the self-acceptance theme', 'all the yellow leaves': a particular thing in view, not a lasting taste."""
    return bool(re.match(r"(?:\w+ )?(?:all )?(?:the|these|those|this|that|your|his|her|their) ", obj.lower()))


def lasting_complement(clause: Clause) -> bool:
    """'a doctor', 'retired teachers', '12', 'Turkish' describe a relation lastingly; 'so excited', 'sick' do not."""
    return clause.complement_tag in ("NN", "NNS", "NNP", "CD") or bool(
        re.match(r"(?:an?|the|\d+)\b|[A-Z]", clause.complement))


def _real_objects(clause: Clause) -> list[str]:
    return [o for o in clause.objects if o not in EMPTY_OBJECTS and o.isalnum() or o[:1].isdigit()]


def _after_verb(clause: Clause) -> str:
    """The clause's words after its verb (roughly: its complement)."""
    forms = r"(?:is|are|am|was|were|'s|'m|'re)" if clause.lemma == "be" else re.escape(clause.lemma[:4]) + r"\w*"
    parts = re.split(rf"\b{forms}\b", clause.text, maxsplit=1, flags=re.IGNORECASE)
    return parts[-1].strip() if len(parts) > 1 else " ".join(clause.text.split()[2:])
