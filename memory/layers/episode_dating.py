"""An episode never restates a superseded value as current.

An episode is the user's lines of a past session, copied as said: "I live in Porto." stays
in it after the user moved to Lisbon and the profile now says "The user lives in Lisbon."
Shown as it is, beside the profile, the old line reads as a second current home. So when
a recalled episode's sentence names a value the semantic layer has since ended (a record
in ``PROFILE_HISTORY`` whose value is not current again), the sentence is marked with the
date it was true as of: "User: (as of 2026-03-02) I live in Porto." That is the episode's
date when it was said while the value held, and the value's end date for a roll-up whose
period runs past it. A session held after the value ended only mentions it ("I miss
Porto"): it is left as said.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from memory.clock import parse_time
from memory.layers.base import LayerEnv
from memory.text import statements
from stores.namespaces import PROFILE, PROFILE_HISTORY

POOL = 200  # more slots and ended values than a user collects: both are read whole
MIN_VALUE_CHARS = 3  # "NY" alone would mark every sentence with "ny" in it
_LABEL = re.compile(r"^(?P<label>[A-Za-z]{1,20}:\s*)(?P<body>.*)$", re.DOTALL)


@dataclass(frozen=True)
class Ended:
    """A value the user no longer holds, and when it stopped being true."""

    value: str
    pattern: re.Pattern[str]
    valid_to: datetime


def ended_values(env: LayerEnv) -> list[Ended]:
    """The profile's ended values that are not current again (moved back to Porto: Porto is current)."""
    history = [i.value for i in env.store.search(env.scope.ns(PROFILE_HISTORY), limit=POOL)]
    if not history:
        return []
    current = {_norm(v) for i in env.store.search(env.scope.ns(PROFILE), limit=POOL) for v in _values(i.value)}
    out: dict[str, Ended] = {}
    for record in history:
        until = parse_time(record.get("valid_to"))
        if until is None:
            continue
        for value in _values(record):
            norm = _norm(value)
            if len(norm) < MIN_VALUE_CHARS or norm in current or (norm in out and out[norm].valid_to >= until):
                continue
            out[norm] = Ended(value, re.compile(rf"(?<!\w){re.escape(value)}(?!\w)", re.IGNORECASE), until)
    return list(out.values())


def dated(text: str, said: datetime | None, ended: list[Ended], rollup: bool = False) -> str:
    """``text`` (an episode) with each sentence that names an ``ended`` value marked "(as of DATE)"."""
    if not ended or said is None:
        return text
    return "\n".join(_dated_line(line, said, ended, rollup) for line in text.split("\n"))


def _dated_line(line: str, said: datetime, ended: list[Ended], rollup: bool) -> str:
    match = _LABEL.match(line)
    label, body = (match["label"], match["body"]) if match else ("", line)
    out, changed = [], False
    for sentence in statements(body):
        hits = [e for e in ended if e.pattern.search(sentence)]
        # Said while it held: true as of the episode's date; a roll-up's period may run past its end.
        when = [said if said <= e.valid_to else e.valid_to for e in hits if said <= e.valid_to or rollup]
        if when:
            sentence, changed = f"(as of {min(when).date().isoformat()}) {sentence}", True
        out.append(sentence)
    return f"{label}{' '.join(out)}" if changed else line


def _values(record: dict) -> list[str]:
    values = record.get("values") or [record.get("value")]
    return [str(v) for v in values if v]


def _norm(value: str) -> str:
    return re.sub(r"\W+", " ", value.lower()).strip()
