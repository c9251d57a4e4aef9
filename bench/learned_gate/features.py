"""Cheap, deterministic features of one sentence for the learned disclosure gate.

The gate (``bench/learned_gate/gate.py``) must work in every configuration (tests run
with a hash embedding, the server may have no MiniLM), so it reads only what the
extractor already has: the sentence's words and the dependency parse blend
computes anyway (``parse.py``). Words give the topic and register ("my kids",
"yesterday", "check it out"); the parse gives the shape that decides whether a
statement lasts: who the subject is, tense and aspect, a modal, a negation, a
condition, the head verb. Every feature is a string; the model is a weight per
string, so scoring needs no numpy and no sklearn.
"""

from __future__ import annotations

import re

from memory.write_policy.parse import Clause, Sentence
from memory.write_policy.parse_policy import RELATIVES
from memory.write_policy.parse_veto import OTHER_PEOPLE

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?|[!?]")
_NUMBER = re.compile(r"\d+")


def subject_kind(clause: Clause) -> str:
    """Who a clause is about: the user, a relation of the user, the listener, someone else, or nobody said."""
    head = clause.subject_head
    if head in ("i", "we"):
        return head
    if clause.subject_poss == "my":
        return "relative" if head in RELATIVES else "my-thing"
    if head in ("you", "u"):
        return "you"
    if head in RELATIVES or head in OTHER_PEOPLE:
        return "other-person"
    if not head:
        return "none"
    return "thing-" + (clause.subject_tag[:2] or "x")


def _clause_features(clause: Clause, position: str) -> list[str]:
    who = subject_kind(clause)
    aspect = "+".join(clause.aux) or "-"
    found = [
        f"{position}subj={who}", f"{position}tag={clause.tag}", f"{position}subj+tag={who}|{clause.tag}",
        f"{position}aux={aspect}", f"{position}subj+aux+tag={who}|{aspect}|{clause.tag}",
        f"{position}lemma={clause.lemma}", f"{position}subj+lemma={who}|{clause.lemma}",
        f"{position}dep={clause.dep}", f"{position}comp={clause.complement_tag or '-'}",
    ]
    for flag in ("modal", "negated", "reported", "has_clausal_object"):
        if getattr(clause, flag):
            found.append(f"{position}{flag}|{who}")
    if clause.marker:
        found.append(f"{position}marker={clause.marker}")
    found.extend(f"{position}obj={o}" for o in clause.objects[:3])
    return found


def words(text: str) -> list[str]:
    """Lower-case tokens, numbers folded to one token ("29" and "1988" say the same kind of thing)."""
    return [_NUMBER.sub("0", w) for w in _WORD.findall(text.lower())]


def features(text: str, parsed: Sentence | None) -> list[str]:
    """The distinct features of one sentence (its words, and its parse when there is one)."""
    tokens = ["<s>", *words(text), "</s>"]
    found = [f"w={w}" for w in tokens[1:-1]]
    found += [f"b={a}_{b}" for a, b in zip(tokens, tokens[1:])]
    found.append(f"len={min(len(tokens) - 2, 30) // 5}")
    if parsed is not None:
        found += [f"s:question={parsed.question}", f"s:conditional={parsed.conditional}",
                  f"s:subjectless={parsed.subjectless}", f"s:first={parsed.first_tag}",
                  f"s:clauses={min(len(parsed.clauses), 4)}"]
        for i, clause in enumerate(parsed.clauses):
            found += _clause_features(clause, "c:")
            if i == 0:
                found += _clause_features(clause, "c0:")
    return sorted(set(found))
