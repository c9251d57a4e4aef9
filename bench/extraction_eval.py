"""Precision and recall of the fact extractors on the labelled write-policy set.

Each line of ``tests/fixtures/write_policy.jsonl`` is one user message, labelled
``durable`` (a fact should be stored; ``key`` names the profile slot when one
applies) or not (mood, request, small talk: nothing may be stored). A message
counts as a hit when the extractor's grounded output is non-empty and, for keyed
cases, fills the expected slot. Precision matters most: a wrong memory is worse
than a missing one.

    python -m bench.extraction_eval [--chat-model local] [--show-errors]
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Sequence

from nodes.extract.base import FactExtractor
from nodes.extract.grounding import ground
from nodes.extract.rules import RuleFactExtractor
from nodes.layers.base import LoggedMessage

DATA = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "write_policy.jsonl"
_TIME = datetime(2025, 1, 1, tzinfo=timezone.utc)


@dataclass(frozen=True)
class Case:
    id: str
    text: str
    durable: bool
    key: str | None


@dataclass
class Scores:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0


def load_cases(path: Path = DATA) -> list[Case]:
    with path.open(encoding="utf-8") as fh:
        return [Case(**json.loads(line)) for line in fh if line.strip()]


def evaluate(extractor: FactExtractor, cases: Sequence[Case]) -> Scores:
    scores = Scores()
    for case in cases:
        messages = [LoggedMessage(id=case.id, thread="eval", time=_TIME, role="user", text=case.text)]
        facts = ground(extractor.extract(messages), messages)
        keys = {f.key for f in facts}
        hit = bool(facts) and (case.key is None or case.key in keys)
        if case.durable and hit:
            scores.tp += 1
            continue
        if facts:
            scores.fp += 1
        if case.durable:
            scores.fn += 1
        elif not facts:
            scores.tn += 1
            continue
        got = [f"{f.text} [{f.key}]" for f in facts] or ["nothing"]
        scores.errors.append(f"{case.id} {case.text!r}: expected {case.key or case.durable}, got {got}")
    return scores


def _extractors(chat_model: str | None) -> list[tuple[str, FactExtractor]]:
    found: list[tuple[str, FactExtractor]] = [("rules", RuleFactExtractor())]
    if chat_model:
        try:
            from models.loader import load_chat_model
            from nodes.extract.llm import LLMFactExtractor

            found.append((f"llm:{chat_model}", LLMFactExtractor(load_chat_model(chat_model))))
        except Exception as exc:  # the model may be missing on this machine: report, don't crash
            print(f"skipping the LLM extractor ({chat_model}): {exc}")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--chat-model", default=None, help="also evaluate the LLM extractor with this model spec")
    parser.add_argument("--show-errors", action="store_true")
    args = parser.parse_args(argv)
    cases = load_cases(args.data)
    durable = sum(c.durable for c in cases)
    print(f"{len(cases)} messages ({durable} durable, {len(cases) - durable} not)")
    print(f"{'extractor':<20} {'precision':>9} {'recall':>7} {'tp':>4} {'fp':>4} {'fn':>4} {'tn':>4}")
    for name, extractor in _extractors(args.chat_model):
        s = evaluate(extractor, cases)
        print(f"{name:<20} {s.precision:>9.3f} {s.recall:>7.3f} {s.tp:>4} {s.fp:>4} {s.fn:>4} {s.tn:>4}")
        if args.show_errors:
            for line in s.errors:
                print("   ", line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
