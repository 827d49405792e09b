"""The attempt spool and the writer around it: an attempt is called saved only when it is on disk
or in the database; what a dead process left is written once, in time order; a torn last record
is skipped without losing the records before it; a spool that cannot be written says "not saved"."""

from __future__ import annotations

import errno
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
import zlib
from datetime import timedelta
from pathlib import Path

import pytest

from grader import Verdict
from tests.tutor.conftest import T0
from tutor.store import AttemptWriter, NewAttempt, ProgressStore, SaveState, Spool
from tutor.store import spool as spool_module
from tutor.store.spool import SpooledAttempt, read_records

ROOT = Path(__file__).resolve().parents[2]


def _entry(n: int, *, profile_id: int = 1, minutes: int | None = None) -> SpooledAttempt:
    attempt = NewAttempt(f"q{n}", Verdict.CORRECT, score=1.0, answer=f"答 {n}\n", rubric_ticks=("a",),
                         key=f"key-{n}")
    return SpooledAttempt(profile_id, attempt, T0 + timedelta(minutes=n if minutes is None else minutes))


def _locked_sqlite(path: Path):
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another program holds the write lock: "busy"
    return holder


@pytest.fixture
def busy_store(tmp_path):
    """A SQLite store whose writes meet "locked" at once (short busy timeout, one try)."""
    path = tmp_path / "progress.db"
    store = ProgressStore.open(f"sqlite:///{path}", busy_timeout_ms=20, retries=1)
    store.path = path
    yield store
    store.close()


def test_a_record_reads_back_as_written():
    entry = _entry(1)
    [back], skipped = read_records(entry.to_line())
    assert back == entry and skipped == 0


# A record as the spool's format describes it (CRC-32 of the ASCII JSON, a space, the JSON, a
# newline), written out by hand: the line a server writes today and what a segment left on disk
# by an older server holds, so neither side of an upgrade misreads the other.
_RECORD_2 = (
    b'3ec370ac {"profile_id":1,"moment":"2026-03-01T09:02:00+00:00","attempt":{"question_id":"q2",'
    b'"verdict":"correct","score":1.0,"answer":"\\u7b54 2\\n","seed":null,"hints_used":0,'
    b'"seconds":0.0,"confidence":null,"rubric_ticks":["a"],"mode":"practice",'
    b'"required_missed":false,"misconception_ticked":false,"bonus_hit":false,'
    b'"slow_after_seconds":180.0,"phase":"first","key":"key-2","unassessed":false,'
    b'"assesses":null}}\n')


def test_a_record_is_written_in_the_documented_format_byte_for_byte():
    line = _entry(2).to_line()
    checksum, _, data = line.rstrip(b"\n").partition(b" ")
    assert int(checksum, 16) == zlib.crc32(data) and data.isascii()
    assert line == _RECORD_2
    assert read_records(_RECORD_2) == ([_entry(2)], 0)


def test_the_spool_folder_is_made_when_first_needed(tmp_path):
    spool = Spool(tmp_path / "a" / "b" / "spool")
    spool.append([_entry(1)])
    spool.close()
    assert Spool(tmp_path / "a" / "b" / "spool").adopt() == [_entry(1)]


def test_a_dead_processs_segment_is_adopted_and_a_live_ones_is_not(tmp_path):
    live = Spool(tmp_path)
    live.append([_entry(1), _entry(2)])
    assert Spool(tmp_path).adopt() == []  # its process holds the lock
    live.close()  # what the kernel does when the process dies
    assert Spool(tmp_path).adopt() == [_entry(1), _entry(2)]


def test_a_segment_of_another_database_is_left_alone(tmp_path):
    theirs = Spool(tmp_path, database="other")
    theirs.append([_entry(1)])
    theirs.close()
    assert Spool(tmp_path, database="ours").adopt() == []
    assert Spool(tmp_path, database="other").adopt() == [_entry(1)]


def test_a_torn_last_record_is_skipped_and_the_ones_before_it_kept(tmp_path):
    spool = Spool(tmp_path)
    spool.append([_entry(1), _entry(2)])
    [segment] = tmp_path.glob("*.spool")
    with segment.open("ab") as handle:  # a crash in the middle of the third record
        handle.write(_entry(3).to_line()[:40])
    spool.close()
    heir = Spool(tmp_path)
    assert heir.adopt() == [_entry(1), _entry(2)]
    assert heir.skipped == 1


def test_a_damaged_record_is_skipped_and_the_others_kept(tmp_path):
    lines = [_entry(n).to_line() for n in (1, 2, 3)]
    lines[1] = lines[1].replace(b"q2", b"q9")  # a flipped byte: the checksum no longer matches
    records, skipped = read_records(b"".join(lines))
    assert records == [_entry(1), _entry(3)] and skipped == 1


def test_attempts_are_replayed_oldest_first_across_segments(tmp_path):
    first, second = Spool(tmp_path), Spool(tmp_path)
    first.append([_entry(1, minutes=1), _entry(3, minutes=5)])
    second.append([_entry(2, minutes=2), _entry(4, minutes=9)])
    first.close()
    second.close()
    assert [e.attempt.key for e in Spool(tmp_path).adopt()] == ["key-1", "key-2", "key-3", "key-4"]


def test_a_segment_killed_mid_life_is_adopted(tmp_path):
    # A real process appends, says so, and is SIGKILLed: its lock dies with it.
    script = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from tests.tutor.test_spool import _entry
        from tutor.store import Spool
        Spool({str(tmp_path)!r}).append([_entry(1), _entry(2)])
        print("appended", flush=True)
        time.sleep(60)
    """)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "appended"
        assert Spool(tmp_path).adopt() == []  # alive
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    assert Spool(tmp_path).adopt() == [_entry(1), _entry(2)]


def test_settled_segments_are_deleted(tmp_path, monkeypatch):
    monkeypatch.setattr(spool_module, "ROTATE_BYTES", 1)
    spool = Spool(tmp_path)
    spool.append([_entry(1), _entry(2)])
    spool.settled("key-1")
    assert len(list(tmp_path.glob("*.spool"))) == 1 and spool.waiting() == 1
    spool.settled("key-2")
    assert list(tmp_path.glob("*.spool")) == [] and spool.waiting() == 0
    spool.append([_entry(3)])  # a new segment
    assert len(list(tmp_path.glob("*.spool"))) == 1


def test_an_attempt_is_saved_in_the_spool_while_the_database_is_busy(busy_store, tmp_path):
    ada = busy_store.create_profile("Ada")
    writer = AttemptWriter(busy_store, spool=Spool(tmp_path / "spool"), first_delay=0.01,
                           max_delay=0.05)
    holder = _locked_sqlite(busy_store.path)
    try:
        pending = writer.submit(ada.id, NewAttempt("q1", Verdict.CORRECT, score=1.0), now=T0)
        assert pending.wait_durable(timeout=10)
        assert pending.state is SaveState.SPOOLED
        assert Spool(tmp_path / "spool").adopt() == []  # held by its living writer: not taken
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert pending.result(timeout=30).key == pending.key
    assert pending.state is SaveState.STORED
    assert busy_store.count_attempts(ada.id) == 1


@pytest.mark.parametrize("fault", ["disk-full", "not-a-folder", "no-spool"])
def test_an_attempt_not_on_disk_is_saved_only_once_stored(busy_store, tmp_path, monkeypatch,
                                                          fault):
    """A spool that cannot be written, or none at all: "saved" waits for the database."""
    ada = busy_store.create_profile("Ada")
    where = tmp_path / "spool"
    if fault == "not-a-folder":
        where.write_text("a file where the folder should be")
    elif fault == "disk-full":
        def full(_fd, _data):
            raise OSError(errno.ENOSPC, "No space left on device")
        monkeypatch.setattr(spool_module.os, "write", full)
    spool = None if fault == "no-spool" else Spool(where)
    writer = AttemptWriter(busy_store, spool=spool, first_delay=0.01, max_delay=0.05)
    holder = _locked_sqlite(busy_store.path)
    try:
        pending = writer.submit(ada.id, NewAttempt("q1", Verdict.WRONG), now=T0)
        assert not pending.wait_durable(timeout=0.5)
        assert pending.state is SaveState.PENDING
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert pending.wait_durable(timeout=30)  # the database has it now: saved
    assert pending.state is SaveState.STORED


def test_a_restarted_writer_stores_each_spooled_attempt_once(store, profile, tmp_path):
    # The dead process had written the first two to the database before it died.
    entries = [_entry(n, profile_id=profile.id) for n in range(1, 6)]
    dead = Spool(tmp_path)
    dead.append(entries)
    for entry in entries[:2]:
        store.record_attempt(entry.profile_id, entry.attempt, now=entry.moment)
    dead.close()
    writer = AttemptWriter(store, spool=Spool(tmp_path))
    assert writer.replayed == 5
    assert writer.flush(timeout=30)
    stored = store.list_attempts(profile.id)
    assert [a.key for a in stored] == [f"key-{n}" for n in range(1, 6)]
    assert [a.created_at for a in stored] == [e.moment for e in entries]
    assert list(tmp_path.glob("*.spool")) == []  # all settled: the adopted segment is gone


def test_a_living_writer_takes_over_the_spool_of_one_that_died(store, profile, tmp_path):
    writer = AttemptWriter(store, spool=Spool(tmp_path), adopt_every=0.05)
    died = Spool(tmp_path)  # another replica on the same folder, killed with attempts on disk
    died.append([_entry(n, profile_id=profile.id) for n in (1, 2)])
    died.close()
    deadline = time.monotonic() + 30
    while store.count_attempts(profile.id) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert writer.replayed == 2
    assert [a.key for a in store.list_attempts(profile.id)] == ["key-1", "key-2"]


class _DiesAfter:
    """A store whose process "dies" (its writes stop forever) after `n` writes."""

    def __init__(self, store, n: int) -> None:
        self.store, self.left, self.stop = store, n, threading.Event()

    def record_attempt(self, *args, **kwargs):
        if self.left == 0:
            self.stop.wait()
        self.left -= 1
        return self.store.record_attempt(*args, **kwargs)


def test_a_replay_cut_short_is_finished_by_the_next_start_once_each(store, profile, tmp_path):
    entries = [_entry(n, profile_id=profile.id) for n in range(1, 6)]
    first_life = Spool(tmp_path)
    first_life.append(entries)
    first_life.close()
    second_life = Spool(tmp_path)
    dying = _DiesAfter(store, 3)
    AttemptWriter(dying, spool=second_life)  # replays three, then hangs as if killed
    while dying.left > 0:
        threading.Event().wait(0.01)
    second_life.close()  # killed: its lock goes with it
    writer = AttemptWriter(store, spool=Spool(tmp_path))
    assert writer.flush(timeout=30)
    dying.stop.set()
    assert [a.key for a in store.list_attempts(profile.id)] == [f"key-{n}" for n in range(1, 6)]
