"""AppTest helpers for the shell's pages: run the real `streamlit_app.py`, then switch page."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "streamlit_app.py"
TIMEOUT = 60
# The default page may open the progress store; never let a test touch the learner's own file.
_DATA = tempfile.mkdtemp(prefix="tutor-apptest-")
os.environ.setdefault("TUTOR_DATABASE_URL", f"sqlite:///{Path(_DATA) / 'tutor.db'}")


def open_app(page: str | None = None, lang: str = "en", **params) -> AppTest:
    """The app in `lang` (set through the URL, as a shared link would), on `page` if given."""
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.query_params["lang"] = lang
    for key, value in params.items():
        at.query_params[key] = str(value)
    if page:
        # Start on the page itself (as a link to it would), not on the default page first.
        at.switch_page(f"app_pages/{page}.py")
    at.run()
    assert not at.exception, at.exception
    return at


def profile_state(at: AppTest, key: str):
    """The current profile's per-question state `key` ("practice.run", "interview.session"):
    kept per profile (app_pages.state)."""
    from app_pages.state import PROFILE_KEY, profile_key

    return at.session_state[profile_key(key, at.session_state[PROFILE_KEY])]
