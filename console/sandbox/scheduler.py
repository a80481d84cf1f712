"""A timer queue with a few worker threads: orders that become final after the callback delay,
callback deliveries and their retries, the recurring schedule's tick.

Request threads only put work here and return; a slow callback receiver occupies a worker,
never a request thread, and never the timer thread itself.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

log = logging.getLogger("console.sandbox")


class Scheduler:
    """Runs callables at a later time on a small thread pool.

    Args:
        workers: threads that run the due callables.
    """

    def __init__(self, workers: int = 4) -> None:
        self._heap: list[tuple[float, int, Callable[[], object], bool]] = []
        self._seq = itertools.count()
        self._cond = threading.Condition()
        self._stopping = False
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="sandbox-work")
        self._thread = threading.Thread(target=self._run, name="sandbox-timer", daemon=True)
        self._busy = 0
        self._waiting = 0  # entries of the heap that count for idle()

    def start(self) -> None:
        self._thread.start()

    def call_later(
        self, delay: float, func: Callable[[], object], *, periodic: bool = False
    ) -> None:
        """Run ``func`` on a worker after ``delay`` seconds (0: as soon as possible).

        ``periodic`` work (a recurring tick) does not keep :meth:`idle` from being True.
        """
        with self._cond:
            if self._stopping:
                return
            when = time.monotonic() + max(0.0, delay)
            heapq.heappush(self._heap, (when, next(self._seq), func, not periodic))
            self._waiting += not periodic
            self._cond.notify()

    def call_at_wall(self, when: float, func: Callable[[], object]) -> None:
        """Run ``func`` when real time reaches ``when`` (Unix seconds), or now if past."""
        self.call_later(when - time.time(), func)

    def idle(self) -> bool:
        """True when nothing is waiting or running (for tests that wait for quiet)."""
        with self._cond:
            return self._waiting == 0 and self._busy == 0

    def pending(self) -> int:
        with self._cond:
            return self._waiting + self._busy

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._stopping and (
                    not self._heap or self._heap[0][0] > time.monotonic()
                ):
                    timeout = self._heap[0][0] - time.monotonic() if self._heap else None
                    self._cond.wait(timeout)
                if self._stopping:
                    return
                _, _, func, counted = heapq.heappop(self._heap)
                self._waiting -= counted
                self._busy += 1
            try:
                self._pool.submit(self._guarded, func)
            except RuntimeError:  # the pool is shutting down
                with self._cond:
                    self._busy -= 1
                return

    def _guarded(self, func: Callable[[], object]) -> None:
        try:
            func()
        except Exception:
            log.exception("sandbox background task failed")
        finally:
            with self._cond:
                self._busy -= 1

    def stop(self) -> None:
        """Stop the timer, drop what is not due, and wait for running work to finish."""
        with self._cond:
            self._stopping = True
            self._heap.clear()
            self._waiting = 0
            self._cond.notify_all()
        if self._thread.is_alive():
            self._thread.join()
        self._pool.shutdown(wait=True, cancel_futures=True)
