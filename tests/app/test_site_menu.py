"""The sidebar menu drawn by the shell (app_pages/widgets/site_menu.py, issue 31): every page of
the table, in order, under its section's name, in the learner's language; the hidden duplicate of
the default page is routed but not listed."""

import pytest

from app_pages import PAGES
from tests.app.shell_helpers import open_app
from tutor.i18n import t


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_menu_lists_every_page_once_under_its_section(lang):
    at = open_app("explore", lang)
    assert not at.exception
    menu = at.sidebar.get("page_link")
    assert [link.proto.label for link in menu] == [t(spec.title_key, lang) for spec in PAGES]
    sections = [t(key, lang) for key in dict.fromkeys(spec.section_key for spec in PAGES)]
    bold = [m.value for m in at.sidebar.markdown]
    assert [f"**{s}**" for s in sections] == [b for b in bold if b in {f"**{s}**" for s in sections}]
