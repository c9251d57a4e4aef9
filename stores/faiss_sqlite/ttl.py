"""Time-to-live: expiry times, refresh on read, and a background sweeper.

Expired rows are hidden by every read (``live_sql``) from the moment they expire,
so correctness never depends on the sweeper; sweeping only reclaims space.
LangGraph's server skips its own sweeper for custom stores, hence our own thread.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

logger = logging.getLogger("stores.faiss_sqlite")

LIVE_SQL = "(items.expires_at IS NULL OR items.expires_at > ?)"


def expires_at(now: float, ttl_minutes: float | None) -> float | None:
    """The expiry time (epoch seconds) for a TTL in minutes; ``None`` means never."""
    if ttl_minutes is None:
        return None
    if ttl_minutes <= 0:
        raise ValueError(f"ttl must be a positive number of minutes or None, got {ttl_minutes!r}")
    return now + ttl_minutes * 60.0


class Sweeper:
    """Calls ``sweep`` every ``interval_minutes`` until stopped."""

    def __init__(self, sweep: Callable[[], int], interval_minutes: float) -> None:
        if interval_minutes <= 0:
            raise ValueError("sweep_interval_minutes must be positive")
        self._sweep = sweep
        self._interval = interval_minutes * 60.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="faiss-sqlite-ttl-sweeper", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            try:
                removed = self._sweep()
                if removed:
                    logger.info("TTL sweep removed %d expired items", removed)
            except Exception:  # keep sweeping later; a failed sweep loses nothing
                logger.exception("TTL sweep failed")

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join()
