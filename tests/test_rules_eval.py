"""The standing-rule benchmark (bench/rules_eval.py): its scoring, and its rows in `bench.extraction_eval`."""

from __future__ import annotations

from pathlib import Path

from bench.rules_eval import evaluate_rules, load_rule_cases, model_proposer, pattern_proposer
from memory.write_policy.llm import ExtractedFacts
from memory.write_policy.llm_rules import ExtractedRule
from tests.support.extract_helpers import StructuredFake

SETS = Path(__file__).resolve().parent / "fixtures" / "datasets_check"
CASES = load_rule_cases(SETS)


def test_patterns_are_scored_per_message_with_the_traps_they_fell_for() -> None:
    scores = evaluate_rules(pattern_proposer(), CASES)
    rules = sum(c.rule for c in CASES)
    assert rules and scores.tp + scores.fn == rules and scores.tp + scores.fp + scores.fn + scores.tn >= len(CASES)
    assert scores.from_traps["someone_else"] >= 1  # "our team lead always says keep your messages short"
    assert any(line.startswith("n11 ") for line in scores.errors)  # "my daughter asked her teacher to stop ..."


def test_a_models_rules_count_only_when_grounded_in_the_message() -> None:
    short = ExtractedRule(rule="Keep answers short.", topic="length", quote="keep them short")
    model = StructuredFake(responses=[], answer=ExtractedFacts(rules=[short]), prompts=[])
    scores = evaluate_rules(model_proposer(model), CASES)  # the same answer for every message
    assert (scores.tp, scores.fp) == (1, 0)  # only r02 says "keep them short"
    assert len(model.prompts) == len(CASES)
