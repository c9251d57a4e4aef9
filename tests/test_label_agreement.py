"""The second, independent labelling of the held-out messages, and the agreement score built on it.

Label data and scoring only: nothing here runs an extractor.
"""

from __future__ import annotations

from bench.extraction_eval import Case, load_set
from bench.label_agreement import agreement, load_second
from memory.write_policy.base import slot_for

TRAPS = {"question", "hypothetical", "roleplay", "injection", "instruction", "oneoff", "other", "smalltalk"}


def test_second_labelling_covers_exactly_the_held_out_messages() -> None:
    second = load_second()
    held_out = [c.id for name in ("fresh", "locomo") for c in load_set(name)]
    assert sorted(second) == sorted(held_out)
    for row in second.values():
        assert isinstance(row["durable"], bool), row["id"]
        assert (row["trap"] is None) == row["durable"], row["id"]
        assert all(slot_for(k) for k in [*row["keys"], *row["not_keys"]]), row["id"]
        assert row["durable"] or (row["trap"] in TRAPS and not row["keys"]), row["id"]


def _case(case_id: str, durable: bool, keys: tuple[str, ...] = (), not_keys: tuple[str, ...] = ()) -> Case:
    return Case(id=case_id, text="-", durable=durable, keys=keys, not_keys=not_keys, trap=None if durable else "oneoff")


def _label(durable: bool, keys: list[str] | None = None) -> dict:
    return {"durable": durable, "keys": keys or [], "not_keys": [], "trap": None if durable else "oneoff"}


def test_agreement_scores_the_second_hand_like_an_extractor() -> None:
    cases = [_case("a", True, ("location",)), _case("b", True), _case("c", False), _case("d", False, not_keys=("diet",))]
    same = {"a": _label(True, ["location"]), "b": _label(True), "c": _label(False), "d": _label(False)}
    counts, kappa = agreement(cases, same)
    assert (counts.tp, counts.fp, counts.fn, kappa) == (2, 0, 0, 1.0)

    # a missing slot is a miss and a wrong memory, as in bench.extraction_eval; calling a trap durable is a wrong memory
    differ = {**same, "a": _label(True), "d": _label(True, ["diet"])}
    counts, kappa = agreement(cases, differ)
    assert (counts.tp, counts.fp, counts.fn) == (1, 2, 1)
    assert kappa == 0.5  # durable-or-not agrees on 3 of 4; chance agreement 0.5
