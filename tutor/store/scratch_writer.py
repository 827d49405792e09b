"""Scratch work written behind the learner's back: the newest value of each key, in batches, by one
thread.

    writer = ScratchWriter(store)
    writer.put(profile_id, "practice", {"question_id": "…", "typed": {…}})   # at once
    writer.put(profile_id, "practice", None)        # the scratch value goes (clear)
    writer.pending(profile_id, "practice")          # (True, value) while not yet written
    writer.flush(timeout=1.0)

A page saves its scratch work on most script runs (what was typed, the question on screen). Written in
the script run, each save was a transaction of its own on the path of every interaction. Here
`put` only records the newest value of that key and wakes the writer thread, which writes
whatever is waiting in one transaction (`tutor.store.scratch.write_scratch`): under load many
sessions' scratch work shares one commit, and a value changed twice before it was written is written
once. The value is written milliseconds later; a process killed in between loses those
milliseconds of typing (it is scratch work). "Busy" (`locked`, or
`unreachable` while PostgreSQL restarts) is retried with a growing pause
(`tutor/store/retry.py`); a newer value put
meanwhile replaces the one waiting. At interpreter exit the waiting values are written for up to
`EXIT_FLUSH_S` seconds.
"""

from __future__ import annotations

import atexit
import json
import logging
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from tutor.store.database import Database
from tutor.store.retry import retry_while_busy
from tutor.store.scratch import encode_scratch, write_scratch

EXIT_FLUSH_S = 5.0
_log = logging.getLogger(__name__)

Key = tuple[int, str]  # (profile id, scratch key)


class ScratchWriter:
    """The scratch values waiting to be written to `store`, and the one thread that writes them."""

    def __init__(self, store: Database, *, first_delay: float = 0.05, max_delay: float = 2.0,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.store = store
        self.first_delay = first_delay
        self.max_delay = max_delay
        self._sleep = sleep
        self._waiting: dict[Key, tuple[str | None, datetime]] = {}  # encoded JSON, or None: clear
        self._writing: dict[Key, tuple[str | None, datetime]] = {}  # the batch being written
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None
        self.batches = 0  # transactions written (for tests and the capacity figures)
        self.retries = 0  # busy answers met so far
        atexit.register(self.flush, EXIT_FLUSH_S)

    def put(self, profile_id: int, key: str, value: Any) -> None:
        """Save `value` (JSON-ready) as the scratch value, or clear it when `value` is None. ValueError
        at once when the value is too large or the key is not a scratch key."""
        self.put_encoded(profile_id, key, None if value is None else encode_scratch(key, value))

    def put_encoded(self, profile_id: int, key: str, encoded: str | None) -> None:
        """`put` for a value already encoded by `tutor.store.scratch.encode_scratch` (None: clear)."""
        with self._lock:
            self._waiting[(profile_id, key)] = (encoded, datetime.now(UTC))
            self._ensure_thread()
            self._wake.notify()

    def pending(self, profile_id: int, key: str) -> tuple[bool, Any]:
        """(True, value) when this key has a value not yet written (None: a clear), so that a
        reload in those milliseconds reads what was typed; (False, None) otherwise."""
        with self._lock:
            entry = self._waiting.get((profile_id, key)) or self._writing.get((profile_id, key))
        if entry is None:
            return False, None
        return True, None if entry[0] is None else json.loads(entry[0])

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every value put so far is written (or given up); False on timeout."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            with self._lock:
                if not self._waiting and not self._writing:
                    return True
            if deadline is not None and time.monotonic() >= deadline:
                return False
            time.sleep(0.005)

    def _ensure_thread(self) -> None:  # with the lock held
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="scratch-writer", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._waiting:
                    self._wake.wait()
                self._writing, self._waiting = self._waiting, {}
            self._write(self._writing)
            with self._lock:
                self._writing = {}

    def _write(self, batch: dict[Key, tuple[str | None, datetime]]) -> None:
        def take_newer_values() -> None:  # a newer value put meanwhile is written instead
            self.retries += 1
            with self._lock:
                for waiting_key in [k for k in batch if k in self._waiting]:
                    batch[waiting_key] = self._waiting.pop(waiting_key)

        try:
            retry_while_busy(
                lambda: write_scratch(self.store, [(pid, key, encoded, moment) for (pid, key),
                                                  (encoded, moment) in batch.items()]),
                first_delay=self.first_delay, max_delay=self.max_delay, sleep=self._sleep,
                before_retry=take_newer_values)
        except Exception as exc:  # noqa: BLE001 - scratch work: log it, keep the thread
            _log.warning("%d scratch values not saved: %s", len(batch), exc)
        else:
            self.batches += 1
