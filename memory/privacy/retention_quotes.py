"""Copies of expired words inside what is kept: a recent reply that quoted an old message,
the recalled memories and system prompt a recent thread checkpointed, an episode of a
recent session that quotes them.

Each expired user message, each of its sentences long enough to be a quote, and each
identifier lifted out of it (an id, a date, a path: what an episode keeps under "Details
kept verbatim", or a reply repeats from one) is replaced by ``[expired]`` wherever it
appears in the user's surviving messages, episodes and the latest checkpoint of their
surviving threads (which is then rewritten as the thread's only checkpoint, so older
checkpoints holding the quote go). This runs before the expired messages are deleted: a sweep killed
midway finds the same quotes again on its rerun.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from langgraph.store.base import BaseStore

from memory.layers.identifiers import extract_identifiers, split_sentences
from memory.layers.message_text import index_paths
from memory.privacy.export import iter_items
from stores.namespaces import EPISODES, MESSAGES, UserScope
from stores.redaction.scrub import map_strings, strings_in

EXPIRED_MARK = "[expired]"
MIN_QUOTE_CHARS = 12
MIN_IDENTIFIER_CHARS = 6  # an identifier this long is the user's own ("zorbal00b"), not a common token


class Quotes:
    """The expired words to cut out of surviving text (any case), longest first; words the user
    said again inside the limit are theirs to keep (``said_since``).
    """

    def __init__(self, texts: Sequence[str], said_since: Sequence[str] = ()) -> None:
        found = {t.strip() for t in texts if len(t.strip()) >= MIN_QUOTE_CHARS}
        found |= {s.strip() for t in texts for s in split_sentences(t) if len(s.strip()) >= MIN_QUOTE_CHARS}
        found |= {i for t in texts for i in extract_identifiers(t) if len(i) >= MIN_IDENTIFIER_CHARS}
        again = "\n".join(said_since).casefold()  # said again inside the limit: those words are recent
        fragments = sorted((f for f in found if f.casefold() not in again), key=len, reverse=True)
        self._pattern = re.compile("|".join(map(re.escape, fragments)), re.IGNORECASE) if fragments else None

    def __bool__(self) -> bool:
        return self._pattern is not None

    def quotes_in(self, text: str) -> bool:
        return self._pattern is not None and self._pattern.search(text) is not None

    def cut(self, text: str) -> str:
        """``text`` with every quote replaced; the same object when it quotes none."""
        return self._pattern.sub(EXPIRED_MARK, text) if self.quotes_in(text) else text  # type: ignore[union-attr]

    def deep(self, obj: Any) -> Any:
        """``obj`` with every quote cut from every string in it; ``obj`` itself when none is."""
        return map_strings(obj, self.cut)


def cut_from_store(store: BaseStore, scope: UserScope, quotes: Quotes, keep: set[str]) -> int:
    """Cut quotes from the user's messages in ``keep`` and from every episode; how many items changed."""
    changed = 0
    for item in iter_items(store, scope.ns(MESSAGES)):
        if item.key in keep and (value := quotes.deep(item.value)) is not item.value:
            store.put(item.namespace, item.key, value, index=index_paths(value))
            changed += 1
    for item in iter_items(store, scope.ns(EPISODES)):
        if (value := quotes.deep(item.value)) is not item.value:
            text = str(value.get("text", "")).casefold()
            store.put(item.namespace, item.key,
                      {**value, "keywords": [w for w in value.get("keywords", ()) if str(w).casefold() in text]})
            changed += 1
    return changed


def cut_from_thread(saver: Any, thread_id: str, quotes: Quotes) -> bool:
    """Rewrite a thread whose latest checkpoint quotes expired words as one clean checkpoint."""
    config = {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}
    tup = saver.get_tuple(config)
    if tup is None:
        return False
    quoted = any(quotes.quotes_in(s) for t in saver.list({"configurable": {"thread_id": thread_id}})
                 for s in strings_in([t.checkpoint.get("channel_values"), t.metadata,
                                      [w[2] for w in t.pending_writes or []]]))
    if not quoted:
        return False
    checkpoint = {**tup.checkpoint, "channel_values": quotes.deep(tup.checkpoint.get("channel_values") or {})}
    saver.delete_thread(thread_id)
    saver.put(config, checkpoint, quotes.deep(tup.metadata or {}), dict(checkpoint.get("channel_versions") or {}))
    return True
