"""The labels of ``rule_classes.jsonl`` (issue 45), checked by ``bench/check_datasets.py``.

Well-formed rows, ids ``rc-001``… in order, one text once, an ``expect`` shaped for its class,
and the split rule of ``WRITE_POLICY_LABELS.md``: within each class, in file order, rows
alternate ``dev``, ``heldout``, ``dev`` …
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

NAME = "rule_classes.jsonl"
FIELDS = {"id", "text", "class", "split", "expect"}
RELATIONS = {"partner", "ex_partner", "child", "parent", "sibling", "grandparent", "grandchild", "friend", "colleague",
             "pet", "other"}
_ITEM_FIELDS = {"name": {"name"}, "person": {"name", "relation", "species"}, "ended": {"ends"}, "instruction": {"rule"}}


def _item_problem(cls: str, item: Any) -> str | None:
    if not isinstance(item, dict) or set(item) != _ITEM_FIELDS[cls]:
        return f"an expected item must have the fields {sorted(_ITEM_FIELDS[cls])}"
    if cls == "person":
        ok = item["relation"] in RELATIONS and all(item[k] is None or isinstance(item[k], str) for k in ("name", "species"))
        return None if ok else "a person needs a known relation, and a name and species that are text or null"
    return None if all(isinstance(v, str) and v.strip() for v in item.values()) else "an expected item needs text"


def check_rule_classes(root: Path, want: dict[str, Any]) -> list[str]:
    rows = [json.loads(line) for line in (root / NAME).read_text(encoding="utf-8").splitlines() if line.strip()]
    out = [f"{NAME}: {len(rows)} rows, expected at least {want['min_rows']}"] if len(rows) < want.get("min_rows", 0) else []
    seen_texts: set[str] = set()
    per_class: dict[str, int] = {}
    for n, r in enumerate(rows, 1):
        where = f"{NAME}: {r.get('id')}"
        if set(r) != FIELDS or r["class"] not in _ITEM_FIELDS:
            out.append(f"{where}: fields {sorted(r)} or class {r.get('class')!r} not as documented")
            continue
        k = per_class[r["class"]] = per_class.get(r["class"], 0) + 1
        problems = [
            (r["id"] != f"rc-{n:03d}", f"id out of order (expected rc-{n:03d})"),
            (r["split"] != ("dev" if k % 2 else "heldout"), "split is not the alternating one of its class"),
            (r["text"] in seen_texts, "text used twice"),
            (not isinstance(r["expect"], list), "expect must be a list"),
        ]
        out += [f"{where}: {what}" for bad, what in problems if bad]
        out += [f"{where}: {p}" for item in (r["expect"] if isinstance(r["expect"], list) else [])
                if (p := _item_problem(r["class"], item))]
        seen_texts.add(r["text"])
    return out
