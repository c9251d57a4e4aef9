"""Errors for line-oriented input files (imports, queries): always name the line."""

from __future__ import annotations


class JsonlLineError(ValueError):
    """A malformed line of a JSONL file; ``str()`` says which file and line, and why."""

    suffix = ""

    def __init__(self, source: str, line_no: int, reason: str) -> None:
        super().__init__(f"{source}, line {line_no}: {reason}{self.suffix}")
        self.source = source
        self.line_no = line_no
        self.reason = reason
