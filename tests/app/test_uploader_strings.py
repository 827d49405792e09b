"""The uploaders' own strings (Streamlit draws them in English) are replaced by ours: the
Dashboard's progress import and the Author page's Moodle import."""

import pytest

from app_pages.widgets import author_view, transfer_view, uploader_css
from tutor.transfer import ImportPolicy


@pytest.mark.parametrize(("lang", "policy", "button", "note"), [
    ("en", ImportPolicy(), "Choose a file", "up to 20 MB"),
    ("zh", ImportPolicy(), "选择文件", "最大 20 MB"),
    ("en", ImportPolicy.for_class(None, {}), "Choose a file", "up to 5 MB"),  # a class's limit
    ("zh", ImportPolicy.for_class({"max_mb": 0.5}, {}), "选择文件", "最大 0.5 MB"),
])
def test_the_css_carries_the_translated_button_and_note(monkeypatch, lang, policy, button, note):
    from tutor.i18n import t

    monkeypatch.setattr(transfer_view, "tr", lambda key, **fmt: t(key, lang, **fmt))
    css = transfer_view.translated_uploader_css("box", policy)
    assert f'content: "{button}"' in css and note in css
    assert css.count(".st-key-box ") == 4  # scoped to the one uploader


@pytest.mark.parametrize(("text", "escaped"), [('say "hi"', 'say \\"hi\\"'), ("a\\b", "a\\\\b"),
                                               ("two\nlines", "two lines")])
def test_css_string_escapes_quotes_backslashes_and_newlines(text, escaped):
    assert uploader_css.css_string(text) == escaped


@pytest.mark.parametrize(("lang", "button", "note"), [("en", "Choose a file", "Moodle XML, up to 20 MB"),
                                                      ("zh", "选择文件", "Moodle XML 文件，最大 20 MB")])
def test_the_moodle_uploader_css_carries_the_translated_button_and_note(monkeypatch, lang, button,
                                                                        note):
    # Regression (issue 22): the Author page's Moodle uploader said "Upload" and "20MB per file"
    # in the Chinese interface.
    from tutor.i18n import t

    monkeypatch.setattr(author_view, "tr", lambda key, **fmt: t(key, lang, **fmt))
    css = author_view.moodle_uploader_css()
    assert f'content: "{button}"' in css and f'content: "{note}"' in css
    assert css.count(f".st-key-{author_view.MOODLE_UPLOADER_BOX} ") == 4
