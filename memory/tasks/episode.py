"""What a task episode holds, how good it was, and how it reads as one line.

Shared by the layer that records episodes (memory/layers/task_episodes.py) and the
session-end rewrite (memory/tasks/summary.py).
"""

from __future__ import annotations

from typing import Any

SUCCESS_AT = 0.5  # quality at or above which an episode is a success
INDEXED = ["task"]  # similarity is over the task, not over how it went


def check_quality(answer_check: dict[str, Any] | None) -> tuple[float, str]:
    """The score the answer check gives a reply, and where the score came from:
    passed 0.7, passed after retries 0.5, flagged 0.2, not checked 0.5.
    """
    check = answer_check or {}
    if not check.get("enabled") or not check.get("tries"):
        return 0.5, "unchecked"
    if check.get("flagged"):
        return 0.2, "answer_check"
    return (0.5 if check.get("retries") else 0.7), "answer_check"


def outcome(quality: float) -> str:
    """``success`` or ``failure``."""
    return "success" if quality >= SUCCESS_AT else "failure"


def episode_text(value: dict[str, Any]) -> str:
    """The episode in one line, as export and "what do you remember" show it."""
    notes = f" Notes: {value['notes']}" if value.get("notes") else ""
    return f"Task: {value['task']} Approach: {value['approach']} Outcome: {value['outcome']}.{notes}"
