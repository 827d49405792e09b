"""Per-user session state, owned here: the only module that touches `st.session_state`
(tests/app/test_state_owner.py walks the code for it, aliases included). It holds:

- the app's frame: the language and the current profile's id;
- each page's own state, one typed object per page (`page_state(AuthorPage)`), and the learner
  pages' runs through questions, kept per profile;
- the values of keyed widgets (Streamlit keeps them in the session: `widget_value`), and notices
  that a callback leaves for the next run to show once (`leave_notice` / `take_notice`).

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
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import streamlit as st

from tutor.i18n import LANGUAGES, has, normalize_language, t, tn

if TYPE_CHECKING:
    from tutor.sessions.derivation_check import DerivationFields
    from tutor.sessions.interview import InterviewSession
    from tutor.sessions.practice import Filters, QuestionQueue

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


# ---- widget values -----------------------------------------------------------------------------
# A widget drawn with `key=` keeps its value in the session under that key: reading it, giving it a
# value before it is drawn (scratch work, a preset, a link) or clearing it goes through these.


def widget_value(key: str, default: Any = None) -> Any:
    return st.session_state.get(key, default)


def set_widget_value(key: str, value: Any) -> None:
    st.session_state[key] = value


def default_widget_value(key: str, value: Any) -> Any:
    """Give the widget `value` unless it already has one (the learner's choice stays); the value
    it has."""
    return st.session_state.setdefault(key, value)


def has_widget_value(key: str) -> bool:
    return key in st.session_state


def forget_widget_value(key: str) -> None:
    st.session_state.pop(key, None)


# ---- notices -----------------------------------------------------------------------------------
# A callback (or a run that reruns) leaves a message for the next run, which shows it once.


def leave_notice(key: str, notice: Any = True) -> None:
    st.session_state[f"{key}.notice"] = notice


def take_notice(key: str) -> Any | None:
    """The notice left under `key`, once (None when there is none)."""
    return st.session_state.pop(f"{key}.notice", None)


# ---- each page's own state, one typed object per page ------------------------------------------
PageT = TypeVar("PageT")


def page_key(kind: type) -> str:
    """The session-state key of a page's state object (AppTest reads it there)."""
    return f"page.{kind.__name__}"


def page_state(kind: type[PageT]) -> PageT:
    """This session's state of one page (`kind` is its class below), made on first use."""
    return st.session_state.setdefault(page_key(kind), kind())


@dataclass
class PracticePage:
    url_question: str | None = None  # the question id the page last put in the URL


@dataclass
class ExercisesPage:
    url_problem: tuple | None = None  # (template, seed, difficulty) the page last put in the URL


@dataclass
class QuestionListPage:
    shown: int = 0  # rows shown ("Show more" adds a page)
    shown_for: tuple | None = None  # the search and filters they were shown for


@dataclass
class DerivationPage:
    fields: DerivationFields | None = None  # what the boxes held at the end of the last run
    checked: DerivationFields | None = None  # the fields last checked ("Check", or a link)
    shared: tuple[DerivationFields, str] | None = None  # saved or opened by id: (fields, ?share=)
    link_not_found: bool = False  # a ?share= link named nothing in the store: say so once
    save_failed: bool = False  # "Save for a link" could not write: say so once


@dataclass
class AuthorPage:
    initial: str = ""  # the editor's text when it was (re)made
    source: str | None = None  # the question source (YAML) as typed; None before the first run
    replaces: str | None = None  # the instructor question the source was opened from
    file_name: str = "my-questions.yaml"
    version: int = 0  # a new editor instance each time a source is loaded
    results: tuple[str, list] | None = None  # ("tests" | "mutations", their outcomes)
    preview_sessions: dict = field(default_factory=dict)  # preview name -> its QuestionSession
    moodle_export: tuple | None = None  # (xml, notes) once prepared
    moodle_reading: tuple | None = None  # ((file id, bank ids), what the import read)


@dataclass
class InterviewAnswers:
    """The interview questions' state (Mock interview, and interview questions on Practice)."""

    suggested: tuple | None = None  # (visit key, answer, suggested rubric ticks), matched once
    expired_ticks: int = 0  # timer ticks since 00:00 in the answer stage
    confirmed_ticks: dict[str, list[str]] = field(default_factory=dict)  # visit key -> ticks


@dataclass
class SignInCheck:
    """Class mode: this session's identity and the sign-in the database last vouched for."""

    bound: tuple | None = None  # ((issuer, subject), profile id), one lookup per session
    checked: str | None = None  # the sign-in this session last found not signed out


@dataclass
class SavedState:
    """Where this session's answers and scratch work are in the store."""

    saves: list = field(default_factory=list)  # attempts whose saved state is still to be shown
    # attempts the page stopped waiting for (`SAVE_WAIT_S`): their records are drawn when they land
    awaited: list = field(default_factory=list)
    landed: list = field(default_factory=list)  # awaited ones the status line has since seen done
    scratch: dict = field(default_factory=dict)  # (screen, profile) -> scratch last written


# ---- the learner pages' runs through questions, per profile -----------------------------------
# A question on screen belongs to a profile: its tries, its verdicts and the rating recorded are
# that profile's. The run through questions, the "looked for the scratch work" flag and the mock
# interview are therefore kept per profile: switching profile in the sidebar mid-question starts
# the new profile's own visit (its scratch work, or a fresh question), and switching back finds the
# first profile's visit as it was (issue 22).

_RUN = "{page}.run"
_FILTERS = "{page}.filters"
_REQUESTED = "practice.requested"  # a question another page asked Practice to open
_RESTORED = "{page}.restored"  # the page has looked for its scratch work in this session
_INTERVIEW = "interview.session"


def profile_key(key: str, profile_id: int | None) -> str:
    """The session-state key of `key` ("practice.run", "interview.session") for one profile."""
    return f"{key}@{profile_id}"


def question_queue(page: str, profile_id: int | None) -> QuestionQueue:
    """The profile's queue of questions on the page, created on first use."""
    key = profile_key(_RUN.format(page=page), profile_id)
    if key not in st.session_state:
        from tutor.sessions.practice import QuestionQueue

        st.session_state[key] = QuestionQueue()
    return st.session_state[key]


def first_visit(page: str, profile_id: int | None) -> bool:
    """True on the page's first run for the profile in this browser session (then: look for that
    profile's scratch work), once."""
    key = profile_key(_RESTORED.format(page=page), profile_id)
    first = key not in st.session_state
    st.session_state[key] = True
    return first


def filters_changed(page: str, filters: Filters) -> bool:
    """True once each time the learner changes the filters (the first run counts)."""
    key = _FILTERS.format(page=page)
    changed = st.session_state.get(key) != filters
    st.session_state[key] = filters
    return changed


def request_practice(question_id: str) -> None:
    """Ask the Practice page to open this question next (a link from another page)."""
    st.session_state[_REQUESTED] = question_id


def take_requested() -> str | None:
    return st.session_state.pop(_REQUESTED, None)


def interview_session(profile_id: int | None) -> InterviewSession | None:
    """The profile's mock interview in progress (a frozen
    `tutor.sessions.interview.InterviewSession`)."""
    return st.session_state.get(profile_key(_INTERVIEW, profile_id))


def set_interview_session(profile_id: int | None, session: InterviewSession | None) -> None:
    st.session_state[profile_key(_INTERVIEW, profile_id)] = session


# ---- answers graded in a callback, recorded by the next run ------------------------------------


_UNSAVED_BOXES = "unsaved_boxes"  # the keys of the boxes whose answers are not recorded yet


def unsaved_answers(key: str) -> list:
    """The question box's graded answers not recorded yet (append to it)."""
    st.session_state.setdefault(_UNSAVED_BOXES, set()).add(key)
    return st.session_state.setdefault(f"{key}.unsaved", [])


def take_unsaved_answers(key: str) -> list:
    st.session_state.get(_UNSAVED_BOXES, set()).discard(key)
    return st.session_state.pop(f"{key}.unsaved", [])


def holds_unsaved_answers() -> bool:
    """Some box holds graded answers not recorded yet (a run cut short between the grading and
    the recording): the session must not be closed while it does (`server_tuning.reaper`)."""
    return any(st.session_state.get(f"{key}.unsaved")
               for key in st.session_state.get(_UNSAVED_BOXES, ()))


# ---- values kept beside a widget ---------------------------------------------------------------
# A box's last accepted number, the length of a paste that was cut: the widget's, under its key.


def beside_widget(key: str, name: str, default: Any = None) -> Any:
    return st.session_state.get(f"{key}.{name}", default)


def keep_beside_widget(key: str, name: str, value: Any) -> None:
    st.session_state[f"{key}.{name}"] = value


def forget_beside_widget(key: str, name: str) -> None:
    st.session_state.pop(f"{key}.{name}", None)
