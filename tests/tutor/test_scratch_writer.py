"""ScratchWriter: the newest value of each draft lands, batched off the script run, through a busy
database; a reload in between reads the value still waiting."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from tutor.store import ProgressStore, ScratchWriter
from tutor.store.schema import drafts
from tutor.store.scratch import MAX_SCRATCH_CHARS, load_scratch, save_scratch

from .conftest import T0


def _rows(store) -> int:
    return store.read(lambda conn: len(conn.execute(drafts.select()).all()))


def test_drafts_land_with_their_newest_value_and_clears_remove_them(store, profile):
    writer = ScratchWriter(store)
    writer.put(profile.id, "practice", {"typed": {"text": "1"}})
    writer.put(profile.id, "practice", {"typed": {"text": "1 + F'(x)"}})
    writer.put(profile.id, "interview", [1, "二"])
    assert writer.flush(timeout=30)
    assert load_scratch(store, profile.id, "practice") == {"typed": {"text": "1 + F'(x)"}}
    assert load_scratch(store, profile.id, "interview") == [1, "二"]
    writer.put(profile.id, "practice", None)
    assert writer.flush(timeout=30)
    assert load_scratch(store, profile.id, "practice") is None
    assert load_scratch(store, profile.id, "interview") == [1, "二"]
    assert writer.pending(profile.id, "interview") == (False, None)


def test_many_sessions_saving_at_once_share_transactions_and_lose_nothing(store):
    profiles = [store.create_profile(f"learner {n}") for n in range(20)]
    writer = ScratchWriter(store)

    def session(profile_id: int) -> None:
        for k in range(30):
            writer.put(profile_id, "practice", {"typed": {"text": f"x^{k}"}})

    threads = [threading.Thread(target=session, args=(p.id,)) for p in profiles]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert writer.flush(timeout=60)
    assert [load_scratch(store, p.id, "practice") for p in profiles] == \
        [{"typed": {"text": "x^29"}}] * 20
    assert writer.batches < 20 * 30  # coalesced: far fewer transactions than saves


def test_a_draft_of_a_deleted_profile_is_skipped_and_the_writer_goes_on(store, profile):
    other = store.create_profile("Bo")
    writer = ScratchWriter(store)
    store.delete_profile(profile.id)
    writer.put(profile.id, "practice", "orphan")
    assert writer.flush(timeout=30)
    writer.put(other.id, "practice", "kept")
    assert writer.flush(timeout=30)
    assert _rows(store) == 1
    assert load_scratch(store, other.id, "practice") == "kept"


@pytest.mark.parametrize(("key", "value"), [("", 1), ("k" * 65, 1), ("ok", "x" * MAX_SCRATCH_CHARS)])
def test_bad_keys_and_oversized_drafts_are_refused_at_once(store, profile, key, value):
    with pytest.raises(ValueError):
        ScratchWriter(store).put(profile.id, key, value)


def test_a_busy_database_delays_a_draft_which_is_readable_meanwhile_and_then_lands(tmp_path):
    path = tmp_path / "progress.db"
    store = ProgressStore.open(f"sqlite:///{path}", busy_timeout_ms=20, retries=1)
    ada = store.create_profile("Ada")
    save_scratch(store, ada.id, "practice", "old", now=T0)
    writer = ScratchWriter(store, first_delay=0.01, max_delay=0.05)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    try:
        writer.put(ada.id, "practice", "typed while busy")
        assert not writer.flush(timeout=0.5)
        assert writer.retries > 0
        # a reload now reads the value waiting, not the stale one in the database
        assert writer.pending(ada.id, "practice") == (True, "typed while busy")
        writer.put(ada.id, "practice", "typed later")  # replaces the one waiting
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert writer.flush(timeout=30)
    assert load_scratch(store, ada.id, "practice") == "typed later"
    store.close()
