"""Earlier values, for questions about the past ("Where did I live before?").

Supersession moves an old value to ``PROFILE_HISTORY`` with ``valid_to``
(semantic_records.py); it is never shown as current. A message that asks about
the past (``PAST_CUE``: before, used to, previously, formerly, ...) gets the
history records nearest to it in meaning (the best one when its cosine is at
least ``HISTORY_FLOOR``, and a second within ``HISTORY_MARGIN`` of it; with
MiniLM "Where did I live before?" gives "The user lives in Paris." 0.28 and the
other ended values ≤ 0.04), recalled as kind ``history`` and shown in a block of their
own, each with the date it stopped being true: "Until 20 March 2025: The user
lives in Paris." Without such a cue nothing is recalled: an old value has no
place in a prompt about the present, and a model could read it as current.
"""

from __future__ import annotations

import re

from memory.clock import parse_time
from memory.layers.base import LayerEnv, Recalled
from memory.text import cosine_similarities
from stores.namespaces import PROFILE_HISTORY

PAST_CUE = re.compile(
    r"\b(?:before|previous(?:ly)?|used to|formerly|former|prior|earlier|back then|no longer|any ?more|"
    r"had I|was I|did I (?:use|have|live|work|follow))\b",
    re.IGNORECASE,
)
HISTORY_FLOOR = 0.2
HISTORY_MARGIN = 0.1
HISTORY_LIMIT = 2
HISTORY_POOL = 200  # more ended values than a user collects; the history is read whole


def recall_history(env: LayerEnv, query: str) -> list[Recalled]:
    """The ended values nearest to ``query`` when it asks about the past; none otherwise."""
    if not query or not PAST_CUE.search(query):
        return []
    records = [i.value for i in env.store.search(env.scope.ns(PROFILE_HISTORY), limit=HISTORY_POOL)]
    records = [r for r in records if r.get("text") and r.get("valid_to")]
    if not records:
        return []
    near = cosine_similarities(env.embeddings, query, [r["text"] for r in records])
    ranked = sorted(zip(near, range(len(records))), key=lambda pair: (-pair[0], pair[1]))
    out = []
    best = ranked[0][0]
    for cos, n in ranked[:HISTORY_LIMIT]:
        if cos < HISTORY_FLOOR or cos < best - HISTORY_MARGIN:
            break
        record = records[n]
        until = parse_time(record["valid_to"])
        when = f"{until.day} {until:%B %Y}" if until else str(record["valid_to"])
        out.append(Recalled(kind="history", text=f"Until {when}: {record['text']}", score=float(cos),
                            sources=tuple(record.get("sources") or ()), key=None,
                            meta={"valid_to": record["valid_to"], "archived_from": record.get("archived_from")}))
    return out
