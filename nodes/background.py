"""Background consolidation: the slow part of a turn's write policies, run later and debounced.

A turn's consolidation has a cheap part that must stay on the hot path and a
slow part that need not. Cheap, and needed by the very next turn: logging the
messages (the message log, which is also the durable queue below), compacting
working memory (thread state), and rule feedback (it may ask the user through
``interrupt``, which only the turn's own run can do). Slow: grounded fact
extraction with dedup and supersession (the semantic layer: embeddings and
searches per candidate). A layer says which side it is on with a ``background``
attribute; without one, only the semantic layer is background, so a custom layer
keeps today's synchronous behaviour unless it asks for more.

The queue is the message log itself. A per-thread watermark (SETTINGS, key
``consolidated:<thread>``: ``since`` = the time of the last message consolidated,
``pending`` = turns were deferred since, ``uses`` = memory uses to count) is set when a turn is deferred; a run of
``consolidate_pending`` hands every logged message of the thread after ``since``
to the background layers in one ``on_turn`` call and moves ``since`` forward.
So three quick turns make one run, a crash loses nothing (the next run catches
up), a message forgotten before the run is never extracted (it left the log), and
a turn said with memory off is never consolidated (it was never logged). Facts
carry their statement time, so the result is the one the synchronous path gives.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from nodes.layers.base import LayerEnv, LoggedMessage, MemoryLayer
from nodes.layers.message_log import MessageLogLayer
from nodes.layers.scoring import parse_time
from nodes.privacy.consent import is_memory_enabled
from nodes.usage import Use, record_usage
from stores.namespaces import SETTINGS

BACKGROUND_BY_DEFAULT = frozenset({"semantic"})
MAX_QUEUED_USES = 500  # a bound on the watermark record; older uses beyond it are dropped


def is_background(layer: MemoryLayer) -> bool:
    """Whether ``layer.on_turn`` may run off the hot path (see the module docstring)."""
    return bool(getattr(layer, "background", layer.name in BACKGROUND_BY_DEFAULT))


def mark_key(thread: str) -> str:
    """The SETTINGS key of ``thread``'s watermark."""
    return f"consolidated:{thread}"


def read_mark(env: LayerEnv, thread: str) -> dict[str, Any] | None:
    """The thread's watermark, or None when no turn of it was ever deferred."""
    item = env.store.get(env.scope.ns(SETTINGS), mark_key(thread))
    return dict(item.value) if item is not None else None


def mark_deferred(env: LayerEnv, thread: str, turn: Sequence[LoggedMessage], uses: Sequence[Use] = ()) -> None:
    """Record that ``turn`` waits for the background layers, with the turn's memory ``uses``.

    ``since`` is set only when absent (just before this turn): it moves only when a
    run has consolidated, so a turn deferred while a run was busy is still covered.
    Uses queue here too (at most ``MAX_QUEUED_USES``), so usage counters are
    written by the run, not by the turn.
    """
    if not turn:
        return
    start = min(m.time for m in turn) - timedelta(microseconds=1)

    def change(current: dict[str, Any] | None) -> dict[str, Any] | None:
        base = current or {"since": start.isoformat()}
        if base.get("pending") and not uses:
            return current
        queued = [*(base.get("uses") or []), *(list(u) for u in uses)][-MAX_QUEUED_USES:]
        return {**base, "pending": True, "uses": queued}

    env.gate.atomic_update(env.scope.ns(SETTINGS), mark_key(thread), change)


def advance_mark(env: LayerEnv, thread: str, through: datetime | None, applied: Sequence[Any] = ()) -> None:
    """After a run (or a synchronous turn): consolidated through ``through``, ``applied`` uses counted.

    Uses queued by a turn while the run was busy stay queued for the next run.
    """

    def change(current: dict[str, Any] | None) -> dict[str, Any] | None:
        times = [t for t in (parse_time((current or {}).get("since")), through) if t is not None]
        left = [u for u in (current or {}).get("uses") or [] if u not in applied]
        value = {"since": max(times).isoformat() if times else None, "pending": False, "uses": left}
        return current if current == value else value

    env.gate.atomic_update(env.scope.ns(SETTINGS), mark_key(thread), change)


def consolidate_pending(env: LayerEnv, layers: Sequence[MemoryLayer], thread: str) -> int:
    """Run the background layers on what the log holds for ``thread`` after its watermark.

    Returns how many messages were handed on (0: nothing pending, no layer called).
    With the user's memory off nothing is written and the pending turns are dropped:
    consent wins over completeness, as at session end.
    """
    log = next((layer for layer in layers if isinstance(layer, MessageLogLayer)), None)
    mark = read_mark(env, thread)
    if log is None or mark is None:
        return 0
    if not is_memory_enabled(env.store, env.scope):
        advance_mark(env, thread, env.now, mark.get("uses") or [])
        return 0
    since = parse_time(mark.get("since"))
    pending = log.session(env, thread, since)
    if pending:
        for layer in layers:
            if is_background(layer):
                layer.on_turn(env, pending)
    uses = mark.get("uses") or []
    record_usage(env, uses)
    advance_mark(env, thread, pending[-1].time if pending else None, uses)
    return len(pending)
