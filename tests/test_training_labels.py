"""The training messages written for the learned write gate: well-formed, tune-only, and none of them held out.

Label data only: nothing here runs an extractor.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bench import DATASETS
from bench.extraction_eval import load_set
from memory.write_policy.base import slot_for

TRAINING = sorted(DATASETS.glob("write_policy_train_*.jsonl"))
TRAPS = {"question", "hypothetical", "roleplay", "injection", "instruction", "oneoff", "other", "smalltalk"}
CATEGORIES = {"identity", "location", "work", "family", "diet", "health", "language", "preference", "habit", "skill",
              "possession", "goal", "other"}


def _rows(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _words(text: str) -> str:
    return re.sub(r"\W+", " ", text.lower()).strip()


def test_there_are_training_files() -> None:
    assert len(TRAINING) >= 2
    assert sum(len(_rows(p)) for p in TRAINING) >= 700


@pytest.mark.parametrize("path", TRAINING, ids=lambda p: p.name)
def test_every_training_label_is_well_formed(path: Path) -> None:
    rows = _rows(path)
    assert len({r["id"] for r in rows}) == len(rows)
    for r in rows:
        assert r["split"] == "tune", r["id"]
        assert (r["trap"] is None) == r["durable"], r["id"]
        assert r["durable"] or r["trap"] in TRAPS, r["id"]
        assert r["key"] == (r["keys"][0] if r["keys"] else None), r["id"]
        assert all(slot_for(k) for k in [*r["keys"], *r["not_keys"]]), r["id"]
        assert set(r["categories"]) <= CATEGORIES and bool(r["categories"]) == r["durable"], r["id"]


def test_no_training_message_is_a_held_out_one() -> None:
    held_out = {_words(c.text) for name in ("held-out", "locomo", "fresh") for c in load_set(name)}
    ids = [r["id"] for p in TRAINING for r in _rows(p)]
    assert len(set(ids)) == len(ids)
    shared = [r["id"] for p in TRAINING for r in _rows(p) if _words(r["text"]) in held_out]
    assert not shared, f"{len(shared)} training messages repeat a held-out one"
