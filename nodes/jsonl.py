"""Errors for line-oriented input files (imports, queries): always name the line."""

from __future__ import annotations

import json
from typing import Any


class JsonlLineError(ValueError):
    """A malformed line of a JSONL file; ``str()`` says which file and line, and why."""

    suffix = ""

    def __init__(self, source: str, line_no: int, reason: str) -> None:
        super().__init__(f"{source}, line {line_no}: {reason}{self.suffix}")
        self.source = source
        self.line_no = line_no
        self.reason = reason


def json_object(line: str) -> dict[str, Any]:
    """One line as a JSON object; ``ValueError`` says what is wrong with it."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(obj, dict):
        raise ValueError("expected a JSON object")
    return obj
