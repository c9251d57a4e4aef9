"""A per-user lock between processes, so a forget holds against a writer elsewhere.

``memory-agent forget`` in one process used to delete a thread's checkpoints
while the same user's chat, in another process, was in the middle of a turn or a
background consolidation run: that run had read the thread before the delete and
wrote its checkpoints (the forgotten words in them) after it. Now every run that
writes a user's memory holds this user's lock shared, and forget and delete-user
hold it exclusive: a run either ends before the forget starts (the forget then
deletes what it wrote) or starts after it ends (it reads the thread as forgotten).

The lock is ``flock`` on ``<data_dir>/locks/<hash of the user label>.lock``.
Within one process the lock is counted, not taken twice, so a forget inside a
chat turn, or a worker thread's run while this process forgets, does not wait
on itself.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX: no other-process fence
    fcntl = None  # type: ignore[assignment]

LOCKS_SUBDIR = "locks"
WAIT_S = 300.0  # how long a forget waits for a running turn before it gives up, in one line
_POLL_S = 0.02


@dataclass
class _Held:
    fd: int
    shared: int = 0
    exclusive: int = 0


_held: dict[str, _Held] = {}
_mutex = threading.RLock()


def _path(data_dir: str | os.PathLike[str], label: str) -> Path:
    folder = Path(data_dir) / LOCKS_SUBDIR
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{hashlib.sha256(label.encode('utf-8', 'surrogatepass')).hexdigest()[:32]}.lock"


def _flock(fd: int, mode: int, wait_s: float) -> None:
    deadline = time.monotonic() + wait_s
    while True:
        try:
            fcntl.flock(fd, mode | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() > deadline:
                raise RuntimeError("another process is writing this user's memory; nothing was changed, "
                                   "try again when it is done") from None
            time.sleep(_POLL_S)


@contextmanager
def user_fence(data_dir: str | os.PathLike[str] | None, label: str, *, exclusive: bool = False,
               wait_s: float = WAIT_S) -> Iterator[None]:
    """Hold ``label``'s lock in ``data_dir``: shared for a writer, exclusive for a forget."""
    if data_dir is None or fcntl is None:
        yield
        return
    key = str(_path(data_dir, label))
    with _mutex:
        held = _held.get(key)
        if held is None:
            held = _held[key] = _Held(os.open(key, os.O_RDWR | os.O_CREAT, 0o600))
        if exclusive and not held.exclusive:
            _flock(held.fd, fcntl.LOCK_EX, wait_s)  # converts this process's shared lock, if any
        elif not exclusive and not (held.shared or held.exclusive):
            _flock(held.fd, fcntl.LOCK_SH, wait_s)
        if exclusive:
            held.exclusive += 1
        else:
            held.shared += 1
    try:
        yield
    finally:
        with _mutex:
            if exclusive:
                held.exclusive -= 1
            else:
                held.shared -= 1
            if not held.exclusive:
                fcntl.flock(held.fd, fcntl.LOCK_SH if held.shared else fcntl.LOCK_UN)
