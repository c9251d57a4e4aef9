"""The write policy on the hand-labelled set: what is stored, and what is not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from langgraph.store.memory import InMemoryStore

from bench import DATASETS
from bench.extraction_eval import NEVER_STORED, SET_NAMES, Case, evaluate, load_cases, load_set, main
from graph.context import Context
from memory.layers.base import LayerEnv, LoggedMessage
from memory.layers.semantic import SemanticLayer
from memory.write_policy.pattern_extractor import PatternFactExtractor
from models.loader import HashEmbeddings
from stores.namespaces import FACTS, PROFILE, UserScope

CASES = load_cases()
EMB = HashEmbeddings(384)
T0 = datetime(2025, 3, 1, tzinfo=UTC)


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
    scores = evaluate(PatternFactExtractor(), CASES)
    assert scores.precision >= 0.9, scores.errors
    assert scores.recall >= 0.85, scores.errors


def test_rules_extractor_on_a_held_out_set() -> None:
    """Written after the rules, never used to tune them: the honest precision figure."""
    held_out = load_cases(DATASETS / "write_policy_heldout.jsonl")
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
    assert main(["--chat-model", "no-such-spec"]) == 0
    out = capsys.readouterr().out
    assert "skipping the LLM extractor (no-such-spec)" in out
    rows = {line.split()[1]: line.split() for line in out.splitlines() if line.split()[:1] == ["rules"]}
    assert list(rows) == list(SET_NAMES)
    for name in SET_NAMES:
        scores = evaluate(PatternFactExtractor(), load_set(name))
        assert rows[name][4:6] == [f"{scores.precision:.3f}", f"{scores.recall:.3f}"]


def test_new_label_sets_are_large_split_by_hash_and_labelled_once() -> None:
    import hashlib

    voices = load_cases(DATASETS / "write_policy_voices.jsonl")
    locomo = load_cases(DATASETS / "write_policy_locomo.jsonl")
    assert len(voices) >= 100 and len(locomo) >= 300
    for case in [*voices, *locomo]:
        held = int(hashlib.sha1(case.id.encode()).hexdigest(), 16) % 10 < 4
        assert case.split == ("heldout" if held else "tune"), case.id
        assert case.durable == (case.trap is None) and (case.categories != ()) == case.durable
    assert len({c.id for c in [*voices, *locomo]}) == len(voices) + len(locomo)
    held_share = sum(c.split == "heldout" for c in voices) / len(voices)
    assert 0.3 < held_share < 0.55
    assert {c.trap for c in voices} >= set(NEVER_STORED)



def test_fresh_label_set_is_all_held_out_with_known_slots_and_labelled_once() -> None:
    """The blind set (write_policy_fresh.jsonl): same schema as the others, every line held out."""
    import json

    from memory.write_policy.base import slot_for

    path = DATASETS / "write_policy_fresh.jsonl"
    fields = {"id", "text", "durable", "key", "keys", "not_keys", "categories", "trap", "split"}
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert all(set(row) == fields for row in rows)
    fresh = load_cases(path)
    assert [c.id for c in fresh] == [f"f{i:03d}" for i in range(1, 201)]
    traps = {"question", "hypothetical", "roleplay", "injection", "instruction", "oneoff", "other", "smalltalk"}
    categories = {"identity", "location", "work", "family", "diet", "health", "preference", "activity", "habit",
                  "goal", "language", "other"}
    for case in fresh:
        assert case.split == "heldout" and case.text.strip(), case.id
        assert case.durable == (case.trap is None) and (case.categories != ()) == case.durable, case.id
        assert case.trap is None or case.trap in traps, case.id
        assert set(case.categories) <= categories, case.id
        assert case.key == (case.keys[0] if case.keys else None), case.id
        assert all(slot_for(k) for k in (*case.keys, *case.not_keys)), case.id
        assert not set(case.keys) & set(case.not_keys) and (case.durable or not case.keys), case.id
    every = [*load_cases(), *[c for p in DATASETS.glob("write_policy_*.jsonl") if p != path for c in load_cases(p)]]
    assert not {c.id for c in fresh} & {c.id for c in every}
    assert not {c.text for c in fresh} & {c.text for c in every}
    assert {c.trap for c in fresh} >= traps and 0.4 < sum(c.durable for c in fresh) / len(fresh) < 0.5
    assert load_set("fresh") == fresh and "fresh" in SET_NAMES

def test_held_out_voices_store_nothing_from_role_play_hypotheticals_questions_or_injections() -> None:
    """Never tuned on: the honest figure for the traps that must never be stored."""
    scores = evaluate(PatternFactExtractor(), load_set("held-out"))
    assert sum(scores.stored_by_trap[t][1] for t in NEVER_STORED) >= 15
    assert scores.stored_from(NEVER_STORED) == 0, scores.errors


def test_extractor_beats_the_old_rules_on_held_out_natural_conversation() -> None:
    """Before this extractor the rules found 0 of the 23 durable held-out LoCoMo turns (first labelling;
    the ``locomo`` set now also holds the second labelling's held-out turns). The floor is a regression
    guard, not a target: the reconciled labels (write_policy_locomo_relabels.tsv) moved five of these
    turns, and the same code read P 0.74 / R 0.74 on the old labels, 0.70 / 0.67 on the new."""
    scores = evaluate(PatternFactExtractor(), load_cases(DATASETS / "write_policy_locomo.jsonl", "heldout"))
    assert scores.recall >= 0.6 and scores.precision >= 0.65, f"P {scores.precision:.3f} R {scores.recall:.3f}"
