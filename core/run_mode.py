"""The chat graph's run modes: what a run's input asks for, read once, at START.

One graph serves three kinds of run because all three act on the chat thread's
own checkpointed state (docs/architecture.md, "Input, output and run modes"): a
``turn`` (the input's ``messages``), an ``end_session`` (close the session:
consolidate it, no reply) and a ``consolidate_thread`` run (consolidate the
deferred turns of ``chat_thread``, by default the run's own thread). The input
says which in one typed field, ``mode``; START routes on it, so each mode is an
entry edge Studio draws (graph/builder.py).

``mode`` and ``chat_thread`` are input only: their channels are ephemeral, read
by the first node and then gone, so a thread's next plain input is a turn again
whatever the run before it was (even one that failed half-way).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, cast, get_args

from langgraph.channels import EphemeralValue

RunMode = Literal["turn", "end_session", "consolidate_thread"]
TURN: RunMode = "turn"
END_SESSION: RunMode = "end_session"
CONSOLIDATE_THREAD: RunMode = "consolidate_thread"

# Input-only fields: one channel object each, shared by State and TurnInput.
ModeField = Annotated[RunMode, EphemeralValue(str)]
ChatThreadField = Annotated[str, EphemeralValue(str)]


def run_mode(state: Mapping[str, Any]) -> RunMode:
    """The run's mode from its input: ``mode``, else a turn.

    An unknown mode raises ``ValueError`` before any node runs: nothing is stored.
    """
    mode = state.get("mode")
    if mode:
        if mode not in get_args(RunMode):
            raise ValueError(f"unknown run mode {mode!r}: use {TURN}, {END_SESSION} or {CONSOLIDATE_THREAD}")
        return cast(RunMode, mode)
    return TURN


def chat_thread(state: Mapping[str, Any], own: str) -> str:
    """The thread a ``consolidate_thread`` run consolidates: ``chat_thread``, or ``own``."""
    return str(state.get("chat_thread") or own)
