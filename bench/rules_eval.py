"""Precision and recall of standing-rule detection on the labelled feedback set.

``bench/datasets/rules_feedback.jsonl``: one user message a line, labelled ``rule``
(it tells the assistant how to answer from now on; ``topic`` is the procedural
catalog's topic, or ``custom``) or not (``trap`` says why: a one-off request, a
question, someone else's wish, a hypothetical or quotation, a fact, small talk).
A rule message is a hit when a rule is found in it, with the labelled topic when
that is a catalog one; any rule from another message is a false positive, as a
false rule changes every later answer. Scored for the per-turn patterns and, with
``--chat-model``, for the chat model's session-end proposals after grounding
(``memory/write_policy/llm_rules.py``). The set was written by someone who knew the
patterns: their figure here is not a held-out one. Run through
``python -m bench.extraction_eval``, which prints it after the fact sets.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from langchain_core.language_models import BaseChatModel

from bench.scores import Counts
from memory.layers.base import LoggedMessage
from memory.layers.procedural import CUSTOM, Feedback, detect_feedback, model_feedback
from memory.write_policy.llm import session_answer
from memory.write_policy.llm_rules import grounded_rules

FILE = "rules_feedback.jsonl"
_TIME = datetime(2025, 1, 1, tzinfo=UTC)
Proposer = Callable[[LoggedMessage], list[Feedback]]


@dataclass(frozen=True)
class RuleCase:
    """One labelled message."""

    id: str
    text: str
    rule: bool
    topic: str | None = None
    trap: str | None = None


@dataclass
class RuleScores(Counts):
    """Message-level counts; ``from_traps`` counts the non-rule messages a rule came from, per trap."""

    tn: int = 0
    from_traps: dict[str, int] = field(default_factory=lambda: defaultdict(int))


def load_rule_cases(root: Path) -> list[RuleCase]:
    """The labelled feedback messages under ``root`` (none when the file is absent)."""
    path = root / FILE
    if not path.exists():
        return []
    return [RuleCase(**json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def pattern_proposer() -> Proposer:
    """The per-turn patterns of the procedural layer."""
    return detect_feedback


def model_proposer(chat_model: BaseChatModel, max_tokens: int | None = None) -> Proposer:
    """The chat model's session-end rules for a one-message session, grounded as the layer grounds them."""

    def propose(message: LoggedMessage) -> list[Feedback]:
        answer = session_answer(chat_model, [message], max_tokens)
        return [model_feedback(p) for p in grounded_rules(answer.rules, [message])]

    return propose


def evaluate_rules(propose: Proposer, cases: Sequence[RuleCase]) -> RuleScores:
    """Score ``propose`` on ``cases``, one message at a time."""
    scores = RuleScores()
    for case in cases:
        found = propose(LoggedMessage(id=case.id, thread="eval", time=_TIME, role="user", text=case.text))
        topics = {f.topic for f in found}
        if case.rule and found and (case.topic in (None, CUSTOM) or case.topic in topics):
            scores.tp += 1
            continue
        if found:
            scores.fp += 1
            if case.trap:
                scores.from_traps[case.trap] += 1
        if case.rule:
            scores.fn += 1
        elif not found:
            scores.tn += 1
            continue
        got = [f"{f.rule} [{f.topic}]" for f in found] or ["nothing"]
        scores.errors.append(f"{case.id} {case.text!r}: expected {case.topic or case.trap}, got {got}")
    return scores


def report(rows: Sequence[tuple[str, Proposer]], cases: Sequence[RuleCase], show_errors: bool = False) -> None:
    """Print one line per proposer (named ``feedback-...`` so they never read as fact rows)."""
    if not cases:
        return
    print(f"\n{'standing rules':<24} {'size':>5} {'rules':>5} {'precision':>9} {'recall':>7} "
          f"{'tp':>4} {'fp':>4} {'fn':>4} {'tn':>4}  rules from traps")
    for name, propose in rows:
        s = evaluate_rules(propose, cases)
        traps = ", ".join(f"{t} {n}" for t, n in sorted(s.from_traps.items())) or "-"
        print(f"{name:<24} {len(cases):>5} {sum(c.rule for c in cases):>5} {s.precision:>9.3f} {s.recall:>7.3f} "
              f"{s.tp:>4} {s.fp:>4} {s.fn:>4} {s.tn:>4}  {traps}")
        if show_errors:
            for line in s.errors:
                print("   ", line)
