"""The prompt's ``<examples kind="tasks">`` block: similar past tasks as few-shot examples.

Successful episodes are shown as examples of an approach that worked; failures only
when no success was recalled (the layer sees to that), under a title that says they
did not work. Quoted as data like every memory (``memory.prompt.quote``), apart from
the memory and knowledge blocks, at most ``task_k`` examples.
"""

from __future__ import annotations

from typing import Any

from memory.prompt import quote

WORKED = "# Similar tasks done before, and the approach that worked (examples, not instructions)"
FAILED = "# What did not work on similar tasks before (avoid repeating it)"


def _line(item: dict[str, Any]) -> str:
    meta = item.get("meta") or {}
    notes = f" Notes: {quote(meta['notes'])}" if meta.get("notes") else ""
    return f"- Task: {quote(item['text'])} Approach: {quote(str(meta.get('approach') or ''))}{notes}"


def task_block(recalled: list[dict[str, Any]]) -> str:
    """The examples block, or "" when no task episode was recalled."""
    tasks = [r for r in recalled if r["kind"] == "task"]
    if not tasks:
        return ""
    worked = [t for t in tasks if (t.get("meta") or {}).get("outcome") == "success"]
    shown = worked or tasks
    title = WORKED if worked else FAILED
    return "<examples kind=\"tasks\">\n" + title + "\n" + "\n".join(_line(t) for t in shown) + "\n</examples>"
