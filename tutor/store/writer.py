"""Attempt writes that are never dropped: on disk first, then written by one thread, retried
until they land.

    writer = AttemptWriter(store, spool=Spool(spool_dir_for(store.url)))
    pending = writer.submit(profile_id, attempt)      # at once: a PendingAttempt (a Future)
    pending.wait_durable(timeout=1.0)                  # True once it is saved: spooled or stored
    pending.state                                      # SaveState.PENDING / SPOOLED / STORED / REFUSED
    pending.result(timeout=1.0)                        # the AttemptRecord once it is stored

A learner's verdict is on screen before the attempt is written; the answer may be called saved
only once it is durable: in the database, or in this replica's spool (`tutor/store/spool.py`:
fsynced to local disk, replayed by the next process to start should this one die). So each
attempt gets a key (its unique id, unless it has one), then:

1. the spool thread appends whatever has been submitted to the spool in one write and one fsync
   (then those attempts are SPOOLED), and passes them on in the order they came; a spool that
   cannot be written (a full disk, a read-only folder) leaves them PENDING, never SPOOLED;
2. the store thread writes them in that order with `ProgressStore.record_attempt` (a card's
   reviews are applied in order), each with the moment it was submitted (`now`), not the moment
   it is written. "Busy" (`StoreUnavailable` `locked`, or `unreachable` for a PostgreSQL that is
   restarting or down) is retried with a growing pause (at most `max_delay`) for as long as it
   lasts (`tutor/store/retry.py`); then the attempt is STORED and settled in the spool. Any other error fails that
   attempt's future (REFUSED) and the writer goes on with the next; an attempt refused by the
   store's own state (`StoreUnavailable`) stays in the spool for the next start.

A new writer first writes what dead processes left in the spool (`Spool.adopt`: oldest first,
so cards move in time order), before anything submitted to it, and looks again whenever it has
been idle for `adopt_every` seconds (a replica sharing the folder with one that died takes over
its spool even if the dead one is never restarted); a replayed attempt already in the database
(the process died after writing it) is found by its key and not written again.
One store thread also means the app's own sessions never compete for SQLite's write lock; other
processes (a second app server) still can, and are waited for. At interpreter exit the queues
are drained for up to `EXIT_FLUSH_S` seconds.
"""

from __future__ import annotations

import atexit
import logging
import queue
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from datetime import datetime
from enum import StrEnum

from tutor.store.errors import StoreUnavailable
from tutor.store.progress import ProgressStore, utc_now
from tutor.store.records import NewAttempt
from tutor.store.retry import retry_while_busy
from tutor.store.spool import Spool, SpooledAttempt

_log = logging.getLogger(__name__)
EXIT_FLUSH_S = 10.0
ADOPT_EVERY_S = 5.0


class SaveState(StrEnum):
    """Where a submitted attempt is. SPOOLED and STORED are durable: "saved"."""

    PENDING = "pending"  # in this process's memory only: not saved yet
    SPOOLED = "spooled"  # on this replica's disk, to be written to the database
    STORED = "stored"  # in the database
    REFUSED = "refused"  # never to be stored (the future's exception says why)


class PendingAttempt(Future):
    """The future of one submitted attempt (its result: the AttemptRecord once stored), and
    whether it is durable yet."""

    def __init__(self, key: str) -> None:
        super().__init__()
        self.key = key
        self._durable = threading.Event()

    def mark_spooled(self) -> None:
        self._durable.set()

    def wait_durable(self, timeout: float | None = None) -> bool:
        """Wait until the attempt is saved (spooled or stored); False if it is not (yet)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._durable.is_set() and not self.done():
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return False
            self._durable.wait(0.05 if left is None else min(left, 0.05))
        return self._durable.is_set() or (self.done() and self.exception() is None)

    @property
    def state(self) -> SaveState:
        if self.done():
            return SaveState.REFUSED if self.cancelled() or self.exception() else SaveState.STORED
        return SaveState.SPOOLED if self._durable.is_set() else SaveState.PENDING


class AttemptWriter:
    """Attempts to the spool (when there is one) and then the store, each by its own thread."""

    def __init__(self, store: ProgressStore, *, spool: Spool | None = None,
                 first_delay: float = 0.05, max_delay: float = 2.0,
                 adopt_every: float = ADOPT_EVERY_S,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.store = store
        self.spool = spool
        self.adopt_every = adopt_every
        self.first_delay = first_delay
        self.max_delay = max_delay
        self._sleep = sleep
        self._to_spool: queue.Queue = queue.Queue()
        self._to_store: queue.Queue = queue.Queue()
        self._lock = threading.Lock()
        self._threads: dict[str, threading.Thread] = {}
        self.retries = 0  # busy answers met so far (for tests and logs)
        self.replayed = 0  # attempts found in the spool at start
        atexit.register(self.flush, EXIT_FLUSH_S)
        if spool is not None:
            self._adopt()
            self._ensure_threads()  # and looks for dead processes' spools while idle

    def _adopt(self) -> None:
        found = self.spool.adopt()
        for entry in found:
            replayed = PendingAttempt(entry.attempt.key)
            replayed.mark_spooled()
            self._to_store.put((entry, replayed))
        if found:
            self.replayed += len(found)
            _log.warning("spool: %d attempts left by a dead process, writing them", len(found))

    def submit(self, profile_id: int, attempt: NewAttempt, *,
               now: datetime | None = None) -> PendingAttempt:
        """Queue one attempt (given a key if it has none); at once."""
        if attempt.key is None:
            attempt = replace(attempt, key=uuid.uuid4().hex)
        pending = PendingAttempt(attempt.key)
        entry = SpooledAttempt(profile_id, attempt, now or utc_now())
        (self._to_store if self.spool is None else self._to_spool).put((entry, pending))
        self._ensure_threads()
        return pending

    def pending(self) -> int:
        """Attempts queued and not yet written (approximate while the writer runs)."""
        return self._to_spool.unfinished_tasks + self._to_store.unfinished_tasks

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every attempt submitted so far is written or refused; False on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.pending():
            if deadline is not None and time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        return True

    def _ensure_threads(self) -> None:
        wanted = {"attempt-writer": self._store_loop}
        if self.spool is not None:
            wanted["attempt-spool"] = self._spool_loop
        with self._lock:
            for name, target in wanted.items():
                thread = self._threads.get(name)
                if thread is None or not thread.is_alive():
                    self._threads[name] = threading.Thread(target=target, name=name, daemon=True)
                    self._threads[name].start()

    # ---- the spool thread -----------------------------------------------------------------
    def _spool_loop(self) -> None:
        while True:
            batch = [self._to_spool.get()]
            while True:  # everything submitted meanwhile goes in the same write and fsync
                try:
                    batch.append(self._to_spool.get_nowait())
                except queue.Empty:
                    break
            try:
                self.spool.append(entry for entry, _pending in batch)
            except OSError as exc:
                _log.warning("spool: %d attempts not on disk (%s): not saved until the database "
                             "has them", len(batch), exc)
            else:
                for _entry, pending in batch:
                    pending.mark_spooled()
            for item in batch:
                self._to_store.put(item)
                self._to_spool.task_done()

    # ---- the store thread -----------------------------------------------------------------
    def _store_loop(self) -> None:
        while True:
            try:
                entry, pending = self._to_store.get(timeout=self.adopt_every)
            except queue.Empty:
                if self.spool is not None:
                    self._adopt()
                continue
            try:
                if pending.set_running_or_notify_cancel():
                    self._write(entry, pending)
            finally:
                self._to_store.task_done()

    def _write(self, entry: SpooledAttempt, pending: PendingAttempt) -> None:
        try:
            stored = retry_while_busy(
                lambda: self.store.record_attempt(entry.profile_id, entry.attempt,
                                                  now=entry.moment),
                first_delay=self.first_delay, max_delay=self.max_delay, sleep=self._sleep,
                before_retry=self._count_retry)
        except StoreUnavailable as exc:  # refused by the store's own state, not busy
            _log.warning("attempt of profile %s not saved: %s", entry.profile_id, exc)
            pending.set_exception(exc)  # kept in the spool: the next start tries again
        except Exception as exc:  # noqa: BLE001 - refused: the caller shows why
            _log.warning("attempt of profile %s not saved: %r", entry.profile_id, exc)
            self._settle(entry)
            pending.set_exception(exc)
        else:
            self._settle(entry)
            pending.set_result(stored)

    def _count_retry(self) -> None:
        self.retries += 1

    def _settle(self, entry: SpooledAttempt) -> None:
        if self.spool is not None:
            self.spool.settled(entry.attempt.key)
