"""A learned gate on the rules: is this sentence a durable self-disclosure?

The rules and the parse policy are precise on the phrasings they were written
for and generalise poorly: every round of hand rules bought much on the text it
was written for and little on unseen text. This gate is a logistic regression
over word n-grams and parse features (``bench/learned_gate/features.py``), trained on the
labelled tuning messages by ``bench/learned_gate/train.py``, which also
chooses its thresholds by cross-validation. It works both ways:

- **veto**: a loose fact (no profile slot, not asked for) from a sentence the
  model scores under ``veto`` is dropped; a keyed fact only under ``veto_keyed``
  (the slot patterns are narrow, so the model must be very sure);
- **add**: a sentence the model scores at or over ``add`` from which nothing was
  read gets its lasting first-person clause, in the third person (keyed when
  the slot patterns can read that clause alone). A clause about a relation
  ("my sister lives in Sydney") is a family fact and never fills the user's slots.

Questions, suppositions and role-play never reach the gate (``blend.py`` and the
extractor drop them first), and everything added is the user's own words, so
grounding holds. The weights are one JSON file (``model.json``); only
the standard library reads it.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from bench.learned_gate.features import features, subject_kind
from memory.write_policy.base import CandidateFact
from memory.write_policy.parse import Clause, Sentence
from memory.write_policy.parse_policy import EMPTY_OBJECTS, LASTING_CHANGE, RELATION_VERBS, SELF_VERBS, in_view, settled
from memory.write_policy.parse_veto import doubtful
from memory.write_policy.person import third_person

MODEL_PATH = Path(__file__).with_name("model.json")
RuleReader = Callable[[str], list[CandidateFact]]


@dataclass(frozen=True)
class Thresholds:
    """Where the gate acts; a threshold of 0 (veto) or above 1 (add) switches that action off."""

    veto: float = 0.0
    veto_keyed: float = 0.0
    add: float = 1.01


@dataclass(frozen=True)
class DisclosureGate:
    """Logistic regression weights per feature string, and the thresholds the training chose."""

    weights: dict[str, float]
    bias: float
    thresholds: Thresholds

    def probability(self, text: str, parsed: Sentence | None) -> float:
        """P(the sentence is a durable self-disclosure)."""
        z = self.bias + sum(self.weights.get(f, 0.0) for f in features(text, parsed))
        return 1.0 / (1.0 + math.exp(-max(min(z, 30.0), -30.0)))

    def screen(self, text: str, parsed: Sentence, facts: Sequence[CandidateFact],
               rules: RuleReader) -> list[CandidateFact]:
        """The facts of one sentence after the gate's veto or addition."""
        return decide(self.probability(text, parsed), self.thresholds, list(facts), additions(parsed, rules))


def decide(p: float, t: Thresholds, facts: list[CandidateFact], added: list[CandidateFact]) -> list[CandidateFact]:
    """Apply the thresholds to one sentence's probability ``p`` (shared with the trainer's cross-validation)."""
    kept = [f for f in facts if f.explicit or p >= (t.veto if f.key is None else t.veto_keyed)]
    if not kept and not facts and p >= t.add:
        return added
    return kept


def additions(parsed: Sentence, rules: RuleReader) -> list[CandidateFact]:
    """What the gate would add for a sentence nothing was read from: its first lasting clause about
    the user (keyed when the slot patterns read it), else about a relation (a family fact, no slot).
    Only whole clauses that start with their subject and say something of it ("I hate." or "Who I
    really am." say nothing alone), that the parse does not show as a one-off or a hedge.
    """
    if parsed.question or parsed.conditional:
        return []
    for clause in parsed.clauses:
        who = subject_kind(clause)
        if who not in ("i", "we", "relative") or not _standalone(clause):
            continue
        if who == "relative":
            if clause.lemma in RELATION_VERBS and not doubtful(clause, "family"):
                return [CandidateFact(text=third_person(clause.text), category="family", value=clause.text)]
            continue
        category = SELF_VERBS.get(clause.lemma, "other")
        if doubtful(clause, category) or category == "preference" and _taste_in_view(clause):
            continue
        keyed = [f for f in rules(clause.text) if f.key is not None]
        if keyed and who == "i":
            return keyed
        said = clause.text if who == "i" else "I say " + clause.text[:1].lower() + clause.text[1:]
        return [CandidateFact(text=third_person(said), category=category, value=clause.text, importance=5)]
    return []


def _taste_in_view(clause: Clause) -> bool:
    """'I love the soup they served': a reaction to a thing in view, not a lasting taste."""
    after = re.split(rf"\b{re.escape(clause.lemma[:4])}\w*\s+", clause.text, maxsplit=1, flags=re.IGNORECASE)
    return len(after) > 1 and in_view(after[1])


def _standalone(clause: Clause) -> bool:
    """A settled clause that starts with its subject and has a real object or complement."""
    starts = bool(clause.subject) and bool(re.match(rf"(?:{re.escape(clause.subject)}|my)\b", clause.text, re.I))
    real = [o for o in clause.objects if o.isalnum() and o not in EMPTY_OBJECTS]
    return (starts and bool(real) and len(clause.text.split()) >= 3 and not clause.reported and settled(clause)
            and not (clause.tag == "VBD" and clause.lemma not in LASTING_CHANGE))


def from_json(data: dict[str, object]) -> DisclosureGate:
    """A gate from the trainer's JSON object."""
    weights = data["weights"]
    thresholds = data["thresholds"]
    assert isinstance(weights, dict) and isinstance(thresholds, dict)
    return DisclosureGate({str(k): float(v) for k, v in weights.items()}, float(str(data["bias"])),
                          Thresholds(**{k: float(v) for k, v in thresholds.items()}))


@lru_cache(maxsize=4)
def load_gate(path: Path = MODEL_PATH) -> DisclosureGate | None:
    """The shipped gate, or None when the file is missing (the rules then run alone)."""
    if not path.exists():
        return None
    return from_json(json.loads(path.read_text(encoding="utf-8")))
