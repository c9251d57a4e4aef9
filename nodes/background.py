"""Background consolidation: the slow part of a turn's write policies, run later and debounced.

A turn's consolidation has a cheap part that must stay on the hot path and a
slow part that need not. Cheap, and needed by the very next turn: logging the
messages (the message log), compacting working memory (thread state), and rule
feedback (it may ask the user through ``interrupt``, which only the turn's own
run can do). Slow: grounded fact extraction with dedup and supersession (the
semantic layer: embeddings and searches per candidate). A layer says which side
it is on with a ``background`` attribute; without one, only the semantic layer
is background, so a custom layer keeps today's synchronous behaviour unless it
asks for more.

A deferred turn is queued by its message ids (nodes/consolidation_queue.py). A
run of ``consolidate_pending`` claims every queued turn of the thread, reads each
back from the message log and hands it to the background layers — one
``on_turn`` per turn, at that turn's clock time, the very calls the synchronous
path makes, so the result is the same — and drops each turn from its claim as
it finishes it. So three quick turns make one run, a turn said while a run is
busy waits for the next run, a crash loses nothing (the claim of a dead process
is taken over), a message forgotten before the run is never extracted (it left
the log), and a turn said with memory off is never consolidated (never queued).

One run at a time holds a thread's claim; another waits until it is released.
``settle`` runs (or waits for) every thread of the user: each read of long-term
memory and each forget calls it first, so it sees what the run in progress is
storing and what is still queued.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

from memory.clock import parse_time
from memory.layers.base import LayerEnv, LoggedMessage, MemoryLayer
from memory.layers.message_log import MessageLogLayer
from memory.privacy.consent import is_memory_enabled
from nodes.consolidation_queue import (
    BUSY,
    MARK_PREFIX,
    Turn,
    claim,
    enqueue,
    message_ids,
    progress,
    read_mark,
    release,
    turn_entry,
)
from nodes.usage import Use, record_usage
from stores.namespaces import SETTINGS

BACKGROUND_BY_DEFAULT = frozenset({"semantic"})
POLL_S = 0.05  # how often a waiting caller looks at a claim held by another run


def is_background(layer: MemoryLayer) -> bool:
    """Whether ``layer.on_turn`` may run off the hot path (see the module docstring)."""
    return bool(getattr(layer, "background", layer.name in BACKGROUND_BY_DEFAULT))


def mark_deferred(env: LayerEnv, thread: str, turn: Sequence[LoggedMessage], uses: Sequence[Use] = ()) -> None:
    """Queue ``turn`` (already in the message log) for the background layers, with its memory ``uses``."""
    if turn:
        enqueue(env, thread, [turn_entry(turn, uses)])


def _log_of(layers: Sequence[MemoryLayer]) -> MessageLogLayer | None:
    return next((layer for layer in layers if isinstance(layer, MessageLogLayer)), None)


def _run_turn(env: LayerEnv, layers: Sequence[MemoryLayer], log: MessageLogLayer, entry: Turn) -> int:
    """One queued turn through the background layers, as the synchronous path would have run it."""
    said = log.messages(env, message_ids(entry))
    at = parse_time(entry.get("at"))
    turn_env = replace(env, now=at) if at is not None else env
    if said:
        for layer in layers:
            if is_background(layer):
                layer.on_turn(turn_env, said)
    record_usage(turn_env, [tuple(u) for u in entry.get("uses") or []])  # type: ignore[misc]
    return len(said)


def consolidate_pending(env: LayerEnv, layers: Sequence[MemoryLayer], thread: str) -> int:
    """Run the background layers on ``thread``'s queued turns; wait first for a run already on them.

    Returns how many messages were handed on (0: nothing queued, no layer called).
    With the user's memory off nothing is written and the queued turns are dropped:
    consent wins over completeness, as at session end. A layer that raises leaves
    the unfinished turns queued for the next run.
    """
    log = _log_of(layers)
    if log is None or read_mark(env, thread) is None:
        return 0
    while (got := claim(env, thread)) == BUSY:
        time.sleep(POLL_S)  # another run holds the claim: what a read must wait for
    if got is None:
        return 0
    token, turns = got  # type: ignore[misc]
    if not is_memory_enabled(env.store, env.scope):
        release(env, thread, token, drop=True)
        return 0
    handed = 0
    try:
        for entry in turns:
            handed += _run_turn(env, layers, log, entry)
            if not progress(env, thread, token, entry):
                break  # taken over as stale: its new owner does the rest
    finally:
        release(env, thread, token)
    return handed


def pending_threads(env: LayerEnv) -> list[str]:
    """The user's threads with turns queued or claimed."""
    ns, threads, offset = env.scope.ns(SETTINGS), [], 0
    while True:
        page = env.store.search(ns, limit=100, offset=offset, refresh_ttl=False)
        offset += len(page)
        threads += [i.key[len(MARK_PREFIX):] for i in page if i.key.startswith(MARK_PREFIX)]
        if len(page) < 100:
            return sorted(threads)


def settle(env: LayerEnv, layers: Sequence[MemoryLayer]) -> int:
    """Consolidate every thread of the user that has queued turns, waiting for runs in progress.

    Called before each read of long-term memory and each forget (chat commands,
    plain-words commands, memory tools, CLI subcommands): they then act on what
    the synchronous path would have stored. Returns the messages handed on.
    """
    return sum(consolidate_pending(env, layers, thread) for thread in pending_threads(env))
