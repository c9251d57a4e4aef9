"""Precision and recall of the secret detector on the hand-written corpus.

Run ``python -m bench.secrets_eval [CORPUS]``. Each corpus line is
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

from bench.scores import Counts
from nodes.privacy.secrets import find_secrets

DEFAULT_CORPUS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "secrets_corpus.jsonl"


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


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else DEFAULT_CORPUS
    lines = load(path)
    s = evaluate(lines)
    positives = sum(1 for r in lines if r["secrets"])
    print(f"corpus: {path} ({positives} positive lines, {len(lines) - positives} negative lines)")
    print(f"precision: {s.precision:.3f}  ({s.tp} true / {s.tp + s.fp} detections)")
    print(f"recall:    {s.recall:.3f}  ({s.tp_labels} found / {s.tp_labels + s.fn} labelled secrets)")
    print(f"kind agreement: {s.kind_agree}/{s.tp}")
    for err in s.errors:
        print("  " + err)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
