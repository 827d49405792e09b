"""Attempt writes that are never dropped: queued, written by one thread, retried until they land.

    writer = AttemptWriter(store)
    pending = writer.submit(profile_id, attempt)      # at once: a Future
    pending.result(timeout=1.0)                        # the AttemptRecord once it is stored

A learner's verdict is on screen before the attempt is written; the write must then land even
when the database is busy. One writer thread per store takes attempts in the order they were
given (so a card's reviews are applied in order) and writes each with
`ProgressStore.record_attempt`; "busy" (`StoreUnavailable` `locked`, or `unreachable` for a
PostgreSQL that is restarting) is retried with a growing pause (at most `max_delay`) for as long
as it lasts. Any other error (a deleted profile, a malformed attempt, a corrupt file) fails that
attempt's future and the writer goes on with the next. One thread also means the app's own
sessions never compete for SQLite's write lock; other processes (a second app server) still
can, and are waited for.

Each attempt keeps the moment it was submitted (`now`), not the moment it was written.
At interpreter exit the queue is drained for up to `EXIT_FLUSH_S` seconds.
"""

from __future__ import annotations

import atexit
import logging
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from datetime import datetime

from tutor.store.errors import StoreUnavailable
from tutor.store.progress import ProgressStore, utc_now
from tutor.store.records import AttemptRecord, NewAttempt

RETRYABLE = ("locked", "unreachable")
_log = logging.getLogger(__name__)
EXIT_FLUSH_S = 10.0


class AttemptWriter:
    """A queue of attempts and the one thread that writes them to `store`."""

    def __init__(self, store: ProgressStore, *, first_delay: float = 0.05, max_delay: float = 2.0,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.store = store
        self.first_delay = first_delay
        self.max_delay = max_delay
        self._sleep = sleep
        self._queue: queue.Queue = queue.Queue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.retries = 0  # busy answers met so far (for tests and logs)
        atexit.register(self.flush, EXIT_FLUSH_S)

    def submit(self, profile_id: int, attempt: NewAttempt, *,
               now: datetime | None = None) -> Future[AttemptRecord]:
        """Queue one attempt; the future gives its AttemptRecord (or the error that refused it)."""
        pending: Future[AttemptRecord] = Future()
        self._queue.put((profile_id, attempt, now or utc_now(), pending))
        self._ensure_thread()
        return pending

    def pending(self) -> int:
        """Attempts queued and not yet written (approximate while the writer runs)."""
        return self._queue.unfinished_tasks

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every attempt submitted so far is written or refused; False on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while self._queue.unfinished_tasks:
            if deadline is not None and time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        return True

    def _ensure_thread(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="attempt-writer",
                                                daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            profile_id, attempt, moment, pending = self._queue.get()
            try:
                if pending.set_running_or_notify_cancel():
                    self._write(profile_id, attempt, moment, pending)
            finally:
                self._queue.task_done()

    def _write(self, profile_id: int, attempt: NewAttempt, moment: datetime,
               pending: Future) -> None:
        delay = self.first_delay
        while True:
            try:
                stored = self.store.record_attempt(profile_id, attempt, now=moment)
            except StoreUnavailable as exc:
                if exc.code not in RETRYABLE:
                    _log.warning("attempt of profile %s not saved: %s", profile_id, exc)
                    pending.set_exception(exc)
                    return
                self.retries += 1
                self._sleep(delay)
                delay = min(delay * 2, self.max_delay)
            except Exception as exc:  # noqa: BLE001 - refused: the caller shows why
                _log.warning("attempt of profile %s not saved: %r", profile_id, exc)
                pending.set_exception(exc)
                return
            else:
                pending.set_result(stored)
                return
