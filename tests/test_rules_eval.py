"""The standing-rule benchmark (bench/rules_eval.py): its scoring, and its rows in `bench.extraction_eval`."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bench.rules_eval import evaluate_rules, load_rule_cases, model_proposer, pattern_proposer
from memory.layers.base import LoggedMessage
from memory.write_policy.llm import ExtractedFacts
from memory.write_policy.llm_rules import ExtractedRule
from tests.support.extract_helpers import StructuredFake


def _said(text: str) -> LoggedMessage:
    return LoggedMessage(id="m", thread="t", time=datetime(2025, 1, 1, tzinfo=UTC), role="user", text=text)


SETS = Path(__file__).resolve().parent / "fixtures" / "datasets_check"
CASES = load_rule_cases(SETS)


def test_patterns_are_scored_per_message_with_the_traps_they_fell_for() -> None:
    scores = evaluate_rules(pattern_proposer(), CASES)
    rules = sum(c.rule for c in CASES)
    assert rules and scores.tp + scores.fn == rules and scores.tp + scores.fp + scores.fn + scores.tn >= len(CASES)
    assert sum(scores.from_traps.values()) <= scores.fp and scores.fn <= len(scores.errors) <= scores.fp + scores.fn


def test_a_proposer_that_always_answers_falls_for_every_trap_and_is_named_per_message() -> None:
    fixed = pattern_proposer()(_said("Please stop giving me three options."))
    assert fixed
    scores = evaluate_rules(lambda message: fixed, CASES)
    traps = [c for c in CASES if not c.rule]
    assert traps and scores.fp >= len(traps) and scores.tn == 0
    assert sum(scores.from_traps.values()) == len(traps)
    assert all(any(line.startswith(f"{c.id} ") for line in scores.errors) for c in traps)


def test_a_models_rules_count_only_when_grounded_in_the_message() -> None:
    short = ExtractedRule(rule="Keep answers short.", topic="length", quote="keep them short")
    model = StructuredFake(responses=[], answer=ExtractedFacts(rules=[short]), prompts=[])
    scores = evaluate_rules(model_proposer(model), CASES)  # the same answer for every message
    assert (scores.tp, scores.fp) == (1, 0)  # only r02 says "keep them short"
    assert len(model.prompts) == len(CASES)
