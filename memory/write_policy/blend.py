"""Rules and parse together: the rules fill profile slots, the parse generalises.

The rules are precise where they match but overfit their phrasings; the parse
policy (``parse_policy.py``) recognises lasting statements by their grammar.
Per sentence: a question or a supposition stores nothing, even where a rule
matched ("If I lived in Paris ..."); the rules' facts are kept; each clause the
parse finds lasting that no rule fact covers is added, keyed by the rules when
they can read that clause alone ("fwiw I'm living in Porto" -> location;
the patterns only, not the loose disclosure cues),
otherwise as the user's own words in the third person. The learned gate that was tried as a last
judge (off: it bought nothing on held-out text) runs from ``bench/learned_gate/extractor.py``
through ``read`` and ``blend_parsed``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from memory.text import content_words
from memory.write_policy.base import CandidateFact
from memory.write_policy.ending_parse_words import STILL_GOING
from memory.write_policy.parse import Sentence, parse
from memory.write_policy.parse_policy import clause_facts, in_view
from memory.write_policy.parse_readings import rule_readings
from memory.write_policy.parse_veto import doubtful, uncertain
from memory.write_policy.voices import labelled_field, with_subject

RuleReader = Callable[[str], list[CandidateFact]]


def blend(sentence: str, rule_facts: Sequence[CandidateFact], rules: RuleReader) -> list[CandidateFact]:
    """The facts of one sentence: ``rule_facts`` checked and completed by the parse (as they are without one)."""
    parsed = read(sentence)
    return list(rule_facts) if parsed is None else blend_parsed(sentence, parsed, rule_facts, rules)


def read(sentence: str) -> Sentence | None:
    """The sentence's parse as ``blend`` reads it, or None without a pipeline."""
    return parse(_cased(with_subject(sentence)))


def blend_parsed(sentence: str, parsed: Sentence, rule_facts: Sequence[CandidateFact],
                 rules: RuleReader) -> list[CandidateFact]:
    """``blend`` on a sentence already parsed (``read``); none for a question or a supposition."""
    if uncertain(parsed):
        return []
    kept = [f for f in rule_facts if f.key is not None or f.explicit or _ends(f) or not _doubtful(f, parsed)]
    field = labelled_field(sentence)
    for reading in [*([field] if field else []), *rule_readings(parsed)]:
        for fact in (f for f in rules(reading) if (f.key is not None or _ends(f) or not _doubtful(f, parsed))
                     and not (_ends(f) and STILL_GOING.search(sentence))):  # a reading cut off "for Lent"
            if fact.key is not None:  # a slot beats the loose fact that said the same ("a low FODMAP diet")
                kept = [old for old in kept if old.key is not None or old.explicit or not _covers(old, fact)]
            if not any(_covers(old, fact) for old in kept):
                kept.append(fact)
    fragment = rule_readings(parsed) if parsed.subjectless else []
    refreshed = [p for p in (parse(f) for f in fragment) if p is not None]  # "teaching English in Japan"
    for fact in [f for p in [parsed, *refreshed] for f in clause_facts(p)]:
        if any(_covers(old, fact) for old in kept):
            continue
        keyed = [f for f in rules(fact.value or "") if f.key and not any(_covers(old, f) for old in kept)]
        kept.extend(keyed or [fact])
    return kept


def _ends(fact: CandidateFact) -> bool:
    """An ending ("I broke up with my boyfriend", "I was a smoker but I quit") is said in the past tense:
    that is what an ending is, not a one-off event, so the past-event check does not apply to it.
    """
    return fact.negation_of is not None


def _doubtful(fact: CandidateFact, parsed: Sentence) -> bool:
    """Whether the clause the loose fact was read from is a one-off or a hedge (see ``doubtful``),
    or a taste read from a noun or a reaction to something in view ("my love of", "I love the colours").
    """
    value = (fact.value or "").lower()
    taste = re.match(r"(?:really |absolutely )?(love|like|enjoy|adore|prefer|hate)s?\b\s*(.*)", value)
    if fact.category == "preference" and taste and (taste[1] not in parsed.verbs or in_view(taste[2])):
        return True
    claim = set(content_words(fact.value or fact.text)[:2])  # the claim's head: its verb and first object
    scored = [(len(claim & set(content_words(c.text))), c) for c in parsed.clauses]
    best = max(scored, key=lambda pair: pair[0], default=(0, None))
    return best[1] is not None and best[0] > 0 and doubtful(best[1], fact.category)


def _covers(old: CandidateFact, new: CandidateFact) -> bool:
    """Whether ``old`` already says what ``new`` says (they share the claim's words)."""
    if old.key is not None and old.key == new.key:
        return True
    a, b = set(content_words(old.value or old.text)), set(content_words(new.value or new.text))
    return bool(a and b) and (a <= b or b <= a or len(a & b) >= 0.5 * min(len(a), len(b)))


def _cased(sentence: str) -> str:
    """Chat's lower-case 'i' and 'im', and a dropped subject before "been", confuse the parser."""
    sentence = re.sub(r"^been\b", "I have been", sentence.strip(), flags=re.IGNORECASE)
    return re.sub(r"\bi\b", "I", re.sub(r"\bim\b", "I'm", sentence))
