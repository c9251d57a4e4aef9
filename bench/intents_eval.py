"""Precision and recall of the plain-words memory command rules (nodes/intents.py).

Run ``python -m bench.intents_eval [LABELLED.tsv]``. Each line is
``split<TAB>label<TAB>sentence``; label is forget, show, memory_off, memory_on or
none. A recognised command counts as a true positive only with the right kind.
The ``heldout`` split was never looked at while the rules were tuned: its
figures are the honest ones.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from bench import DATASETS
from bench.scores import Counts
from nodes.intents import parse_intent

DEFAULT_SET = DATASETS / "intents_labelled.tsv"


@dataclass
class Scores(Counts):
    """Counts for one split, with how many sentences it has."""

    total: int = 0


def load(path: Path = DEFAULT_SET) -> list[tuple[str, str, str]]:
    """(split, label, sentence) rows, comments skipped."""
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 3:
            raise ValueError(f"{path}:{n}: expected split<TAB>label<TAB>sentence")
        rows.append((parts[0], parts[1], parts[2]))
    return rows


def score(rows: list[tuple[str, str, str]]) -> dict[str, Scores]:
    """Scores per split."""
    out: dict[str, Scores] = {}
    for split, label, text in rows:
        s = out.setdefault(split, Scores())
        s.total += 1
        got = parse_intent(text)
        kind = got.kind if got else "none"
        if kind != "none" and kind == label:
            s.tp += 1
            continue
        if kind != "none":
            s.fp += 1
        if label != "none":
            s.fn += 1
        if kind != label:
            s.errors.append(f"{split}: {text!r} labelled {label}, got {kind}")
    return out


def main(argv: list[str]) -> int:
    """Print precision and recall per split, and every error."""
    rows = load(Path(argv[0]) if argv else DEFAULT_SET)
    for split, s in sorted(score(rows).items()):
        counts = f"(tp={s.tp} fp={s.fp} fn={s.fn})"
        print(f"{split:8s} n={s.total:4d}  precision={s.precision:.3f}  recall={s.recall:.3f}  {counts}")
        for err in s.errors:
            print(f"  {err}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
