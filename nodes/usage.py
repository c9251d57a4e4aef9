"""Usage tracking: which recalled memories the answer actually used.

Signal (no LLM, measurable): lexical overlap of content words. A memory shown in
the prompt counts as used when the reply contains its distinctive words — the
memory's content words that the user's question did not already say (the echo of
a question proves nothing) — at least two of them, or all of them when it has
fewer. "User is vegan" is used by "a vegan curry"; an 80-word episode is used
when the reply picks two of its words.

Each use is written onto the memory itself: ``use_count`` + 1 and ``last_used``.
These are bookkeeping fields: the write keeps the item's ``sources`` (so the
gate's provenance rule holds without new provenance), its index fields and its
remaining TTL. Ranking uses ``use_count`` (``scoring.combined_score``); upkeep
and forgetting can read both fields. Rules and the running summary are not
counted: a style rule shapes a reply without lending it words.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from memory.clock import parse_time
from memory.layers.base import LayerEnv
from memory.layers.message_query import terms
from memory.layers.message_text import index_paths, message_body
from stores.namespaces import EPISODES, FACTS, MESSAGES, PROFILE

USAGE_KINDS = ("profile", "fact", "episode", "message")
_NAMESPACE = {"profile": PROFILE, "fact": FACTS, "episode": EPISODES, "message": MESSAGES}
MIN_SHARED_WORDS = 2

Use = tuple[str, str, str]  # (kind, key, iso time of the turn that used it)


def is_used(memory: str, reply: str, query: str = "") -> bool:
    """Whether ``reply`` carries ``memory``'s distinctive words (see the module docstring)."""
    own = terms(message_body(memory))
    distinctive = own - terms(query) or own
    if not distinctive:
        return False
    shared = distinctive & terms(reply)
    return len(shared) >= min(MIN_SHARED_WORDS, len(distinctive))


def used_memories(shown: Iterable[dict[str, Any]], reply: str, query: str = "") -> list[dict[str, Any]]:
    """The countable memories among ``shown`` that ``reply`` used."""
    return [m for m in shown if m["kind"] in USAGE_KINDS and m.get("key") and is_used(m["text"], reply, query)]


def countable(shown: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The shown memories usage is measured over (profile, facts, episodes, messages)."""
    return [m for m in shown if m["kind"] in USAGE_KINDS and m.get("key")]


def uses_of(used: Iterable[dict[str, Any]], when: datetime) -> list[Use]:
    """The uses to record for ``used`` memories at ``when``."""
    return [(m["kind"], str(m["key"]), when.isoformat()) for m in used]


def record_usage(env: LayerEnv, uses: Sequence[Use | list[str]]) -> int:
    """Add each use to its memory (``use_count``, ``last_used``); returns how many memories changed.

    A memory deleted or forgotten since is skipped. Writes go through the gate.
    """
    by_item: dict[tuple[str, str], list[str]] = {}
    for kind, key, when in uses:
        if kind in _NAMESPACE:
            by_item.setdefault((kind, key), []).append(when)
    changed = 0
    for (kind, key), times in by_item.items():
        ns = env.scope.ns(_NAMESPACE[kind])
        if kind == "profile":  # profile slots are unindexed and updated atomically
            new = env.gate.atomic_update(ns, key, lambda cur, t=times: _counted(cur, t) if cur else cur)
            changed += new is not None
            continue
        item = env.store.get(ns, key)
        if item is None:
            continue
        value = _counted(item.value, times)
        if kind == "message":
            env.store.put(ns, key, value, index=index_paths(value))
        elif kind == "episode" and env.store.supports_ttl and parse_time(value.get("expires_at")):
            left = (parse_time(value["expires_at"]) - env.now).total_seconds() / 60  # type: ignore[operator]
            if left <= 0:
                continue
            env.store.put(ns, key, value, ttl=left)
        else:
            env.store.put(ns, key, value)
        changed += 1
    return changed


def _counted(value: dict[str, Any], times: list[str]) -> dict[str, Any]:
    last = max([*times, str(value.get("last_used") or "")])
    return {**value, "use_count": int(value.get("use_count", 0)) + len(times), "last_used": last}


def tally(previous: dict[str, int] | None, shown: int, used: int) -> dict[str, int]:
    """This session's running totals: memories shown (countable) and used."""
    prev = previous or {}
    return {"shown": int(prev.get("shown", 0)) + shown, "used": int(prev.get("used", 0)) + used}


def usage_line(totals: dict[str, int] | None) -> str:
    """One line for the user: the share of recalled memories the answers used this session."""
    shown, used = int((totals or {}).get("shown", 0)), int((totals or {}).get("used", 0))
    if not shown:
        return "Memories used this session: none recalled yet."
    return f"Memories used this session: {used} of {shown} recalled ({100 * used / shown:.0f}%)."
