"""The queue of deferred turns: one record per chat thread in the user's SETTINGS.

Key ``consolidated:<thread>``. ``turns`` lists each deferred turn, oldest first:
the ids of its logged messages, its clock time and the memory uses it counts.
``claim`` holds the turns one run has taken (its ``token``, ``owner`` process and
the wall time ``at`` it last made progress). Every change is one
``atomic_update``, so a turn queued while a run is busy lands in ``turns``, never
in the run's claim, and the run drops from its claim only the turns it finished.

Ids, not clock times, say what is done: with a simulated clock (``--now``) every
turn of a session has the same time, and a turn logged while a run was reading
may be older than what the run read. The record passes the write gate, which
redacts anything shaped like a secret (a random hex token can pass Luhn), so
ids are kept spelled in the letters a-p (``spelled``) and tokens are letters.

A claim is live while its owner works on it. It is stale, and taken over with
its turns, when its owner process on this host is gone, or when it made no
progress for ``CLAIM_STALE_S`` (an owner on another host, or one that hangs).
The record is deleted when nothing is queued or claimed.
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from collections.abc import Sequence
from typing import Any

from memory.layers.base import LayerEnv, LoggedMessage
from nodes.usage import Use
from stores.namespaces import SETTINGS

MARK_PREFIX = "consolidated:"
CLAIM_STALE_S = 300.0
_LETTERS = str.maketrans("0123456789abcdef", "abcdefghijklmnop")
Turn = dict[str, Any]  # {"ids": [spelled message id, ...], "at": iso time, "uses": [[kind, key, time], ...]}
BUSY = "busy"  # what ``claim`` returns while another run holds a live claim


def spelled(text: str) -> str:
    """``text`` as letters a-p (two per byte): nothing the secret detectors would redact."""
    return text.encode("utf-8").hex().translate(_LETTERS)


def unspelled(code: str) -> str:
    """The text that ``spelled`` spelled."""
    return bytes.fromhex(code.translate(str.maketrans("abcdefghijklmnop", "0123456789abcdef"))).decode("utf-8")


def _letters_token() -> str:
    return uuid.uuid4().hex.translate(_LETTERS)


HOST = socket.gethostname()
OWNER = f"{HOST}:{os.getpid()}:{_letters_token()[:8]}"  # this process (the suffix tells a reused pid apart)


def mark_key(thread: str) -> str:
    """The SETTINGS key of ``thread``'s queue."""
    return f"{MARK_PREFIX}{thread}"


def read_mark(env: LayerEnv, thread: str) -> dict[str, Any] | None:
    """The thread's queue record, or None when nothing of it waits."""
    item = env.store.get(env.scope.ns(SETTINGS), mark_key(thread))
    return dict(item.value) if item is not None else None


def has_backlog(mark: dict[str, Any] | None) -> bool:
    """Whether turns of the thread wait, or a run is on them."""
    return bool(mark and (mark.get("turns") or mark.get("claim")))


def queued_ids(mark: dict[str, Any] | None) -> set[str]:
    """The message ids queued or claimed in ``mark``."""
    claim = (mark or {}).get("claim") or {}
    return {unspelled(i) for t in [*(mark or {}).get("turns", []), *claim.get("turns", [])] for i in t["ids"]}


def turn_entry(turn: Sequence[LoggedMessage], uses: Sequence[Use] = ()) -> Turn:
    """One queued turn: its messages' ids, the time it was said and the uses it counts."""
    return {"ids": [spelled(m.id) for m in turn], "at": turn[0].time.isoformat(), "uses": [list(u) for u in uses]}


def message_ids(entry: Turn) -> list[str]:
    """The message ids of a queued turn."""
    return [unspelled(i) for i in entry["ids"]]


def _update(env: LayerEnv, thread: str, change: Any) -> dict[str, Any] | None:
    return env.gate.atomic_update(env.scope.ns(SETTINGS), mark_key(thread), change)


def enqueue(env: LayerEnv, thread: str, turns: Sequence[Turn]) -> None:
    """Append ``turns``; one already queued or claimed (a node re-run on resume) is not added twice."""

    def change(current: dict[str, Any] | None) -> dict[str, Any] | None:
        known = queued_ids(current)
        new = [t for t in turns if not set(message_ids(t)) & known]
        if not new:
            return current
        base = current or {"turns": []}
        return {**base, "turns": [*base.get("turns", []), *new]}

    _update(env, thread, change)


def _alive(pid: int) -> bool:
    if os.name == "nt":  # os.kill(pid, 0) would end the process there: rely on the age alone
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def is_stale(claim: dict[str, Any], now: float | None = None) -> bool:
    """Whether ``claim``'s owner is gone (see the module docstring)."""
    if (now if now is not None else time.time()) - float(claim.get("at") or 0.0) > CLAIM_STALE_S:
        return True
    owner = str(claim.get("owner") or "")
    host, pid = (owner.split(":") + ["", ""])[:2]
    if host != HOST or owner == OWNER or not pid.isdigit():
        return False
    return int(pid) == os.getpid() or not _alive(int(pid))  # same pid, other tag: an earlier process


def claim(env: LayerEnv, thread: str) -> tuple[str, list[Turn]] | str | None:
    """Take every queued turn (and those of a stale claim, first): ``(token, turns)``.

    ``BUSY`` while another run holds a live claim; None when nothing waits.
    """
    token, got = _letters_token(), {}

    def change(current: dict[str, Any] | None) -> dict[str, Any] | None:
        if current is None:
            return None
        held = current.get("claim")
        if held and not is_stale(held):
            got["busy"] = True
            return current
        turns = [*((held or {}).get("turns") or []), *(current.get("turns") or [])]
        if not turns:
            return None  # nothing queued, nobody on it: the record goes
        got["turns"] = turns
        return {**current, "turns": [], "claim": {"token": token, "owner": OWNER, "at": time.time(), "turns": turns}}

    stored = _update(env, thread, change)
    if got.get("busy"):
        return BUSY
    if "turns" not in got or not stored:
        return None
    held = stored["claim"]  # as the gate stored it: what ``progress`` and ``release`` compare with
    return held["token"], held["turns"]


def progress(env: LayerEnv, thread: str, token: str, done: Turn) -> bool:
    """Drop the finished turn ``done`` from the claim; False when the claim was taken over."""
    kept = {}

    def change(current: dict[str, Any] | None) -> dict[str, Any] | None:
        held = (current or {}).get("claim")
        if not held or held.get("token") != token:
            return current
        kept["yes"] = True
        left = [t for t in held["turns"] if t["ids"] != done["ids"]]
        return {**current, "claim": {**held, "at": time.time(), "turns": left}}

    _update(env, thread, change)
    return bool(kept)


def release(env: LayerEnv, thread: str, token: str, *, drop: bool = False) -> None:
    """End the claim: its unfinished turns go back to the front of the queue (dropped with ``drop``)."""

    def change(current: dict[str, Any] | None) -> dict[str, Any] | None:
        held = (current or {}).get("claim")
        if current is None or not held or held.get("token") != token:
            return current
        turns = [*([] if drop else held["turns"]), *(current.get("turns") or [])]
        rest = {k: v for k, v in current.items() if k not in ("claim", "turns")}
        return {**rest, "turns": turns} if turns or rest else None

    _update(env, thread, change)
