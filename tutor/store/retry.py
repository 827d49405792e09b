"""One rule for a store that is busy: wait and try again, pausing longer each time.

"Busy" is a `StoreUnavailable` whose code is `locked` (another writer holds SQLite's lock) or
`unreachable` (a PostgreSQL that is restarting or down): it passes, so the write is retried for
as long as it lasts. Every other error is the caller's to handle and is raised at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from tutor.store.errors import StoreUnavailable

RETRYABLE = ("locked", "unreachable")
T = TypeVar("T")


def is_busy(error: StoreUnavailable) -> bool:
    """Whether the store will likely take the same write again later."""
    return error.code in RETRYABLE


def retry_while_busy(write: Callable[[], T], *, first_delay: float, max_delay: float,
                     sleep: Callable[[float], None] = time.sleep,
                     before_retry: Callable[[], None] = lambda: None) -> T:
    """`write()`'s result once the store is not busy. Pauses `first_delay`, doubling up to
    `max_delay`, between tries; `before_retry` runs before each pause (to count the retries, or
    to swap in newer values for the next try). Any other exception propagates unchanged."""
    delay = first_delay
    while True:
        try:
            return write()
        except StoreUnavailable as exc:
            if not is_busy(exc):
                raise
        before_retry()
        sleep(delay)
        delay = min(delay * 2, max_delay)
