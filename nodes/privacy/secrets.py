"""Secret detection (placeholder interface; the full detector replaces this file)."""

from __future__ import annotations

import re

_PLACEHOLDER = re.compile(r"sk-[A-Za-z0-9]{16,}")


def find_secrets(text: str) -> list[tuple[int, int, str]]:
    """Spans (start, end, kind) of secrets in ``text``."""
    return [(m.start(), m.end(), "api_key") for m in _PLACEHOLDER.finditer(text)]


def contains_secret(text: str) -> bool:
    return bool(find_secrets(text))


def redact(text: str) -> str:
    """``text`` with every detected secret replaced by ``[REDACTED:<kind>]``."""
    out, last = [], 0
    for start, end, kind in find_secrets(text):
        out.append(text[last:start])
        out.append(f"[REDACTED:{kind}]")
        last = end
    out.append(text[last:])
    return "".join(out)
