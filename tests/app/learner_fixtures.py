"""AppTest fixtures for the learner pages (import them into a test module): each test gets its own
progress database."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "app_pages"


@pytest.fixture
def database_url(tmp_path, monkeypatch) -> str:
    url = f"sqlite:///{tmp_path / 'progress.db'}"
    monkeypatch.setenv("TUTOR_DATABASE_URL", url)
    return url


@pytest.fixture
def open_page(database_url):
    """`open_page("practice", lang="en", q="some-id")` -> a run AppTest of that page."""

    def _open(name: str, lang: str = "en", **params) -> AppTest:
        at = AppTest.from_file(str(PAGES / f"{name}.py"), default_timeout=60)
        at.session_state["lang"] = lang
        for key, value in params.items():
            at.query_params[key] = value
        return at.run()

    return _open


def button(at: AppTest, label: str):
    """The one visible button with this label (form submit buttons included)."""
    found = [b for b in at.button if b.label == label]
    assert found, f"no button {label!r}; have {[b.label for b in at.button]}"
    return found[0]


def texts(elements) -> list[str]:
    return [e.value for e in elements]
