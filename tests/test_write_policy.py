"""The write policy on samples of the hand-labelled sets (tests/fixtures/): what is stored, and what is not.

The full sets are in bench/datasets/ (scored by ``python -m bench.extraction_eval``); their labels
are checked by ``python -m bench.check_datasets`` in ``make lint``. Each sample here names its set.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from langgraph.store.memory import InMemoryStore

from bench.extraction_eval import NEVER_STORED, SET_NAMES, Case, evaluate, load_cases, load_set, main
from bench.rules_eval import evaluate_rules, load_rule_cases, pattern_proposer
from core.context import Context
from memory.layers.base import LayerEnv, LoggedMessage
from memory.layers.semantic import SemanticLayer
from memory.write_policy.pattern_extractor import PatternFactExtractor
from models.loader import HashEmbeddings
from stores.namespaces import FACTS, PROFILE, UserScope

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CASES = load_cases(FIXTURES / "write_policy_sample.jsonl")  # bench/datasets/write_policy.jsonl, whole
EMB = HashEmbeddings(384)
T0 = datetime(2025, 3, 1, tzinfo=UTC)


def stored_after(case: Case) -> list[dict]:
    env = LayerEnv(store=InMemoryStore(index={"dims": 384, "embed": EMB, "fields": ["text"]}),
                   scope=UserScope("u1"), context=Context(), embeddings=EMB, now=T0)
    SemanticLayer().on_turn(env, [LoggedMessage(id=case.id, thread="t", time=T0, role="user", text=case.text)])
    return [i.value for kind in (FACTS, PROFILE) for i in env.store.search(env.scope.ns(kind), limit=50)]


def test_the_sample_is_the_core_set() -> None:
    assert len(CASES) >= 60 and len({c.id for c in CASES}) == len(CASES)
    assert sum(c.durable for c in CASES) >= 25 and sum(not c.durable for c in CASES) >= 25


def test_rules_extractor_precision_and_recall() -> None:
    scores = evaluate(PatternFactExtractor(), CASES)
    assert scores.precision >= 0.9, scores.errors
    assert scores.recall >= 0.85, scores.errors


def test_rules_extractor_on_a_held_out_set() -> None:
    """Written after the rules, never used to tune them: the honest precision figure."""
    held_out = load_cases(FIXTURES / "write_policy_heldout_sample.jsonl")  # bench/datasets/write_policy_heldout.jsonl, whole
    scores = evaluate(PatternFactExtractor(), held_out)
    assert len(held_out) >= 30
    assert scores.precision >= 0.9, scores.errors
    assert scores.recall >= 0.8, scores.errors


@pytest.mark.parametrize("case", [c for c in CASES if not c.durable], ids=lambda c: c.id)
def test_nothing_is_stored_for_non_durable_messages(case: Case) -> None:
    assert stored_after(case) == []


@pytest.mark.parametrize("case", [c for c in CASES if c.durable and c.key and "no longer" not in c.text
                                  and "anymore" not in c.text], ids=lambda c: c.id)
def test_durable_keyed_messages_fill_their_slot(case: Case) -> None:
    assert [r["id"] for r in stored_after(case)] == [case.key]


def test_eval_cli_reports_each_extractor_on_each_set(capsys: pytest.CaptureFixture[str]) -> None:
    sets = FIXTURES / "datasets_check"  # a small copy of bench/datasets/ with every file the sets read
    assert main(["--chat-model", "no-such-spec", "--datasets", str(sets)]) == 0
    out = capsys.readouterr().out
    assert "skipping the LLM extractor (no-such-spec)" in out
    rows = {line.split()[1]: line.split() for line in out.splitlines() if line.split()[:1] == ["rules"]}
    assert list(rows) == list(SET_NAMES)
    for name in SET_NAMES:
        cases = load_set(name, sets)
        scores = evaluate(PatternFactExtractor(), cases)
        assert cases and rows[name][2] == str(len(cases))
        assert rows[name][4:6] == [f"{scores.precision:.3f}", f"{scores.recall:.3f}"]
    rules = evaluate_rules(pattern_proposer(), load_rule_cases(sets))  # standing rules, after the fact sets
    row = next(line.split() for line in out.splitlines() if line.startswith("feedback-patterns "))
    assert row[3:5] == [f"{rules.precision:.3f}", f"{rules.recall:.3f}"] and rules.tp + rules.fn > 0


def test_held_out_voices_store_nothing_from_role_play_hypotheticals_questions_or_injections() -> None:
    """Never tuned on: the honest figure for the traps that must never be stored (every such trap of
    the held-out voices: tests/fixtures/write_policy_voices_traps.jsonl)."""
    scores = evaluate(PatternFactExtractor(), load_cases(FIXTURES / "write_policy_voices_traps.jsonl", "heldout"))
    assert sum(scores.stored_by_trap[t][1] for t in NEVER_STORED) >= 15
    assert scores.stored_from(NEVER_STORED) == 0, scores.errors


def test_extractor_beats_the_old_rules_on_held_out_natural_conversation() -> None:
    """Before this extractor the rules found 0 of the 23 durable held-out LoCoMo turns (first labelling;
    the ``locomo`` set now also holds the second labelling's held-out turns). The floor is a regression
    guard, not a target: the reconciled labels (write_policy_locomo_relabels.tsv) moved five of these
    turns, and the same code read P 0.74 / R 0.74 on the old labels, 0.70 / 0.67 on the new.
    The sample (tests/fixtures/write_policy_locomo_heldout_sample.jsonl, LoCoMo, CC BY-NC 4.0) holds every
    durable held-out turn of write_policy_locomo.jsonl, every other one the rules stored from when it was
    taken (so its figures were the full file's), and every fourth of the rest."""
    scores = evaluate(PatternFactExtractor(), load_cases(FIXTURES / "write_policy_locomo_heldout_sample.jsonl", "heldout"))
    assert scores.recall >= 0.6 and scores.precision >= 0.65, f"P {scores.precision:.3f} R {scores.recall:.3f}"
