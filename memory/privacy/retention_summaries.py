"""Retention for what is derived from messages: episodes and roll-ups, line by line.

An episode quotes one session, so it goes when its newest source (its ``time``)
is past the cutoff. A roll-up quotes many: each body line carries the time of
the newest source it quotes (``line_times``, memory/upkeep/rollup.py), lines past
the cutoff are dropped, a month's week heading goes with its last line, and a
roll-up with no line left is deleted. Every roll-up is written with ``line_times``;
one whose dates do not match its lines is deleted whole, so no line outlives the
limit for want of a date.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from memory.layers.scoring import parse_time

WEEK_HEAD = re.compile(r"^Week (\d{4})-W(\d{2}) \(")


def episode_gone(value: dict[str, Any], cutoff: datetime) -> bool:
    """Whether a plain episode's newest source was said before ``cutoff``."""
    said = parse_time(value.get("time"))
    return said is not None and said < cutoff


def pruned_rollup(value: dict[str, Any], cutoff: datetime) -> dict[str, Any] | None:
    """``value`` without its lines said before ``cutoff``; ``value`` itself when none is, None when none is left."""
    lines = str(value.get("text", "")).splitlines()
    title, body = (lines[0], lines[1:]) if lines else ("", [])
    times = [str(t) for t in value.get("line_times") or []]
    if len(times) != len(body):
        return None  # undated lines: none can be shown to be within the limit
    kept = [(line, when) for line, when in zip(body, times)
            if WEEK_HEAD.match(line) or (parse_time(when) or cutoff) >= cutoff]
    kept = [(line, when) for n, (line, when) in enumerate(kept)  # a heading stays only above a kept line
            if not WEEK_HEAD.match(line) or (n + 1 < len(kept) and not WEEK_HEAD.match(kept[n + 1][0]))]
    if len(kept) == len(body):
        return value
    if not any(not WEEK_HEAD.match(line) for line, _ in kept):
        return None
    text = "\n".join([title, *(line for line, _ in kept)])
    words = text.casefold()
    return {
        **value,
        "text": text,
        "line_times": [when for _, when in kept],
        "time": max(when for line, when in kept if not WEEK_HEAD.match(line)),
        "keywords": [w for w in value.get("keywords", ()) if str(w).casefold() in words],
    }
