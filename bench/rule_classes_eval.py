"""Precision and recall of the no-model rules on four classes of message (issue 45).

Run ``python -m bench.rule_classes_eval [--split dev|heldout] [--from-id N] [--show-errors]`` on
``bench/datasets/rule_classes.jsonl`` (labels and split rule: ``WRITE_POLICY_LABELS.md``).
Each class is scored on its own rows, traps included; a trap expects nothing.

Matching, per item (a message may expect several):

- ``name``: what the rule extractor would store (extract, screen, ground) under the
  ``name`` or ``preferred_name`` slot; right when equal to an expected name, ignoring case.
- ``ended``: stored candidates that end something (``negation_of`` set); right when every
  word of an expected ``ends`` is in the candidate's value, text or ``negation_of``.
- ``instruction``: rules the procedural layer proposes for the message
  (``memory.layers.procedural.detect_feedback``); right when the rule's text holds at least
  half of the gist's content words (compared on their first five letters).
- ``person``: ``memory.write_policy.people.mentions_in``; right when name (ignoring case;
  ``None`` equals ``None``) and relation are both equal. Skipped while that module is missing.

A prediction that matches no expected item is a false positive; an expected item that no
prediction matches is a miss. Precision is the figure to read first: a wrong memory costs
more than a missing one.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench import DATASETS
from bench.scores import Counts
from memory.layers.base import LoggedMessage
from memory.layers.procedural import detect_feedback
from memory.write_policy.base import CandidateFact
from memory.write_policy.grounding import ground
from memory.write_policy.pattern_extractor import PatternFactExtractor
from memory.write_policy.pipeline import screen

DEFAULT_SET = DATASETS / "rule_classes.jsonl"
CLASSES = ("name", "person", "ended", "instruction")
_EXTRACTOR = PatternFactExtractor()
_STOP = {"the", "and", "with", "for", "not", "don't", "dont", "never", "always", "use", "using", "me", "my", "your",
         "you", "in", "on", "of", "to", "a", "an", "no", "more", "than", "at", "as", "i", "do", "be", "it", "them"}
Item = dict[str, Any]


def load(path: Path = DEFAULT_SET) -> list[Item]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _message(text: str) -> LoggedMessage:
    return LoggedMessage(id="m1", thread="t", time=datetime(2026, 1, 1, tzinfo=UTC), role="user", text=text)


def stored_candidates(text: str) -> list[CandidateFact]:
    """What the rule extractor would hand to the store for this one message."""
    msg = _message(text)
    return ground(screen(_EXTRACTOR.extract([msg])), [msg])


def names(text: str) -> list[str]:
    return [f.value or "" for f in stored_candidates(text) if f.key in ("name", "preferred_name")]


def endings(text: str) -> list[str]:
    return [" ".join(filter(None, (f.value, f.text, f.negation_of))) for f in stored_candidates(text)
            if f.negation_of is not None]


def instructions(text: str) -> list[str]:
    return [f.rule for f in detect_feedback(_message(text))]


def _stem(word: str) -> str:
    return word[:5]


def _content(text: str) -> set[str]:
    return {_stem(w) for w in re.findall(r"[\w'/-]+", text.lower()) if w not in _STOP and len(w) > 1}


def _name_match(pred: str, want: Item) -> bool:
    return pred.strip().lower() == str(want["name"]).lower()


def _ended_match(pred: str, want: Item) -> bool:
    words = set(re.findall(r"[\w'-]+", pred.lower()))
    return all(w in words or w in pred.lower() for w in want["ends"].lower().split())


def _rule_match(pred: str, want: Item) -> bool:
    gist = _content(want["rule"])
    return bool(gist) and len(gist & _content(pred)) * 2 >= len(gist)


def _person_match(pred: Any, want: Item) -> bool:
    same_name = (pred.name or "").lower() == (want["name"] or "").lower()
    return same_name and pred.relation == want["relation"]


def _people() -> Callable[[str], list[Any]] | None:
    try:
        from memory.write_policy.people import mentions_in  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    return mentions_in  # type: ignore[no-any-return]


Adapter = tuple[Callable[[str], Sequence[Any]], Callable[[Any, Item], bool]]


def adapters() -> dict[str, Adapter | None]:
    people = _people()
    return {
        "name": (names, _name_match),
        "person": (people, _person_match) if people is not None else None,
        "ended": (endings, _ended_match),
        "instruction": (instructions, _rule_match),
    }


def score(rows: Sequence[Item], adapter: Adapter) -> Counts:
    predict, match = adapter
    counts = Counts()
    for row in rows:
        preds, wants = list(predict(row["text"])), row["expect"]
        hit = [any(match(p, w) for p in preds) for w in wants]
        counts.tp += sum(hit)
        counts.fn += len(hit) - sum(hit)
        counts.errors += [f"{row['id']} missed {w}: {row['text']}" for w, h in zip(wants, hit) if not h]
        for p in preds:
            if not any(match(p, w) for w in wants):
                counts.fp += 1
                counts.errors.append(f"{row['id']} wrong {p!r}: {row['text']}")
    return counts


def row_number(row: Item) -> int:
    """``rc-289`` -> 289: a batch is a range of ids (``WRITE_POLICY_LABELS.md``)."""
    return int(str(row["id"]).rsplit("-", 1)[-1])


def report(rows: Sequence[Item], split: str | None, show_errors: bool,
           from_id: int = 0, to_id: int | None = None) -> dict[str, Counts | None]:
    chosen = [r for r in rows if (split is None or r["split"] == split)
              and from_id <= row_number(r) and (to_id is None or row_number(r) <= to_id)]
    out: dict[str, Counts | None] = {}
    batch = f", ids {from_id}..{to_id if to_id is not None else 'end'}" if from_id or to_id is not None else ""
    print(f"split: {split or 'all'}{batch} ({len(chosen)} messages)")
    for cls, adapter in adapters().items():
        mine = [r for r in chosen if r["class"] == cls]
        if adapter is None:
            print(f"{cls}: not built")
            out[cls] = None
            continue
        c = score(mine, adapter)
        out[cls] = c
        traps = sum(not r["expect"] for r in mine)
        print(f"{cls:12s} P {c.precision:.3f}  R {c.recall:.3f}  tp {c.tp} fp {c.fp} fn {c.fn}  "
              f"({len(mine)} messages, {traps} traps)")
        if show_errors:
            for line in c.errors:
                print("    " + line)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=("dev", "heldout"), default=None, help="one split (default: both)")
    parser.add_argument("--show-errors", action="store_true", help="list every miss and false match")
    parser.add_argument("--from-id", type=int, default=0, metavar="N", help="only rows rc-N and later (one batch)")
    parser.add_argument("--to-id", type=int, default=None, metavar="N", help="only rows up to rc-N")
    parser.add_argument("--set", type=Path, default=DEFAULT_SET, help="labelled set (JSON lines)")
    args = parser.parse_args(argv)
    report(load(args.set), args.split, args.show_errors, args.from_id, args.to_id)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
