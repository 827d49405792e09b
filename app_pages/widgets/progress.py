"""The progress store in the app's frame: the sidebar profile picker (drawn once, by the shell,
before the page) and the recording of attempts for the current profile. The store and its attempt
writer are opened in `app_pages.widgets.progress_store` (`store` and `attempt_writer` are used from
here too); a store problem is shown in the learner's language and the page keeps working without
saving.

The page waits up to `SAVE_WAIT_S` for an attempt's write (it takes milliseconds), and
`save_status` says where the session's answers are: "not saved yet" until one is durable (on disk
here or in the database), "saved on this server" until the database has it, then "saved". Nothing
claims more: the rating ("Recorded for review as …") comes only from the database's answer. An
answer whose write outlasts the wait (a slow database) is awaited: the status line, which looks
again every `POLL_S` seconds while an answer is not in the database, reruns the page once its
record has landed, and the page applies it (`landed_records`) and draws the rating.
"""

from __future__ import annotations

import streamlit as st

from app_pages.state import (
    PROFILE_PARAM,
    SavedState,
    keep_in_url,
    lang,
    leave_notice,
    page_state,
    set_current_profile,
    set_widget_value,
    take_notice,
    tr,
    widget_value,
)
from app_pages.widgets.current_profile import current_profile_id
from app_pages.widgets.progress_store import attempt_writer, store
from tutor.i18n import LANGUAGES, t
from tutor.sessions.profiles import choose_profile, parse_profile_id
from tutor.store import ProgressStore, SaveState, StoreUnavailable, TutorError
from tutor.store.records import MAX_ANSWER_CHARS

SAVE_WAIT_S = 1.0
# How often the status line looks again while an answer is not in the database: a class of 300
# with PostgreSQL down polls 60 times a second at 5 s (each a fragment run of one element).
POLL_S = 5.0

PICKER_KEY = "profile.picker"
NEW_NAME_KEY = "profile.new_name"
_CREATE = "profile.create"  # its notice: why "Create" made no profile


def shown_name(name: str) -> str:
    """The profile made on the first visit is named in that visit's language; show it in the
    current one ("My profile" / "我的档案"). Names a learner typed are shown as typed."""
    defaults = {t("profile.default_name", code) for code in LANGUAGES}
    return tr("profile.default_name") if name in defaults else name


def profile_picker() -> None:
    """Sidebar: the current profile and "New profile". Settles `current_profile_id()` for
    this run (a profile deleted meanwhile falls back to the first) and writes it into the URL."""
    db = store()
    if db is None:
        set_current_profile(None)
        return
    asked = st.query_params.get(PROFILE_PARAM)
    try:
        chosen = choose_profile(db, current_profile_id(), default_name=tr("profile.default_name"))
        profiles = db.list_profiles()
    except TutorError as exc:
        st.sidebar.error(exc.message(lang()), icon=":material/database:")
        # The database is away: the profile this session already works on (chosen from the
        # store in an earlier run) stays current, so its answers still go to the spool instead
        # of being dropped; a visit that has none yet gets none.
        set_current_profile(current_profile_id() if isinstance(exc, StoreUnavailable) else None)
        return
    if asked is not None and parse_profile_id(asked) not in {p.id for p in profiles}:
        st.sidebar.warning(tr("profile.unknown_in_link"), icon=":material/person_off:")
    set_current_profile(chosen.id)
    keep_in_url(PROFILE_PARAM, str(chosen.id))

    ids = [p.id for p in profiles]
    names = {p.id: shown_name(p.name) for p in profiles}
    # The widget shows the current profile; it never holds it (a new profile, a fallback after a
    # deletion or a link's choice all land in the session first, then in the widget).
    set_widget_value(PICKER_KEY, chosen.id)
    st.sidebar.selectbox(tr("profile.label"), ids, key=PICKER_KEY, format_func=names.get,
                         on_change=_picked)
    with st.sidebar.popover(tr("profile.new"), icon=":material/person_add:"):
        with st.form("profile.create", border=False):
            # No max_chars (it drops a whole paste that passes it): the store refuses a name
            # over its limit with a message, and the typed name stays in the box to shorten.
            st.text_input(tr("profile.name"), key=NEW_NAME_KEY)
            st.form_submit_button(tr("profile.create"), on_click=_create, args=(db,))
        if (problem := take_notice(_CREATE)) is not None:
            st.error(problem, icon=":material/error:")


def _picked() -> None:
    set_current_profile(widget_value(PICKER_KEY))


def _create(db: ProgressStore) -> None:
    # A callback: it runs before the next script run, so the new profile is current (picker,
    # URL, page) in that very run.
    try:
        made = db.create_profile(widget_value(NEW_NAME_KEY, ""))
    except TutorError as exc:
        leave_notice(_CREATE, exc.message(lang()))
    else:
        set_current_profile(made.id)
        set_widget_value(NEW_NAME_KEY, "")


def recorder():
    """`record(new_attempt)` for the current profile, or None when nothing can be saved.

    The profile is read when the attempt is recorded, so an attempt always lands in the profile
    the picker shows. `record` returns the stored attempt, or None when it was refused (a warning
    says why) or is not in the database yet (`save_status` says whether it is saved)."""
    db = store()
    writer = attempt_writer()
    if db is None or writer is None or current_profile_id() is None:
        return None

    def record(attempt):
        if len(attempt.answer) > MAX_ANSWER_CHARS:  # the learner can type that much: say so
            st.warning(tr("profile.answer_too_long", max=MAX_ANSWER_CHARS), icon=":material/save:")
            return None
        pending = writer.submit(current_profile_id(), attempt)
        # answers already in the database were said "Saved." under their verdict: forgotten
        saved = page_state(SavedState)
        saved.saves = [*(p for p in saved.saves if p.state in (SaveState.PENDING, SaveState.SPOOLED)),
                       pending]
        try:
            return pending.result(timeout=SAVE_WAIT_S)
        except TimeoutError:
            # not in the database yet: the status line says whether it is saved, and has the page
            # draw the record once it lands
            saved.awaited = [*saved.awaited, pending]
            return None
        except TutorError as exc:
            st.warning(tr("practice.attempt_not_saved", error=exc.message(lang())))
            return None

    return record


def landed_records() -> list[tuple[str, object]]:
    """The attempts the page stopped waiting for that the database has since stored, each once:
    (the key it was submitted with, its `AttemptRecord`). One refused meanwhile is dropped (the
    status line no longer counts it)."""
    saved = page_state(SavedState)
    _move_landed(saved)
    landed, saved.landed = saved.landed, []
    return [(p.key, p.result()) for p in landed if p.state is SaveState.STORED]


def _move_landed(saved: SavedState) -> bool:
    """Move the awaited attempts now done to `landed`; whether there were any."""
    done = [p for p in saved.awaited if p.done()]
    if done:
        saved.awaited = [p for p in saved.awaited if p not in done]
        saved.landed = [*saved.landed, *done]
    return bool(done)


def save_status() -> None:
    """Where this session's latest answers are, under their verdict: "Not saved yet" while one
    is only in memory, "Saved on this server" while one waits for the database on disk here,
    "Saved." once all are in the database (until the next answer). While one is not in the
    database the line looks again every `POLL_S` seconds, and reruns the page when an answer the
    page stopped waiting for has landed (the page then draws its rating)."""
    saved = page_state(SavedState)
    saves = saved.saves
    # awaited: one that landed since `landed_records` read it is applied by the rerun this makes
    if saved.awaited or any(p.state in (SaveState.PENDING, SaveState.SPOOLED) for p in saves):
        st.fragment(_save_line_until_landed, run_every=POLL_S)()
    elif saves:
        _save_line()


def _save_line_until_landed() -> None:
    # once per landed attempt (a page that does not ask for `landed_records` is not rerun again)
    if _move_landed(page_state(SavedState)):
        st.rerun(scope="app")  # the page applies the record (`landed_records`) and draws it
    _save_line()


def _save_line() -> None:
    saves = [p for p in page_state(SavedState).saves if p.state is not SaveState.REFUSED]
    states = {p.state for p in saves}
    # the container's key says the state to the browser tests and the load generator
    if SaveState.PENDING in states:
        with st.container(key="save-pending"):
            st.warning(tr("practice.not_saved_yet"), icon=":material/cloud_off:")
    elif SaveState.SPOOLED in states:
        with st.container(key="save-spooled"):
            st.info(tr("practice.saved_on_server"), icon=":material/save:")
    elif saves:
        with st.container(key="save-stored"):
            st.caption(tr("practice.saved"))
