"""The write policy on the hand-labelled set: what is stored, and what is not."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from langgraph.store.memory import InMemoryStore

from bench.extraction_eval import Case, evaluate, load_cases, main
from graph.context import Context
from models.loader import HashEmbeddings
from nodes.extract.rules import RuleFactExtractor
from nodes.layers.base import LayerEnv, LoggedMessage
from nodes.layers.semantic import SemanticLayer
from stores.namespaces import FACTS, PROFILE, UserScope

CASES = load_cases()
EMB = HashEmbeddings(384)
T0 = datetime(2025, 3, 1, tzinfo=timezone.utc)


def stored_after(case: Case) -> list[dict]:
    env = LayerEnv(store=InMemoryStore(index={"dims": 384, "embed": EMB, "fields": ["text"]}),
                   scope=UserScope("u1"), context=Context(), embeddings=EMB, now=T0)
    SemanticLayer().on_turn(env, [LoggedMessage(id=case.id, thread="t", time=T0, role="user", text=case.text)])
    return [i.value for kind in (FACTS, PROFILE) for i in env.store.search(env.scope.ns(kind), limit=50)]


def test_labelled_set_is_large_and_balanced() -> None:
    assert len(CASES) >= 60
    assert sum(c.durable for c in CASES) >= 25 and sum(not c.durable for c in CASES) >= 25
    assert len({c.id for c in CASES}) == len(CASES)


def test_rules_extractor_precision_and_recall() -> None:
    scores = evaluate(RuleFactExtractor(), CASES)
    assert scores.precision >= 0.9, scores.errors
    assert scores.recall >= 0.85, scores.errors


def test_rules_extractor_on_a_held_out_set() -> None:
    """Written after the rules, never used to tune them: the honest precision figure."""
    from pathlib import Path

    held_out = load_cases(Path(__file__).parent / "fixtures" / "write_policy_heldout.jsonl")
    scores = evaluate(RuleFactExtractor(), held_out)
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


def test_eval_cli_reports_each_extractor(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--chat-model", "no-such-spec"]) == 0
    out = capsys.readouterr().out
    assert "skipping the LLM extractor (no-such-spec)" in out
    rules_line = next(line for line in out.splitlines() if line.startswith("rules"))
    scores = evaluate(RuleFactExtractor(), CASES)
    assert rules_line.split()[1:3] == [f"{scores.precision:.3f}", f"{scores.recall:.3f}"]
