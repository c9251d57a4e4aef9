"""The CLI's background consolidation: one worker thread, one debounce timer per chat thread.

After a deferred turn (nodes/background.py) ``schedule`` (re)starts the thread's
timer: a newer turn replaces the pending run, so three quick turns make one run.
When a thread has been quiet for ``delay_s`` (the idle timeout) the worker runs
its consolidation.

Runs never overlap: each holds the job lock. ``flush`` takes it too, so it first
waits for a run in progress (whatever thread that run is on), then runs now, in
the caller's thread, the thread's consolidation (every thread's for None: those
waiting for their timer and the one the worker was running). ``MemoryAgent``
flushes before ``/end``, before each command of its own that reads or forgets
(``env()``) and on close; plain-words commands and the memory tools run inside
the graph, which settles the same queue (nodes/background.py). A run only ever
finishes the turns it claimed (nodes/consolidation_queue.py): a turn said during
a run waits for the next. A run that fails is logged; its turns stay queued, so
the next run (or the next process) catches up.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


class ConsolidationWorker:
    """Debounced per-thread runs of ``run(thread)`` on a daemon thread."""

    def __init__(self, run: Callable[[str], int], delay_s: float) -> None:
        if delay_s <= 0:
            raise ValueError("delay_s must be positive; 0 means consolidate synchronously, without a worker")
        self.delay_s = delay_s
        self.runs = 0  # runs that consolidated something (``run`` returned a truthy value)
        self._run = run
        self._due: dict[str, float] = {}
        self._taken: str | None = None  # the thread the worker took off ``_due`` and has not finished
        self._cond = threading.Condition()
        self._job = threading.Lock()
        self._closed = False
        self._thread = threading.Thread(target=self._loop, name="memory-consolidation", daemon=True)
        self._thread.start()

    def schedule(self, thread: str) -> None:
        """Start (or restart) ``thread``'s timer: its run happens ``delay_s`` after its last turn."""
        with self._cond:
            if self._closed:
                raise RuntimeError("the consolidation worker is closed")
            self._due[thread] = time.monotonic() + self.delay_s
            self._cond.notify()

    def pending(self) -> list[str]:
        """Threads whose run is scheduled and not started."""
        with self._cond:
            return sorted(self._due)

    def flush(self, thread: str | None = None) -> None:
        """Wait for a run in progress, then run ``thread``'s consolidation now (every thread's for None)."""
        with self._cond:
            if thread is None:
                threads = sorted({*self._due, *([self._taken] if self._taken else [])})
                self._due.clear()
            else:
                threads = [thread]
                self._due.pop(thread, None)
        with self._job:
            for t in threads:
                self._execute(t)

    def close(self) -> None:
        """Flush every thread, then stop the worker."""
        self.flush()
        with self._cond:
            self._closed = True
            self._cond.notify()
        self._thread.join(timeout=30)

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._closed:
                    now = time.monotonic()
                    ready = [t for t, due in self._due.items() if due <= now]
                    if ready:
                        break
                    timeout = min(self._due.values()) - now if self._due else None
                    self._cond.wait(timeout)
                if self._closed:
                    return
                thread = min(ready, key=self._due.__getitem__)
                del self._due[thread]
                self._taken = thread
            try:
                with self._job:
                    self._execute(thread)
            finally:
                with self._cond:
                    self._taken = None

    def _execute(self, thread: str) -> None:
        """One run; the caller holds the job lock."""
        try:
            done = self._run(thread)
        except Exception:  # a failed run must not kill the worker; its turns stay queued
            log.exception("background consolidation of thread %s failed; it will be retried", thread)
        else:
            self.runs += bool(done)
