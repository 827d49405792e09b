"""Fixtures any AppTest module may ask for by name: the test's own progress database opened as a
store, and the small fixture bank in place of the shipped one."""

import pytest

from app_pages.widgets import resources
from tests.app.learner_bank import fixture_bank
from tests.app.learner_fixtures import database_url  # noqa: F401 - `store` opens it
from tutor.store import ProgressStore

BANK = fixture_bank()


@pytest.fixture(autouse=True)
def error_details_as_configured():
    """A class-mode run sets `client.showErrorDetails` for the whole process (as a deployment
    is one mode); put it back so later tests still see full errors."""
    from streamlit import config

    before = config.get_option("client.showErrorDetails")
    yield
    config.set_option("client.showErrorDetails", before)


@pytest.fixture
def store(database_url):  # noqa: F811
    db = ProgressStore.open(database_url)
    yield db
    db.close()


@pytest.fixture
def small_bank(monkeypatch):
    """The pages read the fixture bank (it has an interview question with a follow-up)."""
    monkeypatch.setattr(resources, "bank", lambda: BANK)
    monkeypatch.setattr(resources, "question", lambda qid: BANK.questions.get(qid))
