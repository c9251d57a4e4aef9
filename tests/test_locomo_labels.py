"""The two LoCoMo label files: one consistent labelling of all 788 turns, and a change log that matches it.

Label data only: nothing here runs an extractor, so the labels can be checked without looking at one.
"""

from __future__ import annotations

import csv
import hashlib
import json

from bench import DATASETS

FILES = ("write_policy_locomo.jsonl", "write_policy_locomo_b.jsonl")
TRAPS = {"question", "hypothetical", "roleplay", "injection", "instruction", "oneoff", "other", "smalltalk"}


def rows(name: str) -> list[dict]:
    with (DATASETS / name).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def dialog_hash(row_id: str) -> int:
    conv, dialog = row_id.removeprefix("locomo-").split("-", 1)
    return int(hashlib.sha1(f"conv-{conv}/{dialog}".encode()).hexdigest(), 16)


def test_both_halves_label_every_turn_once_split_by_hash() -> None:
    first, second = rows(FILES[0]), rows(FILES[1])
    assert (len(first), len(second)) == (380, 408)
    ids = [r["id"] for r in [*first, *second]]
    assert len(set(ids)) == 788
    assert all(dialog_hash(r["id"]) % 2 == 0 for r in first) and all(dialog_hash(r["id"]) % 2 for r in second)
    for r in [*first, *second]:
        held = int(hashlib.sha1(r["id"].encode()).hexdigest(), 16) % 10 < 4
        assert r["split"] == ("heldout" if held else "tune"), r["id"]


def test_every_label_is_well_formed() -> None:
    for name in FILES:
        for r in rows(name):
            assert r["durable"] == (r["trap"] is None) == bool(r["categories"]), r["id"]
            assert r["trap"] is None or r["trap"] in TRAPS, r["id"]
            assert r["key"] == (r["keys"][0] if r["keys"] else None), r["id"]
            assert not set(r["keys"]) & set(r["not_keys"]), r["id"]


def test_reconciled_durable_counts() -> None:
    """After the guide was applied (see WRITE_POLICY_LABELS.md): 70 → 72 and 91 → 83 durable turns."""
    counts = {name: {s: sum(r["durable"] for r in rows(name) if r["split"] == s) for s in ("tune", "heldout")}
              for name in FILES}
    assert counts == {FILES[0]: {"tune": 48, "heldout": 24}, FILES[1]: {"tune": 49, "heldout": 34}}


def test_change_log_matches_the_labels() -> None:
    labels = {r["id"]: r for name in FILES for r in rows(name)}
    with (DATASETS / "write_policy_locomo_relabels.tsv").open(encoding="utf-8", newline="") as fh:
        log = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    assert len({entry["id"] for entry in log}) == 28
    for entry in log:
        assert entry["field"] in {"durable", "keys", "not_keys", "categories", "trap"}, entry
        assert json.loads(entry["old"]) != json.loads(entry["new"]), entry
        assert labels[entry["id"]][entry["field"]] == json.loads(entry["new"]), entry
        assert entry["guide rule"].split()[0].split("/")[0].isdigit(), entry
