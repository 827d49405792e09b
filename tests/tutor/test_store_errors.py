"""A corrupt, locked, missing or foreign database gives StoreUnavailable with a code and a zh/en
message, and the file is never overwritten."""

from __future__ import annotations

import sqlite3
import threading

import pytest
from sqlalchemy.engine import make_url

from grader import Verdict
from tutor.store import STORE_ERROR_CODES, NewAttempt, ProgressStore, StoreUnavailable
from tutor.store.engine import build_engine, enable_wal

from .conftest import T0


def _sqlite_url(path) -> str:
    return f"sqlite:///{path}"


def _open_refused(url: str, **kwargs) -> StoreUnavailable:
    with pytest.raises(StoreUnavailable) as caught:
        ProgressStore.open(url, **kwargs)
    return caught.value


@pytest.mark.parametrize(
    "content",
    [
        b"this is not a database at all, just some garbage text\n" * 50,
        bytes(range(256)) * 64,
        # A right header followed by garbage pages.
        b"SQLite format 3\x00" + b"\xff" * 8000,
    ],
    ids=["text", "binary", "bad-pages"],
)
def test_a_corrupt_file_is_reported_and_left_untouched(tmp_path, content):
    path = tmp_path / "progress.db"
    path.write_bytes(content)
    error = _open_refused(_sqlite_url(path))
    assert error.code == "corrupt"
    assert str(path) in error.message("en") and str(path) in error.message("zh")
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["progress.db"]


def test_a_location_that_cannot_be_created(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where a folder should be")
    assert _open_refused(_sqlite_url(blocker / "progress.db")).code == "missing-location"
    assert blocker.read_text() == "a file where a folder should be"


def test_a_folder_in_place_of_the_file(tmp_path):
    assert _open_refused(_sqlite_url(tmp_path)).code == "not-a-file"


def test_a_missing_folder_is_created_on_first_run(tmp_path):
    path = tmp_path / "deep" / "er" / "progress.db"
    ProgressStore.open(_sqlite_url(path)).close()
    assert path.read_bytes().startswith(b"SQLite format 3\x00")


def test_the_default_location_comes_from_the_environment(tmp_path):
    env = {"XDG_DATA_HOME": str(tmp_path)}
    ProgressStore.open(env=env).close()
    assert (tmp_path / "residual-tutor" / "progress.db").exists()
    other = tmp_path / "elsewhere.db"
    ProgressStore.open(env={"TUTOR_DATABASE_URL": _sqlite_url(other)}).close()
    assert other.exists()


def test_a_database_locked_by_another_program(tmp_path):
    path = tmp_path / "progress.db"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("CREATE TABLE theirs (x)")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("INSERT INTO theirs VALUES (1)")
    try:
        assert _open_refused(_sqlite_url(path), busy_timeout_ms=50, retries=2).code == "locked"
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_a_write_blocked_too_long_is_reported_and_nothing_is_lost(tmp_path):
    path = tmp_path / "progress.db"
    store = ProgressStore.open(_sqlite_url(path), busy_timeout_ms=50, retries=2)
    ada = store.create_profile("Ada")
    store.record_attempt(ada.id, NewAttempt("q1", Verdict.CORRECT, score=1.0), now=T0)
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreUnavailable) as caught:
            store.record_attempt(ada.id, NewAttempt("q2", Verdict.CORRECT, score=1.0), now=T0)
        assert caught.value.code == "locked"
        assert [a.question_id for a in store.list_attempts(ada.id)] == ["q1"]  # readers still read
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    store.record_attempt(ada.id, NewAttempt("q2", Verdict.CORRECT, score=1.0), now=T0)
    assert store.count_attempts(ada.id) == 2
    store.close()


def test_a_database_of_another_program_is_left_alone(tmp_path):
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    before = path.read_bytes()
    assert _open_refused(_sqlite_url(path)).code == "foreign-database"
    with sqlite3.connect(path) as other:
        tables = {r[0] for r in other.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables == {"invoices"} and path.read_bytes() == before


@pytest.mark.parametrize("statement", [
    "UPDATE alembic_version SET version_num = '0099'",
    # made before Alembic, by a newer app of that time
    "DROP TABLE alembic_version; UPDATE schema_version SET version = 99",
])
def test_a_database_from_a_newer_app_is_refused(tmp_path, statement):
    path = tmp_path / "progress.db"
    ProgressStore.open(_sqlite_url(path)).close()
    with sqlite3.connect(path) as conn:
        conn.executescript(statement)
    before = path.read_bytes()
    error = _open_refused(_sqlite_url(path))
    assert error.code == "newer-schema" and "99" in error.message("zh")
    assert path.read_bytes() == before


def test_a_database_at_a_revision_we_do_not_know_is_refused(tmp_path):
    path = tmp_path / "progress.db"
    ProgressStore.open(_sqlite_url(path)).close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'f00dcafe'")
    assert _open_refused(_sqlite_url(path)).code == "newer-schema"


@pytest.mark.parametrize(
    ("url", "code"),
    [("not a url", "bad-url"), ("postgresql+psycopg://nobody:x@127.0.0.1:1/nothing", "unreachable")],
)
def test_bad_or_unreachable_urls(url, code):
    assert _open_refused(url).code == code


@pytest.mark.parametrize("code", STORE_ERROR_CODES)
def test_every_error_code_has_a_message_in_both_languages(code):
    error = StoreUnavailable(code, path="/p", found=3, known=2)
    assert error.message("en") != error.message("zh")
    assert "{" not in error.message("en") and "{" not in error.message("zh")


def test_an_unknown_error_code_is_a_programming_error():
    with pytest.raises(ValueError):
        StoreUnavailable("exploded")


def test_switching_to_wal_waits_out_a_lock_held_for_a_moment(tmp_path):
    # Regression: two processes opening a fresh file at once failed with "database is locked":
    # SQLite refuses the journal-mode switch at once, without its busy handler, while another
    # connection holds a lock. Here another connection holds a read lock for 0.3 s and the busy
    # timeout is 0, so only waiting and trying again can succeed. (How soon after the release
    # the switch lands is measured by bench/bench_time_bounds.py.)
    path = tmp_path / "fresh.db"
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.commit()
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN")
    holder.execute("SELECT * FROM t").fetchall()  # a shared lock until the transaction ends
    releasing = threading.Event()

    def release() -> None:
        releasing.set()  # before the COMMIT: a switch that lands has seen it set
        holder.execute("COMMIT")

    timer = threading.Timer(0.3, release)
    engine = build_engine(make_url(f"sqlite:///{path}"), busy_timeout_ms=0)
    timer.start()
    try:
        enable_wal(engine)
        switched_after_the_release = releasing.is_set()  # it did wait for the lock
    finally:
        timer.join()
        holder.close()
    assert switched_after_the_release
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    engine.dispose()
