"""Per-user session state, set up in one place.

Every page reads the language and the chosen profile through these helpers, never through raw
`st.session_state` keys, so the keys and their defaults live here only. The language is also kept
in the URL (`?lang=en`) so a reload or a shared link keeps it.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from tutor.i18n import LANGUAGES, has, normalize_language, t

LANG_KEY = "lang"
PROFILE_KEY = "profile_id"
LANG_PARAM = "lang"
LANGUAGE_NAMES = {"zh": "中文", "en": "English"}


def _initial_language() -> str:
    # A link's ?lang= wins; then the browser's language; Chinese is the default (the source texts are).
    if LANG_PARAM in st.query_params:
        return normalize_language(st.query_params[LANG_PARAM])
    return normalize_language(getattr(st.context, "locale", None))


def init_session() -> None:
    """Create the per-user keys once per session; later runs keep what the learner chose."""
    if LANG_KEY not in st.session_state:
        st.session_state[LANG_KEY] = _initial_language()
    st.session_state.setdefault(PROFILE_KEY, None)


def lang() -> str:
    """The learner's language, ``zh`` or ``en``."""
    return normalize_language(st.session_state.get(LANG_KEY))


def tr(key: str, **fmt: object) -> str:
    """`tutor.i18n.t` in the learner's language."""
    return t(key, lang(), **fmt)


def option_labels(key_for: Callable[[object], str]) -> Callable[[object], str]:
    """A widget's `format_func`: each option's translated label, falling back to the option itself.

    The language is fixed when the widget is drawn, not when the label is asked for: Streamlit (and
    AppTest) match the previous run's selection against the labels that run drew, so a label
    function that read the new language after a switch would no longer find the old selection.
    """
    current = lang()

    def label(option: object) -> str:
        key = key_for(option)
        return t(key, current) if has(key, current) else str(option)

    return label


def language_switch() -> None:
    """The sidebar's 中文 / English switch; the choice is mirrored into the URL on every run.

    Navigating between pages clears the query string, so the shell calls this on every run to put
    `lang` back.
    """
    st.sidebar.segmented_control(
        tr("common.language"),
        options=LANGUAGES,
        format_func=LANGUAGE_NAMES.__getitem__,
        key=LANG_KEY,
        required=True,
    )
    if st.query_params.get(LANG_PARAM) != lang():
        st.query_params[LANG_PARAM] = lang()


def profile_id() -> int | str | None:
    """The chosen local profile's id, or None before the learner picks one."""
    return st.session_state.get(PROFILE_KEY)


def set_profile_id(value: int | str | None) -> None:
    st.session_state[PROFILE_KEY] = value
