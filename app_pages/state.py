"""Per-user session state, set up in one place: the app's frame (language and current profile).

Every page reads the language and the current profile through these helpers, never through raw
`st.session_state` keys, so the keys and their defaults live here only. Both are also kept in the
URL (`?lang=en&profile=3`), which the shell writes back on every run (Streamlit clears the query
string when the learner changes page), so a reload, a bookmark or a link opened in a new tab keeps
them. The URL is per tab: two tabs can work as two profiles without overwriting each other.
In a class deployment the language is also kept in a cookie (`remember_language`), because
signing in comes back from the identity provider to a bare "/" in a new session.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from tutor.i18n import LANGUAGES, has, normalize_language, t, tn

LANG_KEY = "lang"
PROFILE_KEY = "profile_id"
LANG_PARAM = "lang"
PROFILE_PARAM = "profile"
LANGUAGE_NAMES = {"zh": "中文", "en": "English"}
LANG_COOKIE = "tutor_lang"  # class mode: the language across the sign-in round trip
LANG_COOKIE_MAX_AGE_S = 365 * 24 * 3600


def _switch_label(language: str) -> str:
    # Streamlit looks for a leading icon in each option's first word; a non-ASCII word ("中文")
    # makes it import its emoji table and compile a ~4,000-way regex (0.1-0.4 s, measured) on the
    # first page. After a leading space the first word is empty; the label shows the same.
    name = LANGUAGE_NAMES[language]
    return name if name.isascii() else f" {name}"


def _initial_language() -> str:
    # A link's ?lang= wins; then the choice remembered in a cookie (class mode: the sign-in round
    # trip comes back to a bare "/"); then the browser's language; Chinese is the default (the
    # source texts are).
    if LANG_PARAM in st.query_params:
        return normalize_language(st.query_params[LANG_PARAM])
    if (remembered := st.context.cookies.get(LANG_COOKIE)) in LANGUAGES:
        return remembered
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


def tr_n(key: str, n: int, **fmt: object) -> str:
    """`tutor.i18n.tn` in the learner's language: the form of `key` for `n` things."""
    return tn(key, lang(), n, **fmt)


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


def language_switch(where=None) -> None:
    """The 中文 / English switch (in the sidebar unless `where` says otherwise); the choice is
    mirrored into the URL on every run.

    Navigating between pages clears the query string, so the shell calls this on every run to put
    `lang` back.
    """
    (where or st.sidebar).segmented_control(
        tr("common.language"),
        options=LANGUAGES,
        format_func=_switch_label,
        key=LANG_KEY,
        required=True,
    )
    keep_in_url(LANG_PARAM, lang())


def remember_language(where=None) -> None:
    """Keep the language in a cookie the next session reads (`_initial_language`).

    Signing in leaves the app (the identity provider's pages) and comes back to a bare "/" in a
    new session: the URL's `lang` and the session are gone, and Streamlit offers no way to set a
    cookie from Python, so the browser sets it (a script of ours; the value is one of LANGUAGES,
    never user text). Not HttpOnly (a script sets it) and not secret; `Secure` over HTTPS.
    """
    # Drawn on every run, not only when the handshake's cookie differs: those cookies are the
    # session's first, and a switch back to that language must be written again.
    current = lang()
    if current not in LANGUAGES:  # only these two codes ever reach the script (not stripped by -O)
        return
    (where or st).html(
        "<script>document.cookie = '" + LANG_COOKIE + "=" + current + "; Path=/; Max-Age="
        + str(LANG_COOKIE_MAX_AGE_S) + "; SameSite=Lax' + (location.protocol === 'https:' ? "
        "'; Secure' : '');</script>",
        unsafe_allow_javascript=True,
    )


def chosen_profile_id() -> int | None:
    """The profile this session works on, None until it is resolved; pages read the current
    profile through `app_pages.widgets.current_profile.current_profile_id`, which resolves it."""
    return st.session_state.get(PROFILE_KEY)


def set_current_profile(profile_id: int | None) -> None:
    """Make `profile_id` the current profile (the picker and "New profile" call this)."""
    st.session_state[PROFILE_KEY] = profile_id


def keep_in_url(param: str, value: str | None) -> None:
    """Write `param` into the URL when it differs (None removes it): no message when unchanged."""
    if value is None:
        if param in st.query_params:
            del st.query_params[param]
    elif st.query_params.get(param) != value:
        st.query_params[param] = value
