"""The labels of ``rules_feedback.jsonl`` (the standing-rule set), checked by ``bench/check_datasets.py``.

Well-formed rows that ``bench/rules_eval.py`` can load; a rule row (``r01``…) carries a
``topic`` of the procedural catalog or ``custom``, a non-rule row (``n01``…) a documented
``trap``; each kind numbered in file order, the kinds interleaved (``r01, n01, r02`` …, so
``--limit N`` takes both); one text once (case and spacing aside). WRITE_POLICY_LABELS.md,
"Standing rules", is the schema.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memory.layers.procedural import CUSTOM, TOPICS

NAME = "rules_feedback.jsonl"
TRAPS = {"one_off", "question", "someone_else", "hypothetical", "quoted", "fact", "small_talk"}
_BASE = {"id", "text", "rule"}


def _shape_problem(r: Any) -> str | None:
    """Why a row cannot be read as a labelled message, or None."""
    if not isinstance(r, dict) or not _BASE <= set(r):
        return f"a row needs the fields {sorted(_BASE)}"
    if not isinstance(r["rule"], bool):
        return "rule must be true or false"
    label = "topic" if r["rule"] else "trap"
    if set(r) != _BASE | {label}:
        return f"fields {sorted(r)}: a {'rule' if r['rule'] else 'non-rule'} row has exactly {sorted(_BASE | {label})}"
    if not (isinstance(r["text"], str) and r["text"].strip()):
        return "text must be non-empty"
    if r["rule"] and r["topic"] not in TOPICS | {CUSTOM}:
        return f"unknown topic {r['topic']!r} (the catalog's, or {CUSTOM!r})"
    if not r["rule"] and r["trap"] not in TRAPS:
        return f"unknown trap {r['trap']!r}"
    return None


def _kind(r: Any) -> bool:
    """Rule (True) or not: the label when it is one, else what the id says, so one bad row shifts no others."""
    if isinstance(r, dict) and isinstance(r.get("rule"), bool):
        return bool(r["rule"])
    return isinstance(r, dict) and str(r.get("id", "")).startswith("r")


def check_rules_feedback(root: Path, want: dict[str, Any]) -> list[str]:
    rows = [json.loads(line) for line in (root / NAME).read_text(encoding="utf-8").splitlines() if line.strip()]
    out = [f"{NAME}: {len(rows)} rows, expected at least {want['min_rows']}"] if len(rows) < want.get("min_rows", 0) else []
    left = {True: sum(map(_kind, rows)), False: sum(not _kind(r) for r in rows)}
    count = {True: 0, False: 0}
    seen_texts: set[str] = set()
    previous: bool | None = None
    for n, r in enumerate(rows, 1):
        where = f"{NAME}:{n}: {r.get('id') if isinstance(r, dict) else repr(r)}"
        kind = _kind(r)
        count[kind] += 1
        left[kind] -= 1
        expected_id = f"{'r' if kind else 'n'}{count[kind]:02d}"
        problem = _shape_problem(r)
        plain = " ".join(r["text"].lower().split()) if problem is None else None
        problems = [
            (problem is not None, problem),
            (isinstance(r, dict) and r.get("id") != expected_id, f"id out of order (expected {expected_id})"),
            (previous is kind and left[not kind] > 0, "two rows of one kind in a row while the other kind has rows left"),
            (plain in seen_texts, "text used twice"),
        ]
        out += [f"{where}: {what}" for bad, what in problems if bad]
        if plain is not None:
            seen_texts.add(plain)
        previous = kind
    return out
