"""Line-oriented input files (imports, queries): one pydantic model a line, errors that name the line.

Each line of a JSONL input is validated by a pydantic model, which is the
contract in code (docs/architecture.md, "Public contracts"). A whole file is
validated before any of it is used, so a typo on line 9,000 costs nothing that
is already stored. A bad line becomes one line of text naming the file, the
line number and the field, which the CLI prints as it is.

A file is read as bytes, one line at a time and never more than a line's cap
(``read_lines``): an oversized line is refused after reading the cap, not after
parsing megabytes, and bytes that are not UTF-8 are an error on their line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, ValidationError
from pydantic_core import ErrorDetails

from memory.clock import in_range, parse_time

Line = TypeVar("Line", bound=BaseModel)

_SHOWN_CHARS = 60  # a bad value is quoted in the error up to this length
OTHER_FIELDS_BYTES = 16 * 1024  # a line's room besides its one long text field (ids, times, ignored fields)


class JsonlLineError(ValueError):
    """A malformed line of a JSONL file; ``str()`` says which file and line, and why."""

    suffix = ""

    def __init__(self, source: str, line_no: int, reason: str) -> None:
        super().__init__(f"{source}, line {line_no}: {reason}{self.suffix}")
        self.source = source
        self.line_no = line_no
        self.reason = reason


def _non_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty")
    return value


def _iso_time(value: Any) -> datetime | None:
    # Only ISO-8601 text: pydantic's own datetime would also take epoch numbers,
    # which the contract does not allow. A time without offset is taken as UTC.
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError("must be an ISO-8601 date-time string")
    try:
        parsed = parse_time(value)
    except ValueError:
        raise ValueError("not an ISO-8601 date-time") from None
    return in_range(parsed) if parsed is not None else None


NonBlankStr = Annotated[str, AfterValidator(_non_blank)]
"""A string with something besides whitespace in it."""

IsoTime = Annotated[datetime, BeforeValidator(_iso_time)]
"""ISO-8601 text, parsed to an aware datetime (UTC when the text has no offset)."""

OptionalIsoTime = Annotated[datetime | None, BeforeValidator(_iso_time)]
"""Like ``IsoTime``, and ``null`` or absent means "not given"."""


def json_object(line: str) -> dict[str, Any]:
    """One line as a JSON object; ``ValueError`` says what is wrong with it."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise ValueError("invalid JSON (nested too deeply)") from None
    if not isinstance(obj, dict):
        raise ValueError("expected a JSON object")
    return obj


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 3] + "..."


def describe_error(error: ErrorDetails) -> str:
    """One pydantic error as ``field 'name': what is wrong, got <value>``."""
    field = ".".join(str(part) for part in error["loc"]) or "line"
    if error["type"] == "missing":
        return f"field {field!r}: missing"
    reason = error["msg"].removeprefix("Value error, ")
    reason = reason[:1].lower() + reason[1:]
    return f"field {field!r}: {reason}, got {_shown(error['input'])}"


def parse_line(line: str, model: type[Line]) -> Line:
    """One line as a ``model``; ``ValueError`` names every bad field and why."""
    obj = json_object(line)
    try:
        return model.model_validate(obj)
    except ValidationError as exc:
        raise ValueError("; ".join(describe_error(e) for e in exc.errors())) from None


def parse_lines(
    lines: Iterable[str], model: type[Line], source: str, error: type[JsonlLineError]
) -> Iterator[tuple[int, Line]]:
    """Every non-blank line as ``(line number, model)``, lazily; the first bad line raises ``error``."""
    for line_no, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            parsed = parse_line(line, model)
        except ValueError as exc:
            raise error(source, line_no, str(exc)) from None
        yield line_no, parsed


def line_byte_cap(max_chars: int) -> int:
    """The longest line worth reading when its text may hold ``max_chars`` characters: each
    written as a JSON-escaped surrogate pair (12 bytes), plus room for the other fields.
    """
    return 12 * max_chars + OTHER_FIELDS_BYTES


def read_lines(path: str | Path, max_line_bytes: int, error: type[JsonlLineError]) -> Iterator[str]:
    """The file's lines, decoded, read one at a time; a line over ``max_line_bytes`` (its
    newline aside) or one that is not UTF-8 raises ``error`` naming the file and the line.
    """
    source = str(path)
    with Path(path).open("rb") as fh:
        line_no = 0
        while raw := fh.readline(max_line_bytes + 2):  # room for "\r\n" after a line of exactly the cap
            line_no += 1
            body = raw.rstrip(b"\r\n")
            if len(body) > max_line_bytes:
                raise error(source, line_no, f"line longer than {max_line_bytes} bytes")
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise error(source, line_no, f"invalid UTF-8 at byte {exc.start + 1}") from None
            yield text
