"""Precision and recall of the answer check's lexicon on labelled reply sentences.

    python -m bench.answer_check_lexicon            # dev and held-out
    python -m bench.answer_check_lexicon --errors   # also list the misses (dev only)

The fixtures (bench/datasets/answer_check/*.txt) pair a stored memory with reply
sentences labelled "+" (conflicts) or "-" (does not). The dev part is what the
lexicon is tuned on; the held-out part is only measured.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass

from bench import DATASETS
from nodes.check.checks import Check
from nodes.check.memories import gather_checks

FIXTURES = DATASETS / "answer_check"


@dataclass(frozen=True)
class Labelled:
    memory: str
    text: str
    conflict: bool


def load_labelled(name: str) -> list[Labelled]:
    """The labelled sentences of one fixture file ("dev" or "heldout")."""
    out, memory = [], ""
    for line in (FIXTURES / f"{name}.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("# memory:"):
            memory = line.split(":", 1)[1].strip()
        elif line[:2] in ("+ ", "- "):
            out.append(Labelled(memory, line[2:].strip(), line[0] == "+"))
    return out


def memory_item(memory: str) -> dict:
    """A recalled-memory dict as the semantic layer would give it (profile slot or fact)."""
    lower = memory.lower()
    if lower.startswith("the user is allergic to"):
        return {"kind": "profile", "key": "allergies", "text": memory, "meta": {"value": memory[24:].rstrip(".")}}
    if lower.startswith(("the user is ", "the user follows")) and "intolerant" not in lower:
        return {"kind": "profile", "key": "diet", "text": memory, "meta": {"value": memory}}
    return {"kind": "fact", "key": None, "text": memory, "meta": {"category": "diet"}}


def checks_for(memory: str) -> list[Check]:
    checks, _ = gather_checks([memory_item(memory)])
    assert checks, f"no check made from memory {memory!r}"
    return checks


def predict(item: Labelled) -> list[str]:
    return [found for check in checks_for(item.memory) for found in check.find(item.text)]


def scores(items: list[Labelled]) -> dict[str, float]:
    tp = fp = fn = tn = 0
    for item in items:
        hit = bool(predict(item))
        tp += hit and item.conflict
        fp += hit and not item.conflict
        fn += (not hit) and item.conflict
        tn += (not hit) and not item.conflict
    return {
        "n": len(items), "precision": tp / (tp + fp) if tp + fp else 1.0, "recall": tp / (tp + fn) if tp + fn else 1.0,
        "tp": tp, "fp": fp, "fn": fn, "tn": tn,
    }


def check_timing(items: list[Labelled], repeat: int = 20) -> float:
    """p50 milliseconds to run every check of a memory over one reply (checks built beforehand)."""
    built = [(checks_for(i.memory), i.text * 4) for i in items]  # ~4 sentences: a short reply
    times = []
    for _ in range(repeat):
        for checks, text in built:
            t0 = time.perf_counter()
            for check in checks:
                check.find(text)
            times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", action="store_true", help="list the dev sentences the lexicon gets wrong")
    args = parser.parse_args()
    for name in ("dev", "heldout"):
        s = scores(load_labelled(name))
        print(f"{name:8} n={s['n']:3}  precision={s['precision']:.3f}  recall={s['recall']:.3f}  "
              f"(tp={s['tp']} fp={s['fp']} fn={s['fn']} tn={s['tn']})")
    print(f"check p50: {check_timing(load_labelled('dev')):.3f} ms per reply")
    if args.errors:
        for item in load_labelled("dev"):
            found = predict(item)
            if bool(found) != item.conflict:
                print(f"  {'MISS' if item.conflict else 'FALSE'} [{item.memory}] {item.text}  -> {found}")


if __name__ == "__main__":
    main()
