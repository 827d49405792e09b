"""The app's pages: one Streamlit script per screen, listed in `PAGES`, and their strings in
`strings/<lang>/<namespace>.json`, which importing this package adds to `tutor.i18n`.

Importing this package must stay cheap (no torch, sympy or grader): `streamlit_app.py` imports it
on every cold start, before the first page can render.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from tutor.i18n import add_strings

PAGES_DIR = Path(__file__).parent
# The strings only pages and widgets use. Tutor never imports the pages, so the pages add their
# strings to its loader; every page module is imported after this package, hence after this line.
STRINGS_DIR = PAGES_DIR / "strings"
add_strings(STRINGS_DIR)
# The browser tab's icon, served by the app itself: a `:material/…:` page icon makes the browser
# fetch it from Google's font CDN on every page, which fails on a machine without internet (and an
# emoji one loads Streamlit's 2 s emoji table).
FAVICON = PAGES_DIR / "assets" / "favicon.png"


def favicon() -> Path | None:
    """The page icon to give `st.set_page_config`. Streamlit reads an image icon through
    `image_to_url`, which imports numpy and PIL first (~0.35 s): the first page of a fresh process
    must not wait for that (tests/app/test_cold_start_imports.py), so its run gives none, and
    Streamlit shows that page's Material icon instead, fetched from Google's CDN: one request per
    fresh server process, which fails harmlessly offline. Every run after it gets ours: numpy is
    loaded by then (server_tuning's warm-up), and a session keeps the icon it was given."""
    return FAVICON if "numpy" in sys.modules else None


@dataclass(frozen=True)
class PageSpec:
    """One entry of the navigation: its translated title, script, icon and stable URL path."""

    title_key: str
    file: str
    icon: str
    url_path: str
    section_key: str
    instructor: bool = False  # in a class deployment, shown to instructors only (app_pages.widgets.auth)

    @property
    def path(self) -> Path:
        return PAGES_DIR / self.file


# In navigation order; the first page is the default one.
PAGES: tuple[PageSpec, ...] = (
    PageSpec("common.nav.practice", "practice.py", ":material/edit_note:", "practice", "common.nav.learn"),
    PageSpec("questions.nav", "questions.py", ":material/list_alt:", "questions", "common.nav.learn"),
    PageSpec("common.nav.exercises", "exercises.py", ":material/calculate:", "exercises", "common.nav.learn"),
    PageSpec("common.nav.derivation", "derivation.py", ":material/functions:", "derivation", "common.nav.learn"),
    PageSpec("common.nav.explore", "explore.py", ":material/insights:", "explore", "common.nav.learn"),
    PageSpec("common.nav.review", "review.py", ":material/history:", "review", "common.nav.progress"),
    PageSpec("common.nav.interview", "interview.py", ":material/record_voice_over:", "interview", "common.nav.progress"),
    PageSpec("common.nav.dashboard", "dashboard.py", ":material/monitoring:", "dashboard", "common.nav.progress"),
    PageSpec("author.nav", "author.py", ":material/edit_document:", "author", "author.nav_section", True),
    PageSpec("analytics.nav", "analytics.py", ":material/query_stats:", "analytics", "author.nav_section", True),
    PageSpec("classview.nav", "class_view.py", ":material/groups:", "class", "author.nav_section", True),
)
