"""Scratch work's sync runs on every script run of a page with a question (Practice, Exercises,
Review): once the store and its writer are open it must not look the store up again (two
cached-resource lookups, each hashing the database URL: ~4 % of a Practice run's CPU)."""

from __future__ import annotations

import pytest

from app_pages.widgets import progress, scratch_work
from tutor.store import ENV_URL

URL = "sqlite:////nowhere/scratch-sync-test.db"


class Saved:
    def __init__(self) -> None:
        self.scratch: dict = {}


class Writer:
    def __init__(self) -> None:
        self.puts: list[tuple] = []

    def put_encoded(self, pid, key, encoded) -> None:
        self.puts.append((pid, key, encoded))


@pytest.fixture
def page(monkeypatch):
    saved = Saved()
    monkeypatch.setenv(ENV_URL, URL)
    monkeypatch.setattr(scratch_work, "page_state", lambda kind: saved)
    monkeypatch.setattr(scratch_work, "current_profile_id", lambda: 7)
    return saved


def test_sync_with_the_writer_open_writes_each_change_once_without_looking_up_the_store(
        monkeypatch, page):
    def looked_up():
        raise AssertionError("progress.store() looked up on a run whose writer is open")

    monkeypatch.setattr(progress, "store", looked_up)
    writer = Writer()
    monkeypatch.setitem(scratch_work._writers, URL, writer)
    scratch_work.sync("practice", {"question_id": "q1", "typed": {"answer": "1"}})
    scratch_work.sync("practice", {"question_id": "q1", "typed": {"answer": "1"}})  # the same
    scratch_work.sync("practice", {"question_id": "q1", "typed": {"answer": "1 + x"}})
    assert [(pid, key) for pid, key, _ in writer.puts] == [(7, "practice"), (7, "practice")]
    assert page.scratch["practice", 7] == writer.puts[-1][2]


def test_sync_without_a_store_writes_nothing_and_remembers_nothing(monkeypatch, page):
    monkeypatch.setattr(progress, "store", lambda: None)  # cannot be opened (sidebar says why)
    monkeypatch.delitem(scratch_work._writers, URL, raising=False)
    scratch_work.sync("practice", {"question_id": "q1"})
    assert page.scratch == {} and URL not in scratch_work._writers


def test_sync_without_a_profile_writes_nothing(monkeypatch, page):
    monkeypatch.setattr(scratch_work, "current_profile_id", lambda: None)
    writer = Writer()
    monkeypatch.setitem(scratch_work._writers, URL, writer)
    scratch_work.sync("practice", {"question_id": "q1"})
    assert writer.puts == [] and page.scratch == {}
