"""What the page says about an answer's save while the database cannot take it: "Saved on this
server" once it is in the spool, "Not saved yet" when the spool cannot be written either, never
"Recorded for review" before the database has it; "Saved." once it has (issue 23, item 2)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from tests.app.learner_fixtures import button, database_url, open_page, texts  # noqa: F401
from tutor.store import ProgressStore

NUMERIC = "basics-residual-3d-example"  # [0.5, -0.2, 0.1]


def _db_path(url: str) -> Path:
    return Path(url.removeprefix("sqlite:///"))


def _submit(at, text):
    at.text_input(key=next(t.key for t in at.text_input if t.key.endswith(".text"))).input(text)
    return button(at, "Submit answer").click().run()


def _stored(url: str, timeout: float = 60.0) -> int:
    deadline = time.monotonic() + timeout
    db = ProgressStore.open(url)
    try:
        while time.monotonic() < deadline:
            count = sum(db.count_attempts(p.id) for p in db.list_profiles())
            if count:
                return count
            time.sleep(0.1)
        return 0
    finally:
        db.close()


def _recorded(at) -> bool:
    return any("Recorded for review" in m for m in texts(at.markdown))


class WriteLock:
    """The database's write lock, held by another program."""

    def __init__(self, url: str) -> None:
        self.path, self.holder = _db_path(url), None

    def hold(self) -> None:
        self.holder = sqlite3.connect(self.path, isolation_level=None)
        self.holder.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        if self.holder is not None:
            self.holder.execute("ROLLBACK")
            self.holder.close()
            self.holder = None


@pytest.fixture
def lock(database_url):  # noqa: F811
    held = WriteLock(database_url)
    yield held
    held.release()


def test_an_answer_in_the_spool_is_saved_on_this_server_then_saved(open_page, database_url,  # noqa: F811
                                                                    lock, tmp_path, monkeypatch):
    monkeypatch.setenv("TUTOR_SPOOL_DIR", str(tmp_path / "spool"))
    at = open_page("practice", q=NUMERIC)
    lock.hold()  # after the first run: the store is open and migrated
    at = _submit(at, "[0.5, -0.2, 0.1]")
    assert at.success[0].value == "Correct"
    assert [i.value for i in at.info if "Saved on this server" in i.value]
    assert not [w for w in at.warning if "Not saved yet" in w.value]
    assert not _recorded(at)  # the database has not scheduled anything yet
    assert list((tmp_path / "spool").glob("*.spool"))  # on disk
    lock.release()  # the database is free again: the writer lands the attempt
    assert _stored(database_url) == 1
    at = at.run()
    assert any(c.value == "Saved." for c in at.caption)
    assert not [i for i in at.info if "Saved on this server" in i.value]


def test_a_rating_stored_after_the_page_stopped_waiting_is_drawn_once_it_lands(
        open_page, database_url, lock, tmp_path, monkeypatch):  # noqa: F811
    # A slow database: the write lands after the page's SAVE_WAIT_S. The page used to give up on
    # it for good (the first try's rating never shown); the rating comes only from the database.
    monkeypatch.setenv("TUTOR_SPOOL_DIR", str(tmp_path / "spool"))
    at = open_page("practice", q=NUMERIC)
    lock.hold()  # the write waits for the test, however long the page waits
    at = _submit(at, "[0.5, 0.2, 0.1]")
    assert at.error[0].value == "Not quite"
    assert not _recorded(at)  # the page's wait has passed (its run is over): nothing to draw yet
    assert not _recorded(at.run())  # nor on a later run while the database still waits
    lock.release()
    assert _stored(database_url) == 1
    at = at.run()
    assert [m for m in texts(at.markdown) if m.startswith("Recorded for review as **Again**")]
    assert any(c.value == "Saved." for c in at.caption)
    assert len([m for m in texts(at.markdown) if "Recorded for review" in m]) == 1
    assert "Try 2 of 3" in [c.value for c in at.caption]


def test_show_the_solution_says_comes_back_tomorrow_only_once_scheduled(open_page, database_url,  # noqa: F811
                                                                        lock, tmp_path,
                                                                        monkeypatch):
    monkeypatch.setenv("TUTOR_SPOOL_DIR", str(tmp_path / "spool"))
    at = open_page("practice", q=NUMERIC)
    lock.hold()
    at = button(at, "I don't know: show the solution").click().run()
    notes = [i.value for i in at.info]
    assert "You asked for the solution: this counts as not known yet." in notes
    assert not [n for n in notes if "tomorrow" in n]
    assert [n for n in notes if "Saved on this server" in n]
    assert not _recorded(at)


def test_an_answer_the_spool_cannot_take_is_not_saved_yet(open_page, database_url, lock,  # noqa: F811
                                                          tmp_path, monkeypatch):
    blocked = tmp_path / "spool"
    blocked.write_text("a file where the spool folder should be")  # as a full or read-only disk
    monkeypatch.setenv("TUTOR_SPOOL_DIR", str(blocked))
    at = open_page("practice", q=NUMERIC)
    lock.hold()  # after the first run: the store is open and migrated
    at = _submit(at, "[0.5, -0.2, 0.1]")
    assert at.success[0].value == "Correct"
    assert [w for w in at.warning if w.value.startswith("Not saved yet")]
    assert not [i for i in at.info if "Saved on this server" in i.value]
    assert not _recorded(at)
    assert not list(blocked.parent.glob("**/*.spool"))
    at.session_state["lang"] = "zh"
    at = at.run()
    assert [w for w in at.warning if w.value.startswith("尚未保存")]


def test_an_interview_skip_is_not_called_recorded_before_the_database_has_it(
        small_bank, open_page, database_url, lock, tmp_path, monkeypatch):  # noqa: F811
    monkeypatch.setenv("TUTOR_SPOOL_DIR", str(tmp_path / "spool"))
    at = open_page("interview")
    at.slider(key="interview.count").set_value(1)
    at = button(at, "Start the interview").click().run()
    lock.hold()
    at = button(at, "I don't know: skip").click().run()
    notes = [i.value for i in at.info]
    assert "You said you don't know this one: it counts as not known yet." in notes
    assert not [n for n in notes if "recorded" in n or "comes back" in n]
    assert [n for n in notes if "Saved on this server" in n]
    assert not _recorded(at)
    lock.release()
    assert _stored(database_url) == 1
    assert any(c.value == "Saved." for c in at.run().caption)
