"""Check that the labelled sets in bench/datasets/ are consistent: one line per problem, exit 1 on any.

Run by ``make lint``. These are guards of the labels themselves (well-formed rows, splits by
hash, every LoCoMo turn labelled once, a change log that matches, no training message that
is also a held-out one), so they read the full sets and run no extractor; tests read small
fixtures only. The sizes and shares a set must have are in the folder's ``expected.toml``,
so a change of a set's size is a deliberate edit there. Each test sample in tests/fixtures/ must
still be lines of its set (``SAMPLES``). ``--datasets`` checks another folder
(tests/test_check_datasets.py runs a small good one and broken copies of it).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import re
import sys
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench import DATASETS
from bench.check_rule_classes import check_rule_classes
from bench.check_rules_feedback import check_rules_feedback
from bench.extraction_eval import NEVER_STORED, load_cases, load_set
from bench.intents_eval import load as load_intents
from memory.write_policy.base import slot_for

TRAPS = {"question", "hypothetical", "roleplay", "injection", "instruction", "oneoff", "other", "smalltalk"}
TRAINING_CATEGORIES = {"identity", "location", "work", "family", "diet", "health", "language", "preference", "habit",
                       "skill", "possession", "goal", "other"}
FRESH_CATEGORIES = {"identity", "location", "work", "family", "diet", "health", "preference", "activity", "habit",
                    "goal", "language", "other"}
FRESH_FIELDS = {"id", "text", "durable", "key", "keys", "not_keys", "categories", "trap", "split"}
INTENT_LABELS = {"forget", "show", "memory_off", "memory_on", "none"}
LOCOMO = ("write_policy_locomo.jsonl", "write_policy_locomo_b.jsonl")
RELABELS = "write_policy_locomo_relabels.tsv"
Rows = list[dict[str, Any]]


def rows(path: Path) -> Rows:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _held_by_hash(row_id: str) -> bool:
    return int(hashlib.sha1(row_id.encode()).hexdigest(), 16) % 10 < 4


def _dialog_hash(row_id: str) -> int:
    conv, dialog = row_id.removeprefix("locomo-").split("-", 1)
    return int(hashlib.sha1(f"conv-{conv}/{dialog}".encode()).hexdigest(), 16)


def _plain(text: str) -> str:
    return re.sub(r"\W+", " ", text.lower()).strip()


def _size(name: str, n: int, want: dict[str, Any], what: str = "rows") -> list[str]:
    if "min_" + what in want and n < want["min_" + what]:
        return [f"{name}: {n} {what}, expected at least {want['min_' + what]}"]
    if what in want and n != want[what]:
        return [f"{name}: {n} {what}, expected {want[what]}"]
    return []


def check_intents(root: Path, want: dict[str, Any]) -> list[str]:
    name = "intents_labelled.tsv"
    labelled = load_intents(root / name)
    held = [r for r in labelled if r[0] == "heldout"]
    out = _size(name, len(labelled), want) + _size(name, len(held), want, "heldout")
    if {label for _, label, _ in held} != INTENT_LABELS:
        out.append(f"{name}: the held-out labels are {sorted({lb for _, lb, _ in held})}, expected {sorted(INTENT_LABELS)}")
    return out


def check_locomo(root: Path, want: dict[str, Any]) -> list[str]:
    out: list[str] = []
    halves = [rows(root / name) for name in LOCOMO]
    for name, half, parity in zip(LOCOMO, halves, (0, 1)):
        out += _size(name, len(half), want.get(name, {}))
        for r in half:
            rid = r["id"]
            if _dialog_hash(rid) % 2 != parity:
                out.append(f"{name}: {rid}: its dialog hashes to the other half")
            if r["split"] != ("heldout" if _held_by_hash(rid) else "tune"):
                out.append(f"{name}: {rid}: split {r['split']!r} is not the one its id hashes to")
            if not r["durable"] == (r["trap"] is None) == bool(r["categories"]):
                out.append(f"{name}: {rid}: durable, trap and categories disagree")
            if r["trap"] is not None and r["trap"] not in TRAPS:
                out.append(f"{name}: {rid}: unknown trap {r['trap']!r}")
            if r["key"] != (r["keys"][0] if r["keys"] else None):
                out.append(f"{name}: {rid}: key is not the first of keys")
            if set(r["keys"]) & set(r["not_keys"]):
                out.append(f"{name}: {rid}: a key is also in not_keys")
        durable = {s: sum(r["durable"] for r in half if r["split"] == s) for s in ("tune", "heldout")}
        if "durable" in want.get(name, {}) and durable != want[name]["durable"]:
            out.append(f"{name}: durable turns per split {durable}, expected {want[name]['durable']}")
    ids = [r["id"] for half in halves for r in half]
    out += [f"{LOCOMO[0]}: {i}: labelled more than once" for i in sorted({i for i in ids if ids.count(i) > 1})]
    return out + _check_relabels(root, {r["id"]: r for half in halves for r in half}, want.get(RELABELS, {}))


def _check_relabels(root: Path, labels: dict[str, dict[str, Any]], want: dict[str, Any]) -> list[str]:
    with (root / RELABELS).open(encoding="utf-8", newline="") as fh:
        log = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
    out = _size(RELABELS, len({e["id"] for e in log}), want, "ids")
    for n, e in enumerate(log, 2):
        where = f"{RELABELS}:{n}: {e['id']}"
        if e["field"] not in {"durable", "keys", "not_keys", "categories", "trap"}:
            out.append(f"{where}: unknown field {e['field']!r}")
        elif json.loads(e["old"]) == json.loads(e["new"]):
            out.append(f"{where}: old and new are the same")
        elif e["id"] not in labels or labels[e["id"]][e["field"]] != json.loads(e["new"]):
            out.append(f"{where}: the labels do not hold the logged new {e['field']}")
        if not e["guide rule"].split()[0].split("/")[0].isdigit():
            out.append(f"{where}: no guide rule number")
    return out


def check_training(root: Path, want: dict[str, Any]) -> list[str]:
    files = sorted(root.glob("write_policy_train_*.jsonl"))
    out = _size("write_policy_train_*.jsonl", len(files), want, "files")
    out += _size("write_policy_train_*.jsonl", sum(len(rows(p)) for p in files), want)
    held_out = {_plain(c.text) for c in _held_out_cases(root)}
    seen: set[str] = set()
    for path in files:
        for r in rows(path):
            where = f"{path.name}: {r['id']}"
            problems = [
                (r["id"] in seen, "id used twice"),
                (r["split"] != "tune", "a training row must be split 'tune'"),
                ((r["trap"] is None) != r["durable"], "durable and trap disagree"),
                (not r["durable"] and r["trap"] not in TRAPS, "a non-durable row needs a known trap"),
                (r["key"] != (r["keys"][0] if r["keys"] else None), "key is not the first of keys"),
                (not all(slot_for(k) for k in [*r["keys"], *r["not_keys"]]), "a key names no known slot"),
                (not set(r["categories"]) <= TRAINING_CATEGORIES or bool(r["categories"]) != r["durable"],
                 "categories unknown, or given to a non-durable row"),
                (_plain(r["text"]) in held_out, "repeats a held-out message"),
            ]
            out += [f"{where}: {what}" for bad, what in problems if bad]
            seen.add(r["id"])
    return out


def _held_out_cases(root: Path) -> list[Any]:
    """The sets bench.extraction_eval scores as held out: voices and LoCoMo held-out turns, and the fresh set."""
    return [c for name in ("held-out", "locomo", "fresh") for c in load_set(name, root)]


def check_write_policy(root: Path, want: dict[str, Any]) -> list[str]:
    name = "write_policy.jsonl"
    cases = load_cases(root / name)
    out = _size(name, len(cases), want.get(name, {}))
    out += _size(name, sum(c.durable for c in cases), want.get(name, {}), "durable")
    out += _size(name, sum(not c.durable for c in cases), want.get(name, {}), "not_durable")
    out += [f"{name}: {i}: id used twice" for i in sorted({c.id for c in cases if [d.id for d in cases].count(c.id) > 1})]
    voices, locomo = load_cases(root / "write_policy_voices.jsonl"), load_cases(root / LOCOMO[0])
    out += _size("write_policy_voices.jsonl", len(voices), want.get("write_policy_voices.jsonl", {}))
    out += _size(LOCOMO[0], len(locomo), want.get("write_policy_locomo_cases", {}))
    for c in [*voices, *locomo]:
        if c.split != ("heldout" if _held_by_hash(c.id) else "tune"):
            out.append(f"{c.id}: split {c.split!r} is not the one its id hashes to")
        if not (c.durable == (c.trap is None) and (c.categories != ()) == c.durable):
            out.append(f"{c.id}: durable, trap and categories disagree")
    if len({c.id for c in [*voices, *locomo]}) != len(voices) + len(locomo):
        out.append("write_policy_voices.jsonl and write_policy_locomo.jsonl share an id")
    low, high = want.get("voices_heldout_share", (0.0, 1.0))
    share = sum(c.split == "heldout" for c in voices) / max(len(voices), 1)
    if not low < share < high:
        out.append(f"write_policy_voices.jsonl: held-out share {share:.2f}, expected between {low} and {high}")
    if missing := set(NEVER_STORED) - {c.trap for c in voices}:
        out.append(f"write_policy_voices.jsonl: no example of the trap(s) {sorted(missing)}")
    return out + check_fresh(root, want)


def check_fresh(root: Path, want: dict[str, Any]) -> list[str]:
    name = "write_policy_fresh.jsonl"
    path = root / name
    out = [f"{name}: {r.get('id')}: fields {sorted(set(r) ^ FRESH_FIELDS)} differ" for r in rows(path)
           if set(r) != FRESH_FIELDS]
    fresh = load_cases(path)
    if [c.id for c in fresh] != [f"f{i:03d}" for i in range(1, want.get("fresh_rows", 0) + 1)]:
        out.append(f"{name}: ids are not f001 to f{want.get('fresh_rows', 0):03d} in order")
    for c in fresh:
        problems = [
            (c.split != "heldout" or not c.text.strip(), "every row must be held out, with text"),
            (not (c.durable == (c.trap is None) and (c.categories != ()) == c.durable), "durable, trap and categories disagree"),
            (c.trap is not None and c.trap not in TRAPS, "unknown trap"),
            (not set(c.categories) <= FRESH_CATEGORIES, "unknown category"),
            (c.key != (c.keys[0] if c.keys else None), "key is not the first of keys"),
            (not all(slot_for(k) for k in (*c.keys, *c.not_keys)), "a key names no known slot"),
            (bool(set(c.keys) & set(c.not_keys)) or (not c.durable and bool(c.keys)), "keys clash with not_keys or durable"),
        ]
        out += [f"{name}: {c.id}: {what}" for bad, what in problems if bad]
    others = [c for p in root.glob("write_policy*.jsonl") if p != path for c in load_cases(p)]
    if shared := {c.id for c in fresh} & {c.id for c in others}:
        out.append(f"{name}: ids also used in another set: {sorted(shared)[:5]}")
    if shared := {c.text for c in fresh} & {c.text for c in others}:
        out.append(f"{name}: {len(shared)} text(s) also in another set")
    if missing := TRAPS - {c.trap for c in fresh}:
        out.append(f"{name}: no example of the trap(s) {sorted(missing)}")
    low, high = want.get("fresh_durable_share", (0.0, 1.0))
    if fresh and not low < sum(c.durable for c in fresh) / len(fresh) < high:
        out.append(f"{name}: durable share outside {low} to {high}")
    return out


# The tests' samples and the set each is taken from: a relabelled row must be relabelled in its sample too.
SAMPLES = {
    "intents_heldout.tsv": "intents_labelled.tsv",
    "write_policy_sample.jsonl": "write_policy.jsonl",
    "write_policy_heldout_sample.jsonl": "write_policy_heldout.jsonl",
    "write_policy_voices_traps.jsonl": "write_policy_voices.jsonl",
    "write_policy_locomo_heldout_sample.jsonl": "write_policy_locomo.jsonl",
    "secrets_sample.jsonl": "secrets_corpus.jsonl",
}
FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures"


def check_samples(root: Path, fixtures: Path = FIXTURES) -> list[str]:
    """Every line of a test sample (comments aside) is a line of its set, unchanged."""
    out = []
    for sample, source in SAMPLES.items():
        lines = set((root / source).read_text(encoding="utf-8").splitlines())
        for n, line in enumerate((fixtures / sample).read_text(encoding="utf-8").splitlines(), 1):
            if line.strip() and not line.startswith("#") and line not in lines:
                out.append(f"tests/fixtures/{sample}:{n}: not a line of {source} (relabelled or edited?)")
    return out


CHECKS: dict[str, Callable[[Path, dict[str, Any]], list[str]]] = {
    "intents": check_intents, "locomo": check_locomo, "training": check_training, "write_policy": check_write_policy,
    "rule_classes": check_rule_classes, "rules_feedback": check_rules_feedback,
}


def problems(root: Path) -> list[str]:
    """Every problem of the sets in ``root``, one line each ("" for none)."""
    expected = tomllib.loads((root / "expected.toml").read_text(encoding="utf-8"))
    out: list[str] = []
    for name, check in CHECKS.items():
        try:
            out += check(root, expected.get(name, {}))
        except (OSError, ValueError, KeyError, TypeError) as err:  # a missing file or a malformed row
            out.append(f"{name}: cannot be checked: {type(err).__name__}: {err}")
    return out + (check_samples(root) if root.resolve() == DATASETS.resolve() else [])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", type=Path, default=DATASETS, help="folder of labelled sets (default bench/datasets)")
    args = parser.parse_args(argv)
    found = problems(args.datasets)
    for line in found:
        print(line, file=sys.stderr)
    if not found:
        print(f"datasets: {', '.join(CHECKS)} consistent ({args.datasets.name})")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
