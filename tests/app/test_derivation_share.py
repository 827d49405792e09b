"""Derivation checker (issue 16, item 6): a derivation too long for a link is saved under an id
and the short link opens it (checked) in another session; a broken or unknown id says so; the
preset list shows plain text, never raw `$…$`."""

import pytest

from tests.app.learner_fixtures import button, database_url, open_page  # noqa: F401
from tests.app.test_derivation import fill
from tutor.sessions.derivation_check import (
    FIELD_LIMITS,
    SHARE_PARAM,
    DerivationFields,
    fields_from_saved,
    parse_share,
)

LONG_LINES = ["x + x + x + x + x + x + x + x + x + x"] * 38 + ["10x"]  # > 2,000 in a URL


def test_a_long_derivation_is_saved_and_its_short_link_opens_it(open_page):  # noqa: F811
    at = fill(open_page("derivation"), symbols="x", lines=LONG_LINES)
    assert SHARE_PARAM not in at.query_params
    at = button(at, "Save and get a short link").click().run()
    share = at.query_params[SHARE_PARAM]
    assert parse_share(share) is not None and len(share) < 30
    assert "lines" not in at.query_params
    assert any(c.value.startswith("Saved: the address bar now holds a short link") for c in at.caption)
    other = open_page("derivation", lang="zh", **{SHARE_PARAM: share})  # another browser
    assert other.text_area(key="derivation.lines").value == "\n".join(LONG_LINES)
    assert other.text_input(key="derivation.symbols").value == "x"
    assert other.success[0].value.startswith("全部")  # checked at once
    other.text_input(key="derivation.symbols").input("x, y").run()  # changed: the link would lie
    assert SHARE_PARAM not in other.query_params


@pytest.mark.parametrize("share", ["1-AAAAAAAAAAAA", "x-<b>", "1-" + "A" * 40, "'; drop"])
def test_an_unknown_or_malformed_share_id_says_so_or_is_ignored(open_page, share):  # noqa: F811
    at = open_page("derivation", **{SHARE_PARAM: share})
    assert not at.exception
    found = [w.value for w in at.warning if "was not found" in w.value]
    assert found == (["The derivation this link names was not found (it may have been deleted "
                      "with its profile)."] if parse_share(share) else [])


def test_a_saved_derivation_is_read_back_like_any_input():
    assert fields_from_saved({"lines": "x", "symbols": "x"}) == DerivationFields(symbols="x", lines="x")
    assert fields_from_saved({"lines": 3}) is None
    assert fields_from_saved({"lines": "x" * (FIELD_LIMITS["lines"] + 1)}) is None
    assert fields_from_saved({"evil": "x"}) is None
    assert fields_from_saved(["x"]) is None


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_preset_list_shows_plain_text(open_page, lang):  # noqa: F811
    at = open_page("derivation", lang=lang)
    labels = at.selectbox(key="derivation.preset").options
    assert len(labels) > 1
    assert not [label for label in labels if "$" in label or "\\" in label or "**" in label]
