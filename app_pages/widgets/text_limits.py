"""Length limits on text boxes that never lose a paste.

Streamlit's `max_chars` is enforced in the browser by ignoring any change that would pass it: a
paste of 4,001 characters into a 4,000-character box leaves the box as it was, without a word
(issue 22). So no box here passes `max_chars`; the limit is kept on the server instead. A box
outside a form gets `keep_what_fits(key, limit)` as its change callback: a longer value is cut to
its first `limit` characters before the page runs (a crafted message cannot pass it either), and
`cut_note` says what happened, in the learner's language. A box inside a form (where Streamlit
allows no change callback) is checked by the form's own submit, which refuses and keeps the text.
"""

from __future__ import annotations

import streamlit as st

from app_pages.state import (
    beside_widget,
    forget_beside_widget,
    keep_beside_widget,
    set_widget_value,
    widget_value,
)
from tutor.i18n import t


def keep_what_fits(key: str, limit: int) -> None:
    """A change callback: cut the box's value to `limit` characters, remembering how long it was."""
    value = widget_value(key)
    if isinstance(value, str) and len(value) > limit:
        set_widget_value(key, value[:limit])
        keep_beside_widget(key, "cut_from", len(value))
    else:
        forget_beside_widget(key, "cut_from")


def limited(key: str, limit: int) -> dict:
    """The keyword arguments that give a box (keyed `key`) its limit: pass them to
    `st.text_input` / `st.text_area` in place of `max_chars`."""
    return {"key": key, "on_change": keep_what_fits, "args": (key, limit)}


def fitting(text: str | None, limit: int) -> str:
    """`text` within the limit, for code that reads a box's value before its callback ran."""
    return (text or "")[:limit]


def cut_note(key: str, limit: int, lang: str, where=None) -> None:
    """Say, under the box, that a paste was cut: how long it was and what was kept."""
    length = beside_widget(key, "cut_from")
    if length:
        (where or st).warning(t("common.text_cut", lang, length=f"{length:,}",
                                limit=f"{limit:,}", lost=f"{length - limit:,}"),
                              icon=":material/content_cut:")
