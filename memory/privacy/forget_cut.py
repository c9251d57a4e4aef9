"""Forgetting one statement out of a record that holds several: a logged message, an episode.

A rule says one thing and is deleted whole; so is a profile slot or a fact, unless the
words are one value of a list it holds ("speaks French and Spanish"). A message ("My name
is Ana. I live in Lisbon and I work as a nurse.") or an episode (a session's lines, or a
roll-up of several sessions) says many, so forget cuts the part that mentions what was
asked (``forget_parts.Needle``) and keeps the rest, re-indexed so no vector or lexical
entry holds the old words. The record says that a part went and when, never what it said:
``forgotten: [{"at": <time>, "by": "forget request"}]``. A record left with nothing of its
own is deleted. Each function returns (keys deleted, keys cut).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langgraph.store.base import BaseStore

from memory.clock import now
from memory.layers.base import LayerEnv
from memory.layers.identifiers import VERBATIM_HEADER
from memory.layers.message_log import MessageLogLayer
from memory.layers.message_text import own_text
from memory.privacy.forget_parts import Needle
from stores.namespaces import FACTS, UserScope
from stores.redaction.scrub import strings_in

FORGOTTEN = "forgotten"  # the record's list of forget requests that cut a part of it
Found = Sequence[tuple[tuple[str, ...], str]]
Cut = tuple[list[str], list[str]]


def forgotten_mark(value: dict[str, Any]) -> list[dict[str, str]]:
    """``value``'s provenance list with one more entry: a part was removed now, by a forget request."""
    return [*value.get(FORGOTTEN, ()), {"at": now().isoformat(), "by": "forget request"}]


def _log_env(store: BaseStore, scope: UserScope) -> LayerEnv:
    return LayerEnv(store=store, scope=scope, context=None, embeddings=None)  # type: ignore[arg-type]


def cut_messages(store: BaseStore, scope: UserScope, needle: Needle, found: Found) -> Cut:
    """Cut the part from each matched logged message; delete one left with no words."""
    gone, cut = [], {}
    for namespace, key in found:
        item = store.get(namespace, key)
        if item is None:
            continue
        value = item.value
        if not needle.in_any(_strings(own_text(value))):
            continue  # only its neighbours' words named it: re-indexing them below drops those
        text = needle.cut(str(value.get("text", "")))
        if not text.strip():
            gone.append(key)
        else:
            cut[key] = {**needle.deep(own_text(value)), "text": text, FORGOTTEN: forgotten_mark(value)}
    log = MessageLogLayer()
    if gone:
        log.forget(_log_env(store, scope), gone)
    if cut:
        log.rewrite(_log_env(store, scope), cut)
    return sorted(gone), sorted(cut)


def cut_episodes(store: BaseStore, scope: UserScope, needle: Needle, found: Found) -> Cut:
    """Cut the part from each matched episode or roll-up, keeping each kept line's time."""
    return _cut_each(store, found, lambda value: _cut_episode(value, needle), index=None)


def _cut_each(
    store: BaseStore, found: Found, cut_one: Callable[[dict[str, Any]], dict[str, Any] | None], index: bool | None
) -> Cut:
    """Each found record cut by ``cut_one``: deleted when it gives None, put back when it gives a new value."""
    gone, cut = [], []
    for namespace, key in found:
        item = store.get(namespace, key)
        if item is None:
            continue
        value = cut_one(item.value)
        if value is None:
            store.delete(namespace, key)
            gone.append(key)
        elif value is not item.value:
            if index is None:
                store.put(namespace, key, value)
            else:  # False keeps an unindexed kind (a profile slot) unindexed, as its layer writes it
                store.put(namespace, key, value, index=index)
            cut.append(key)
    return sorted(gone), sorted(cut)


def _cut_episode(value: dict[str, Any], needle: Needle) -> dict[str, Any] | None:
    """The episode without the part; None when nothing of its own is left; ``value`` when nothing matched."""
    if not needle.in_any(_strings(value)):
        return value
    lines = str(value.get("text", "")).split("\n")
    titled = bool(value.get("level"))  # a roll-up's first line is its period's title
    kept = [i for i, line in enumerate(lines) if needle.cut(line).strip()]
    body = [needle.cut(lines[i]) for i in kept if not (titled and i == 0)]
    if not [line for line in body if line.strip() != VERBATIM_HEADER]:
        return None
    text = "\n".join(needle.cut(lines[i]) for i in kept)
    out = {**needle.deep(value), "text": text, FORGOTTEN: forgotten_mark(value)}
    out["keywords"] = [w for w in out.get("keywords", ()) if w and str(w).casefold() in text.casefold()]
    if isinstance(value.get("line_times"), list) and titled:
        times = value["line_times"]
        out["line_times"] = [times[i - 1] for i in kept if 0 < i <= len(times)]
    return out


def cut_statements(store: BaseStore, scope: UserScope, needle: Needle, found: Found) -> Cut:
    """A profile slot or fact goes whole, unless the words are one value of a list it holds:
    "The user speaks French and Spanish." forgetting Spanish keeps "The user speaks French."
    """
    facts = [f for f in found if f[0][-1] == FACTS]
    slots = [f for f in found if f[0][-1] != FACTS]
    gone, cut = _cut_each(store, facts, lambda value: _cut_values(value, needle), index=None)
    gone2, cut2 = _cut_each(store, slots, lambda value: _cut_values(value, needle), index=False)
    return sorted(gone + gone2), sorted(cut + cut2)


def _cut_values(value: dict[str, Any], needle: Needle) -> dict[str, Any] | None:
    """The record without the list item; None when the words are more than an item of a list."""
    text = needle.cut_items(str(value.get("text", "")))
    if text is None or text == value.get("text") or not text.strip():
        return None
    out = {**value, "text": text, FORGOTTEN: forgotten_mark(value)}
    if isinstance(value.get("values"), list):
        out["values"] = [v for v in value["values"] if not (isinstance(v, str) and needle.in_text(v))]
        if not out["values"]:
            return None
    if isinstance(value.get("value"), str):
        kept = needle.cut_items(value["value"])
        if kept is None or not kept.strip():
            return None
        out["value"] = kept
    out = needle.deep(out)  # what else still quotes the words (a history line) loses that part
    return None if needle.in_any(_strings(out)) else out


def _strings(obj: Any) -> list[str]:
    return list(strings_in(obj))


def cut_thread(saver: Any, thread_id: str, needle: Needle) -> bool | None:
    """Rewrite a thread that mentions the words as one clean checkpoint with the parts cut.

    True when rewritten; False when nothing of it is left to keep (every message named the words:
    the caller deletes it); None when the saver cannot be rewritten here (an async-only saver).
    """
    if not callable(getattr(saver, "get_tuple", None)) or not callable(getattr(saver, "put", None)):
        return None
    config = {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}
    tup = saver.get_tuple(config)
    values = dict(tup.checkpoint.get("channel_values") or {}) if tup is not None else {}
    messages = [m for m in (needle.deep(m) for m in values.get("messages") or []) if _has_words(m)]
    if not messages:
        return False
    checkpoint = {**tup.checkpoint, "channel_values": {**needle.deep(values), "messages": messages}}
    saver.delete_thread(thread_id)
    saver.put(config, checkpoint, needle.deep(tup.metadata or {}), dict(checkpoint.get("channel_versions") or {}))
    return True


def _has_words(message: Any) -> bool:
    """Whether a thread message still says something (a cut may leave it empty), or carries tool calls."""
    return bool("".join(strings_in(getattr(message, "content", message))).strip()) or bool(
        getattr(message, "tool_calls", None))
