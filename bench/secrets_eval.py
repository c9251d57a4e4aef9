"""Precision and recall of the secret detector, and its false-positive rate on ordinary prose.

Run ``python -m bench.secrets_eval [--errors] [CORPUS ...]``. With no corpus it
scores the tuning corpora, the held-out corpus (written and labelled before the
cue-and-shape detector, never tuned on) and counts the LoCoMo messages flagged
(ordinary conversation: each flag is a false positive). Each corpus line is
``{"text": str, "secrets": [{"kind": str, "value": str}]}``; negatives have no
secrets. A detection is a true positive when it overlaps a labelled value; a
labelled value is recalled when some detection overlaps it. Kind agreement is
reported separately, because a key caught under a generic kind is still
redacted.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from bench import DATASETS
from bench.scores import Counts
from stores.redaction.secrets import find_secrets, redact

DEFAULT_CORPUS = DATASETS / "secrets_corpus.jsonl"
# Tuned on: the first corpus, the phrasings corpus and the classes of issue 43 (passphrases, logins,
# CVVs, backup codes, security answers, key halves) with their prose negatives. Held out: written and labelled first, never tuned on.
TUNING = [DEFAULT_CORPUS, DATASETS / "secrets_tuning.jsonl", DATASETS / "secrets_round2.jsonl"]
HELDOUT = DATASETS / "secrets_heldout.jsonl"
# Ordinary conversation with no secret in it: every message flagged there is a false positive.
LOCOMO = sorted((DATASETS / "locomo-dev").glob("*/conversation.jsonl"))


@dataclass
class Scores(Counts):
    """Span counts; recall counts labelled secrets found (``tp_labels``), not spans."""

    tp_labels: int = 0
    kind_agree: int = 0

    @property
    def recall(self) -> float:
        found = self.tp_labels
        return found / (found + self.fn) if found + self.fn else 1.0


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def evaluate(lines: list[dict]) -> Scores:
    """Score ``find_secrets`` on parsed corpus lines."""
    s = Scores()
    for row in lines:
        text = row["text"]
        labels = []
        for sec in row["secrets"]:
            start = text.index(sec["value"])
            labels.append((start, start + len(sec["value"]), sec["kind"]))
        found = find_secrets(text)
        for start, end, kind in found:
            hit = [lab for lab in labels if _overlaps((start, end), lab[:2])]
            if hit:
                s.tp += 1
                s.kind_agree += any(lab[2] == kind for lab in hit)
            else:
                s.fp += 1
                s.errors.append(f"FP {kind}: {text[start:end]!r} in {text!r}")
        for start, end, kind in labels:
            if any(_overlaps((start, end), f[:2]) for f in found):
                s.tp_labels += 1
            else:
                s.fn += 1
                s.errors.append(f"FN {kind}: {text[start:end]!r} in {text!r}")
    return s


def load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def prose_flagged(paths: list[Path] = LOCOMO) -> tuple[int, list[str]]:
    """(messages read, the messages flagged) on ordinary conversation: every flag is a false positive."""
    texts = [row["text"] for path in paths for row in load(path)]
    return len(texts), [t for t in texts if find_secrets(t)]


def _report(name: str, paths: list[Path], show_errors: bool) -> None:
    lines = [row for path in paths for row in load(path)]
    s = evaluate(lines)
    positives = sum(1 for r in lines if r["secrets"])
    files = ", ".join(p.name for p in paths)
    print(f"{name}: {files} ({positives} positive lines, {len(lines) - positives} negative lines)")
    print(f"  precision: {s.precision:.3f}  ({s.tp} true / {s.tp + s.fp} detections)")
    print(f"  recall:    {s.recall:.3f}  ({s.tp_labels} found / {s.tp_labels + s.fn} labelled secrets)")
    print(f"  kind agreement: {s.kind_agree}/{s.tp}")
    for err in s.errors if show_errors else []:
        print("    " + err)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    show_errors = "--errors" in args
    files = [Path(a) for a in args if a != "--errors"]
    if files:
        _report("corpus", files, show_errors)
        return 0
    _report("tuning", TUNING, show_errors)
    _report("held-out", [HELDOUT], show_errors)
    read, flagged = prose_flagged()
    print(f"ordinary prose (LoCoMo, {len(LOCOMO)} conversations): {len(flagged)} of {read} messages flagged "
          f"({len(flagged) / read:.2%} false-positive rate)")
    for text in flagged if show_errors else []:
        print(f"    FP {redact(text)!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
