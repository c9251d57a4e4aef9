"""Precision and recall of the fact extractors on the labelled write-policy sets.

Each line of a set is one message, labelled ``durable`` (a fact about the speaker
should be stored; ``keys`` name the profile slots it must fill) or not (``trap``
says why: question, hypothetical, role-play, injection, one-off state, someone
else, small talk). A durable message is a hit when the grounded output is
non-empty, fills every labelled slot and no slot in ``not_keys`` ("my sister
lives in Sydney" must not become the user's location). Any fact stored from a
non-durable message is a false positive. Precision matters most: a wrong memory
is worse than a missing one.

The sets (see bench/datasets/WRITE_POLICY_LABELS.md): ``tuning`` (everything the
extractor was tuned on, including the parse policy's own validation messages and
the tune half of the second LoCoMo labelling, and the tune split of any
``write_policy_train_*.jsonl``), ``held-out`` (messages in other
voices never tuned on), ``locomo`` (the held-out LoCoMo turns of both
labellings, natural conversation, never tuned on) and ``fresh`` (200 messages written and
labelled blind to the extractor, all held out, never tuned on).

With ``--chat-model`` the LLM extractor is scored too (its session-end call, one
message at a time, answers capped at ``--max-tokens``); ``--limit`` scores the first
N messages of each set, for a slow model. Standing rules are scored after the fact
sets (``bench/rules_eval.py``).

    python -m bench.extraction_eval [--chat-model SPEC] [--limit N] [--show-errors] [--by-category]
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from bench import DATASETS
from bench.learned_gate.extractor import GatedPatternExtractor
from bench.learned_gate.gate import load_gate
from bench.rules_eval import load_rule_cases, model_proposer, pattern_proposer
from bench.rules_eval import report as report_rules
from bench.scores import Counts
from memory.layers.base import LoggedMessage
from memory.write_policy.base import CandidateFact, FactExtractor
from memory.write_policy.grounding import ground
from memory.write_policy.llm import LLMFactExtractor
from memory.write_policy.pattern_extractor import PatternFactExtractor

DATA = DATASETS / "write_policy.jsonl"
_TIME = datetime(2025, 1, 1, tzinfo=UTC)
SET_NAMES = ("tuning", "held-out", "locomo", "fresh")
NEVER_STORED = ("question", "hypothetical", "roleplay", "injection")  # traps that must store nothing


@dataclass(frozen=True)
class Case:
    """One labelled message."""

    id: str
    text: str
    durable: bool
    key: str | None = None
    keys: tuple[str, ...] = ()
    not_keys: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    trap: str | None = None
    split: str = "tune"
    speaker: str | None = None

    @property
    def required_keys(self) -> set[str]:
        return set(self.keys) | ({self.key} if self.key else set())


@dataclass
class Scores(Counts):
    """Message-level counts, with per-category and per-trap breakdowns."""

    tn: int = 0
    recall_by_category: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    precision_by_category: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    stored_by_trap: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    ms_per_message: float = 0.0  # extraction and grounding, the pipeline already loaded

    def stored_from(self, traps: Sequence[str] = NEVER_STORED) -> int:
        """Messages of these trap kinds from which something was stored."""
        return sum(self.stored_by_trap[t][0] for t in traps if t in self.stored_by_trap)


def load_cases(path: Path = DATA, split: str | None = None) -> list[Case]:
    """The cases of one file, optionally only one split ('tune' or 'heldout')."""
    with path.open(encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    cases = [Case(**{k: tuple(v) if isinstance(v, list) else v for k, v in row.items()}) for row in rows]
    return [c for c in cases if split is None or c.split == split]


def load_set(name: str, root: Path = DATASETS) -> list[Case]:
    """One of SET_NAMES, read from ``root`` (the tests pass a small copy)."""
    if name == "tuning":
        return [*load_cases(root / DATA.name), *load_cases(root / "write_policy_heldout.jsonl"),
                *load_cases(root / "write_policy_voices.jsonl", "tune"),
                *load_cases(root / "write_policy_locomo.jsonl", "tune"),
                *load_cases(root / "write_policy_locomo_b.jsonl", "tune"),
                *[c for n in ("", "2", "3", "4", "5", "6", "7", "8")
                   for c in load_cases(root / f"write_policy_parse_dev{n}.jsonl")],
                *[c for path in sorted(root.glob("write_policy_train_*.jsonl")) for c in load_cases(path, "tune")]]
    if name == "held-out":
        return load_cases(root / "write_policy_voices.jsonl", "heldout")
    if name == "locomo":
        return [*load_cases(root / "write_policy_locomo.jsonl", "heldout"),
                *load_cases(root / "write_policy_locomo_b.jsonl", "heldout")]
    if name == "fresh":
        return load_cases(root / "write_policy_fresh.jsonl")
    raise ValueError(f"unknown set {name!r}; expected one of {', '.join(SET_NAMES)}")


def evaluate(extractor: FactExtractor, cases: Sequence[Case]) -> Scores:
    """Score ``extractor`` on ``cases`` (grounding applied, as the semantic layer does)."""
    scores = Scores()
    extractor.extract([LoggedMessage(id="warm", thread="eval", time=_TIME, role="user", text="I live here.")])
    started = time.perf_counter()
    for case in cases:
        messages = [LoggedMessage(id=case.id, thread="eval", time=_TIME, role="user", text=case.text)]
        tally(scores, case, ground(extractor.extract(messages), messages))
    scores.ms_per_message = 1000 * (time.perf_counter() - started) / max(len(cases), 1)
    return scores


def is_hit(case: Case, stored: bool, keys: set[str]) -> bool:
    """Whether storing something with these slot ``keys`` gets ``case`` right: every labelled slot, no forbidden one."""
    return stored and case.required_keys <= keys and not keys & set(case.not_keys)


def tally(scores: Scores, case: Case, facts: Sequence[CandidateFact]) -> None:
    """Count one message whose grounded output is ``facts`` (shared with bench/learned_gate/train.py)."""
    hit = is_hit(case, bool(facts), {f.key for f in facts if f.key})
    for category in {f.category for f in facts}:
        scores.precision_by_category[category][0 if hit and case.durable else 1] += 1
    for category in case.categories:
        scores.recall_by_category[category][0 if hit else 1] += 1
    if case.trap:
        scores.stored_by_trap[case.trap][0 if facts else 1] += 1
    if case.durable and hit:
        scores.tp += 1
        return
    if facts:
        scores.fp += 1
    if case.durable:
        scores.fn += 1
    elif not facts:
        scores.tn += 1
        return
    got = [f"{f.text} [{f.key}]" for f in facts] or ["nothing"]
    want = sorted(case.required_keys) or case.categories or case.trap
    scores.errors.append(f"{case.id} {case.text!r}: expected {want}, got {got}")


def _extractors(chat_model: str | None, max_tokens: int | None = None) -> list[tuple[str, FactExtractor]]:
    found: list[tuple[str, FactExtractor]] = [("rules", PatternFactExtractor())]
    gate = load_gate()  # the learned gate (bench/learned_gate/gate.py) on top of the rules
    if gate is not None:
        found.append(("rules+gate", GatedPatternExtractor(gate)))
    if chat_model:
        try:
            from models.loader import load_chat_model

            found.append((f"llm:{chat_model}", LLMFactExtractor(load_chat_model(chat_model), max_tokens)))
        except Exception as exc:  # the model may be missing on this machine: report, don't crash
            print(f"skipping the LLM extractor ({chat_model}): {exc}")
    return found


def _ratio(pair: list[int]) -> str:
    good, bad = pair
    return f"{good / (good + bad):.2f} ({good + bad})" if good + bad else "-"


def _breakdown(s: Scores) -> None:
    cats = sorted(set(s.recall_by_category) | set(s.precision_by_category))
    for c in cats:
        prec = _ratio(s.precision_by_category[c]) if c in s.precision_by_category else "-"
        rec = _ratio(s.recall_by_category[c]) if c in s.recall_by_category else "-"
        print(f"    {c:<12} precision {prec:<11} recall {rec}")
    traps = ", ".join(f"{t} {v[0]}/{v[0] + v[1]}" for t, v in sorted(s.stored_by_trap.items()))
    print(f"    stored from traps: {traps or '-'}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=SET_NAMES, action="append", help="only these sets (default: all)")
    parser.add_argument("--data", type=Path, default=None, help="score one labelled file instead of the sets")
    parser.add_argument("--datasets", type=Path, default=DATASETS, help="folder of the sets (default bench/datasets)")
    parser.add_argument("--chat-model", default=None, help="also evaluate the LLM extractor with this model spec")
    parser.add_argument("--max-tokens", type=int, default=1024, help="longest LLM extraction answer (default 1024)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N messages of each set")
    parser.add_argument("--show-errors", action="store_true")
    parser.add_argument("--by-category", action="store_true", help="precision/recall per category, traps stored")
    args = parser.parse_args(argv)
    sets = [(str(args.data), load_cases(args.data))] if args.data else [(n, load_set(n, args.datasets)) for n in args.set or SET_NAMES]
    sets = [(name, cases[: args.limit]) for name, cases in sets]
    extractors = _extractors(args.chat_model, args.max_tokens)
    print(f"{'extractor':<16} {'set':<10} {'size':>5} {'durable':>7} {'precision':>9} {'recall':>7} "
          f"{'tp':>4} {'fp':>4} {'fn':>4} {'tn':>4} {'traps stored':>12} {'ms/msg':>6}")
    for set_name, cases in sets:
        for name, extractor in extractors:
            s = evaluate(extractor, cases)
            durable = sum(c.durable for c in cases)
            print(f"{name:<16} {set_name:<10} {len(cases):>5} {durable:>7} {s.precision:>9.3f} {s.recall:>7.3f} "
                  f"{s.tp:>4} {s.fp:>4} {s.fn:>4} {s.tn:>4} {s.stored_from():>12} {s.ms_per_message:>6.1f}")
            if args.by_category:
                _breakdown(s)
            if args.show_errors:
                for line in s.errors:
                    print("   ", line)
    if not args.data:
        proposers = [("feedback-patterns", pattern_proposer())]
        proposers += [(f"feedback-{name}", model_proposer(e.chat_model, args.max_tokens))
                      for name, e in extractors if isinstance(e, LLMFactExtractor) and e.chat_model is not None]
        report_rules(proposers, load_rule_cases(args.datasets)[: args.limit], args.show_errors)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
