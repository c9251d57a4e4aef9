"""Bring a user's message log to the indexed form the message log writes today.

A data dir made before the vectors per sentence holds one vector per older message.
Both kinds rank together, so nothing breaks, but an old message is found by a clause of
a long turn less well until something writes it again. ``stale`` lists the messages
whose indexed texts differ from what the layer would write now (recomputed from the
stored message and its stored neighbours, as ``MessageLogLayer.on_turn`` computes
them); ``rewrite`` puts them back through the user's store, so the store re-embeds
only those. Texts, links and times are unchanged, and only the user's own namespace
is read or written. Running it twice rewrites nothing the second time.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from langgraph.store.base import PutOp

from memory.layers.base import LayerEnv
from memory.layers.message_log import MessageLogLayer
from memory.layers.message_text import index_value, search_text
from stores.namespaces import MESSAGES

PAGE = 500
BATCH = 32  # messages per store batch: one embedding call each


@dataclass(frozen=True)
class Rewrite:
    """One message's value with today's indexed texts, and the paths to index it by."""

    key: str
    value: dict[str, Any]
    index: list[str]


def _all(env: LayerEnv) -> list[tuple[str, dict[str, Any]]]:
    ns, out, offset = env.scope.ns(MESSAGES), [], 0
    while True:
        page = env.store.search(ns, limit=PAGE, offset=offset, refresh_ttl=False)
        out += [(item.key, item.value) for item in page]
        offset += len(page)
        if len(page) < PAGE:
            return out


def stale(env: LayerEnv, layer: MessageLogLayer) -> list[Rewrite]:
    """The user's messages indexed in another form than ``layer`` writes today, oldest key first."""
    stored = dict(_all(env))
    out = []
    for key in sorted(stored):
        old = stored[key]
        prev = stored.get(old.get("prev") or "") if layer.neighbours else None
        nxt = stored.get(old.get("next") or "") if layer.neighbours else None
        value = dict(old)
        paths = index_value(value, search_text(value, prev, nxt, layer.date_in_index), layer.by_sentence)
        if value != old:
            out.append(Rewrite(key, value, paths))
    return out


def rewrite(env: LayerEnv, rewrites: Sequence[Rewrite]) -> Iterator[int]:
    """Put ``rewrites`` back a batch at a time; yields how many each batch wrote (for a progress bar)."""
    ns = env.scope.ns(MESSAGES)
    for start in range(0, len(rewrites), BATCH):
        chunk = rewrites[start : start + BATCH]
        env.store.batch([PutOp(ns, r.key, r.value, index=r.index) for r in chunk])
        yield len(chunk)
