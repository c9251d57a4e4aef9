"""How far a second, independent labelling agrees with the held-out labels: the ceiling of any extractor.

A second hand labelled the held-out messages (``fresh`` and the held-out LoCoMo turns) from their text and
the written guide alone, blind to the first labels and to the extractor
(``bench/datasets/heldout_second_labels.jsonl``). Scoring that labelling as if it were an extractor,
with the same rule as ``bench.extraction_eval`` (a durable message is a hit when the second hand also calls it
durable, names every required slot and none of the forbidden ones), says what precision and recall a careful
human reaches against the same labels. A target above that ceiling measures the labels' noise, not the
extractor.

    python -m bench.label_agreement
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

from bench import DATASETS
from bench.extraction_eval import Case, is_hit, load_set
from bench.scores import Counts

SECOND = DATASETS / "heldout_second_labels.jsonl"
SETS = ("fresh", "locomo")


def load_second(path: Path = SECOND) -> dict[str, dict]:
    """The second labelling, by message id."""
    with path.open(encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    return {row["id"]: row for row in rows}


def agreement(cases: Sequence[Case], second: dict[str, dict]) -> tuple[Counts, float]:
    """The second labelling scored against ``cases``, and Cohen's kappa on durable-or-not."""
    counts = Counts()
    both = first_only = second_only = neither = 0
    for case in cases:
        other = second[case.id]
        said = bool(other["durable"])
        hit = is_hit(case, said, set(other.get("keys") or []))
        both += case.durable and said
        first_only += case.durable and not said
        second_only += said and not case.durable
        neither += not case.durable and not said
        if case.durable and hit:
            counts.tp += 1
            continue
        counts.fp += said
        counts.fn += case.durable
    return counts, _kappa(both, first_only, second_only, neither)


def _kappa(both: int, first_only: int, second_only: int, neither: int) -> float:
    n = both + first_only + second_only + neither
    observed = (both + neither) / n
    first_yes, second_yes = (both + first_only) / n, (both + second_only) / n
    chance = first_yes * second_yes + (1 - first_yes) * (1 - second_yes)
    return (observed - chance) / (1 - chance) if chance < 1 else 1.0


def main(argv: Sequence[str] | None = None) -> int:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)
    second = load_second()
    print(f"{'set':<8} {'size':>5} {'durable':>7} {'precision':>9} {'recall':>7} {'kappa':>6}")
    for name in SETS:
        cases = load_set(name)
        counts, kappa = agreement(cases, second)
        durable = sum(c.durable for c in cases)
        print(f"{name:<8} {len(cases):>5} {durable:>7} {counts.precision:>9.3f} {counts.recall:>7.3f} {kappa:>6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
