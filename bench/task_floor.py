"""The task-episode floor (``task_floor``), measured on a labelled set of task pairs.

Data: ``bench/datasets/task_pairs.tsv``, 64 pairs written by hand before any score was
computed: a past task, a new task, and whether the past episode is a useful example for
the new one (1: the same kind of work in other words or details; 0: another kind,
often sharing words, "write a cover letter" beside "write a haiku"). For every pair the
cosine of the two tasks is computed with the embedder the store would use; each floor
then gives a precision (recalled examples that were useful), a recall (useful examples
recalled) and their F1. The floor is a precision knob: an example shown wrongly teaches
the wrong approach, so the report names the lowest floor with precision 1.0 too.

    python -m bench.task_floor [--embedding-model local]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from memory.text import cosine_similarities
from models.loader import load_embeddings

DATA = Path(__file__).parent / "datasets" / "task_pairs.tsv"
FLOORS = [round(0.40 + 0.05 * i, 2) for i in range(11)]


def pairs(path: Path = DATA) -> list[tuple[str, str, int]]:
    """The labelled pairs: (past task, new task, 1 or 0)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            past, new, label = line.split("\t")
            out.append((past, new, int(label)))
    return out


def sweep(scored: list[tuple[float, int]]) -> list[tuple[float, float, float, float]]:
    """(floor, precision, recall, F1) at each floor of ``FLOORS``."""
    rows = []
    positives = sum(label for _, label in scored)
    for floor in FLOORS:
        hits = [label for cos, label in scored if cos >= floor]
        p = sum(hits) / len(hits) if hits else 1.0
        r = sum(hits) / positives if positives else 0.0
        rows.append((floor, p, r, 2 * p * r / (p + r) if p + r else 0.0))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--embedding-model", default="local")
    args = ap.parse_args()
    emb = load_embeddings(args.embedding_model)
    labelled = pairs()
    scored = [(cosine_similarities(emb, past, [new])[0], label) for past, new, label in labelled]
    print(f"{len(labelled)} pairs ({sum(lab for _, _, lab in labelled)} useful), embeddings {args.embedding_model}")
    for name, want in (("useful", 1), ("not useful", 0)):
        cos = sorted(c for c, label in scored if label == want)
        print(f"  cosine of {name} pairs: min {cos[0]:.2f}  median {cos[len(cos) // 2]:.2f}  max {cos[-1]:.2f}")
    print("floor  precision  recall  F1")
    rows = sweep(scored)
    for floor, p, r, f1 in rows:
        print(f"{floor:5.2f}  {p:9.2f}  {r:6.2f}  {f1:4.2f}")
    best = max(rows, key=lambda row: (row[3], row[0]))
    exact = next((row for row in rows if row[1] == 1.0), None)
    print(f"best F1 at floor {best[0]:.2f}; lowest floor with precision 1.0: "
          + (f"{exact[0]:.2f} (recall {exact[2]:.2f})" if exact else "none"))


if __name__ == "__main__":
    main()
