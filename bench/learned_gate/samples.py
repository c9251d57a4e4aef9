"""The tuning messages as the learned gate sees them, and the whole pipeline's score under any gate.

Each message is run through the rule extractor with a recording gate: every
sentence that reaches the gate (``blend.py``) is kept with its parse, the facts
the rules and the parse found, and what the gate would add. Sentences that never
reach it (explicit requests, parse failures) keep their facts as they are.
Grounding is decided once per fact, so any probabilities and thresholds can then
be scored message by message exactly as ``bench.extraction_eval`` counts them,
without running the extractor again. Used by ``bench/learned_gate/train.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bench.extraction_eval import _TIME, Case, Scores, tally
from bench.learned_gate.extractor import GatedPatternExtractor
from bench.learned_gate.features import features
from bench.learned_gate.gate import Thresholds, additions, decide
from memory.layers.base import LoggedMessage
from memory.write_policy.base import CandidateFact, safe_sentences
from memory.write_policy.blend import RuleReader
from memory.write_policy.grounding import ground
from memory.write_policy.parse import Sentence
from memory.write_policy.voices import CAPTION, is_not_the_user


@dataclass(frozen=True)
class Sample:
    """One sentence that reached the gate: its features, its facts before the gate, what the gate would add."""

    case: int
    text: str
    features: tuple[str, ...]
    facts: tuple[CandidateFact, ...]
    added: tuple[CandidateFact, ...]


@dataclass
class Samples:
    """Every tuning message's gated sentences, and the facts of its sentences the gate never saw."""

    cases: list[Case]
    gated: list[Sample] = field(default_factory=list)
    fixed: list[list[CandidateFact]] = field(default_factory=list)
    grounded: set[int] = field(default_factory=set)  # id() of every fact the user's words support


class _Recorder:
    """A gate that changes nothing and remembers what it was shown."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, Sentence, list[CandidateFact], list[CandidateFact]]] = []

    def screen(self, text: str, parsed: Sentence, facts: Sequence[CandidateFact],
               rules: RuleReader) -> list[CandidateFact]:
        self.seen.append((text, parsed, list(facts), additions(parsed, rules)))
        return list(facts)


def collect(cases: Sequence[Case]) -> Samples:
    """Run the rules over ``cases`` once, recording what the gate would judge."""
    recorder = _Recorder()
    rules = GatedPatternExtractor(recorder)
    out = Samples(list(cases))
    for i, case in enumerate(cases):
        messages = [LoggedMessage(id=case.id, thread="train", time=_TIME, role="user", text=case.text)]
        fixed: list[CandidateFact] = []
        sentences = [] if is_not_the_user(case.text) else safe_sentences(CAPTION.sub("", case.text))
        for sentence in sentences:
            recorder.seen.clear()
            found = rules.sentence_facts(sentence, sources=[case.id], stated_at=_TIME)
            if not recorder.seen:
                fixed.extend(found)
                continue
            text, parsed, facts, added = recorder.seen[0]
            out.gated.append(Sample(i, text, tuple(features(text, parsed)), tuple(facts), tuple(added)))
        out.fixed.append(fixed)
        every = [*fixed, *(f for s in out.gated if s.case == i for f in (*s.facts, *s.added))]
        out.grounded |= {id(f) for f in every if ground([f], messages)}
    return out


def pipeline_scores(samples: Samples, p: Sequence[float], t: Thresholds) -> Scores:
    """The whole extractor's scores on the tuning messages with gate probabilities ``p`` (one per gated sample)."""
    per_case = [list(f) for f in samples.fixed]
    for sample, prob in zip(samples.gated, p):
        per_case[sample.case].extend(decide(prob, t, list(sample.facts), list(sample.added)))
    scores = Scores()
    for case, facts in zip(samples.cases, per_case):
        tally(scores, case, [f for f in facts if id(f) in samples.grounded])
    return scores
