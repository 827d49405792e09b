"""Scratch work for the pages: the question on screen and what was typed, saved to the store as the
learner goes (once per run that changed them) and read back after a reload or a server restart.

Saving is best effort and off the script run: one `ScratchWriter` per store writes the newest value
of each screen's scratch work a few milliseconds later, many sessions' in one transaction, and
retries while the store is busy. Without a profile or a store the page goes on without it.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from app_pages.state import SavedState, page_state
from app_pages.widgets import progress
from app_pages.widgets.current_profile import current_profile_id
from tutor.store import ENV_URL, ScratchWriter, TutorError
from tutor.store.scratch import encode_scratch, load_scratch

_writers: dict[str | None, ScratchWriter] = {}  # one per store URL, shared by every session
_writers_lock = threading.Lock()


def writer() -> ScratchWriter:
    """The scratch writer of the current store (call only when `progress.store()` opened it)."""
    url = os.environ.get(ENV_URL)
    found = _writers.get(url)  # a dict lookup: this is on every script run's path
    if found is None:
        with _writers_lock:
            found = _writers.get(url) or _writers.setdefault(url, ScratchWriter(progress.store()))
    return found


def _where():
    pid = current_profile_id()  # None when no store could be opened (the sidebar already says why)
    db = progress.store() if pid is not None else None
    return (db, pid) if db is not None else (None, None)


def load(key: str) -> Any | None:
    """The profile's scratch work for this screen, or None."""
    db, pid = _where()
    if db is None:
        return None
    waiting, value = writer().pending(pid, key)  # put a moment ago, not written yet
    if not waiting:
        try:
            value = load_scratch(db, pid, key)
        except TutorError:
            return None
    page_state(SavedState).scratch[key, pid] = encode_scratch(key, value)
    return value


def sync(key: str, value: Any) -> None:
    """Save `value` as this screen's scratch work when it differs from what was saved last (encoded once:
    the same text is compared and handed to the writer)."""
    try:
        encoded = encode_scratch(key, value)
    except ValueError:
        return  # too large to keep: the next change tries again
    pid = current_profile_id()  # None when no store could be opened
    saved = page_state(SavedState).scratch
    # what this session last wrote for the profile: the same is not written again
    if pid is None or saved.get((key, pid)) == encoded:
        return
    scratch_writer = _open_writer()
    if scratch_writer is None:
        return
    scratch_writer.put_encoded(pid, key, encoded)
    saved[key, pid] = encoded


def _open_writer() -> ScratchWriter | None:
    """The current store's scratch writer, or None while the store cannot be opened. This runs
    on every script run of a page with a question: once the writer exists its store is open
    (the store is a cached resource, kept once opened), so it is one dict lookup, not the two
    cached-resource lookups of `progress.store()` (each hashes the database URL)."""
    found = _writers.get(os.environ.get(ENV_URL))
    if found is not None:
        return found
    return writer() if progress.store() is not None else None


def clear(key: str) -> None:
    db, pid = _where()
    page_state(SavedState).scratch.pop((key, pid), None)
    if db is not None:
        writer().put(pid, key, None)
