"""bench.check_datasets (run by `make lint`): a small good copy of the sets passes, each kind of label
problem in a broken copy fails it, one line per problem, and so does a test sample that left its set."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bench.check_datasets import SAMPLES, check_samples, main

GOOD = Path(__file__).resolve().parent / "fixtures" / "datasets_check"


def _edit_rows(path: Path, change: Callable[[list[dict]], None]) -> None:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    change(rows)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def _drop_heldout_show(root: Path) -> None:
    p = root / "intents_labelled.tsv"
    p.write_text("".join(x for x in p.read_text().splitlines(True) if not x.startswith("heldout\tshow")))


def _flip_split(root: Path) -> None:
    _edit_rows(root / "write_policy_locomo.jsonl",
               lambda rs: rs[1].update(split="tune" if rs[1]["split"] == "heldout" else "heldout"))


def _drop_a_turn(root: Path) -> None:
    _edit_rows(root / "write_policy_locomo_b.jsonl", lambda rs: rs.pop())


def _log_disagrees(root: Path) -> None:
    p = root / "write_policy_locomo_relabels.tsv"
    lines = p.read_text().splitlines(True)
    at = next(i for i, line in enumerate(lines) if line.split("\t")[1] in ("keys", "categories"))
    cells = lines[at].split("\t")
    cells[3] = '["nothing"]'  # a logged new value the labels do not hold
    lines[at] = "\t".join(cells)
    p.write_text("".join(lines))


def _train_on_held_out(root: Path) -> None:
    held = [json.loads(x) for x in (root / "write_policy_fresh.jsonl").read_text().splitlines()][0]["text"]
    _edit_rows(root / "write_policy_train_a.jsonl", lambda rs: rs[0].update(text=held.upper()))


def _fresh_id_twice(root: Path) -> None:
    _edit_rows(root / "write_policy_fresh.jsonl", lambda rs: rs[2].update(id=rs[1]["id"]))


def _unknown_trap(root: Path) -> None:
    _edit_rows(root / "write_policy_fresh.jsonl", lambda rs: rs[0].update(trap="gossip"))


def _rule_class_split_flipped(root: Path) -> None:
    _edit_rows(root / "rule_classes.jsonl", lambda rs: rs[0].update(split="heldout"))


def _unknown_relation(root: Path) -> None:
    _edit_rows(root / "rule_classes.jsonl",
               lambda rs: next(r for r in rs if r["class"] == "person")["expect"][0].update(relation="cousin"))


def _rule_without_topic(root: Path) -> None:
    _edit_rows(root / "rules_feedback.jsonl", lambda rs: rs[0].pop("topic"))


def _feedback_text_twice(root: Path) -> None:
    _edit_rows(root / "rules_feedback.jsonl", lambda rs: rs[5].update(text=rs[1]["text"].upper()))


def _feedback_kinds_not_interleaved(root: Path) -> None:
    _edit_rows(root / "rules_feedback.jsonl", lambda rs: rs.insert(2, rs.pop(3)))


def _feedback_unknown_trap(root: Path) -> None:
    _edit_rows(root / "rules_feedback.jsonl", lambda rs: rs[1].update(trap="gossip"))


def _missing_file(root: Path) -> None:
    (root / "write_policy_voices.jsonl").unlink()


@pytest.mark.parametrize(
    ("breakage", "said"),
    [
        (_drop_heldout_show, "intents_labelled.tsv: the held-out labels are"),
        (_flip_split, "is not the one its id hashes to"),
        (_drop_a_turn, "write_policy_locomo_b.jsonl: 4 rows, expected 5"),
        (_log_disagrees, "the labels do not hold the logged new"),
        (_train_on_held_out, "repeats a held-out message"),
        (_fresh_id_twice, "write_policy_fresh.jsonl: ids are not f001 to f015 in order"),
        (_unknown_trap, "f001: unknown trap"),
        (_rule_class_split_flipped, "rc-001: split is not the alternating one of its class"),
        (_unknown_relation, "a person needs a known relation"),
        (_rule_without_topic, "rules_feedback.jsonl:1: r01: fields ['id', 'rule', 'text']: a rule row has exactly"),
        (_feedback_text_twice, "rules_feedback.jsonl:6: n03: text used twice"),
        (_feedback_kinds_not_interleaved, "rules_feedback.jsonl:3: n02: two rows of one kind in a row"),
        (_feedback_unknown_trap, "rules_feedback.jsonl:2: n01: unknown trap 'gossip'"),
        (_missing_file, "cannot be checked: FileNotFoundError"),
    ],
    ids=lambda x: getattr(x, "__name__", "")[1:] or None,
)
def test_a_broken_copy_fails_naming_the_problem(tmp_path: Path, breakage, said: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "datasets"
    shutil.copytree(GOOD, root)
    breakage(root)
    assert main(["--datasets", str(root)]) == 1
    err = capsys.readouterr().err
    assert said in err, err


def test_the_good_copy_passes_and_the_cli_says_one_line_per_problem(tmp_path: Path) -> None:
    ok = subprocess.run([sys.executable, "-m", "bench.check_datasets", "--datasets", str(GOOD)],
                        capture_output=True, text=True)
    assert ok.returncode == 0 and "consistent" in ok.stdout, ok.stderr
    root = tmp_path / "datasets"
    shutil.copytree(GOOD, root)
    _flip_split(root)
    _unknown_trap(root)
    bad = subprocess.run([sys.executable, "-m", "bench.check_datasets", "--datasets", str(root)],
                         capture_output=True, text=True)
    assert bad.returncode == 1 and bad.stdout == ""
    lines = bad.stderr.splitlines()
    assert len(lines) >= 2 and all(": " in line for line in lines), bad.stderr


def test_a_sample_line_not_in_its_set_is_a_problem(tmp_path: Path) -> None:
    sets, samples = tmp_path / "sets", tmp_path / "fixtures"
    sets.mkdir()
    samples.mkdir()
    for sample, source in SAMPLES.items():
        (sets / source).write_text('{"id": 1, "durable": true}\n{"id": 2, "durable": false}\n')
        (samples / sample).write_text('# taken from the set\n{"id": 2, "durable": false}\n')
    assert check_samples(sets, samples) == []
    (samples / "write_policy_sample.jsonl").write_text('{"id": 2, "durable": true}\n')
    assert check_samples(sets, samples) == [
        "tests/fixtures/write_policy_sample.jsonl:1: not a line of write_policy.jsonl (relabelled or edited?)"]
