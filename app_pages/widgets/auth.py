"""The class deployment's frame: who is signed in, their one profile, and their role.

Two modes, one code path. Without an `[auth]` section in Streamlit's secrets the app is the local
one: profiles are picked in the sidebar (`widgets/progress.profile_picker`) and every page is
shown. With `[auth]` (Streamlit's OpenID Connect login: `st.login`, `st.user`, `st.logout`):

- nobody sees a page before signing in (`sign_in` draws the login screen, with the language
  switch, and stops the run); the language chosen there survives the trip to the identity
  provider and back in a cookie (`state.remember_language`);
- the profile is the one bound to the identity (`iss` + `sub`), made at the first login
  (`tutor.store.identities`), and it is set again on every run: no picker, and no URL parameter,
  session value or imported file can name another;
- instructors (by `sub`, group claim or verified e-mail, `tutor.roles`) see the instructor pages;
  learners do not, and those pages also refuse a learner themselves (`require_instructor`);
- a sign-in ends (`tutor.sign_ins`): a school day after it began, checked on every run, and at
  "Sign out", which is recorded in the database (`tutor.store.sign_outs`) before the cookie is
  cleared, so a copy of the cookie taken before stops working on every replica. An ended sign-in
  gets the login screen, saying why.
"""

from __future__ import annotations

import os

import streamlit as st
from streamlit.errors import StreamlitSecretNotFoundError

from app_pages.state import (
    PROFILE_PARAM,
    SignInCheck,
    keep_in_url,
    language_switch,
    leave_notice,
    page_state,
    remember_language,
    set_current_profile,
    take_notice,
    tr,
)
from tutor.roles import InstructorRule, Role
from tutor.sign_ins import SignIn, SignInPolicy, sign_in_of

AUTH_SECTION = "auth"
ROLES_SECTION = "roles"
SIGN_IN_SECTION = "sign_in"
IMPORTS_SECTION = "imports"
SIGN_OUT_FAILED = "account.sign_out_failed"  # its notice: "Sign out" could not be recorded


def class_mode() -> bool:
    """True when login is configured (an `[auth]` section in Streamlit's secrets)."""
    try:
        return AUTH_SECTION in st.secrets
    except (StreamlitSecretNotFoundError, FileNotFoundError):
        return False


def hide_error_details() -> None:
    """Class mode: an unexpected error shows a generic message, never a traceback, file paths or
    the error's text (`client.showErrorDetails = "none"`; `scripts/serve_class.sh` sets it from
    the start too). Process-wide, as the deployment is; local mode keeps Streamlit's default."""
    if st.get_option("client.showErrorDetails") != "none":
        st.set_option("client.showErrorDetails", "none")


def _claims() -> dict:
    return dict(st.user.to_dict()) if st.user.is_logged_in else {}


def signed_in_profile_id() -> int | None:
    """The signed-in identity's profile (made at the first login); None when nobody is signed
    in or the store cannot be opened (the sidebar then says why)."""
    claims = _claims()
    subject = claims.get("sub")
    if not isinstance(subject, str) or not subject:
        return None
    identity = (str(claims.get("iss") or "oidc"), subject)
    bound = page_state(SignInCheck).bound  # server-side: a browser cannot set it
    if bound is not None and bound[0] == identity:
        return bound[1]
    from app_pages.widgets.progress_store import store  # the store (SQLAlchemy) only when needed
    from tutor.store import TutorError
    from tutor.store.identities import profile_for_identity, seen_in

    db = store()
    if db is None:
        return None
    name = claims.get("name") or claims.get("preferred_username") or claims.get("email") or ""
    try:
        seen = seen_in(claims, instructor=may_teach())
        profile_id = profile_for_identity(db, *identity, str(name), seen=seen).id
    except TutorError:
        return None
    page_state(SignInCheck).bound = (identity, profile_id)  # one lookup per session, not per run
    return profile_id


def _secrets_section(name: str):
    try:
        return st.secrets.get(name)
    except (StreamlitSecretNotFoundError, FileNotFoundError):
        return None


def role() -> Role:
    """The signed-in person's role; in local mode everyone at the machine runs it, so everyone
    may use the instructor pages (as before there were accounts)."""
    if not class_mode():
        return Role.INSTRUCTOR
    return InstructorRule.from_config(_secrets_section(ROLES_SECTION), os.environ).role_of(_claims())


def current_sign_in() -> SignIn | None:
    """This session's sign-in (from the identity token's claims), None when they bound none."""
    policy = SignInPolicy.from_config(_secrets_section(SIGN_IN_SECTION), os.environ)
    return sign_in_of(_claims(), policy)


def _sign_in_refused() -> str | None:
    """Why this session's sign-in cannot go on (the `account.*` message), or None when it can:
    too old or without the claims that bound it, or signed out (on any replica)."""
    from app_pages.widgets.progress_store import store  # the store (SQLAlchemy) only when needed
    from tutor.store import TutorError, utc_now
    from tutor.store.sign_outs import sign_in_ended

    sign_in = current_sign_in()
    if sign_in is None or sign_in.over(utc_now()):
        return "account.sign_in_ended"
    db = store()
    try:
        ended = None if db is None else sign_in_ended(db, sign_in.key)
    except TutorError:
        ended = None
    if ended is None:
        # The database cannot say: a session that it already vouched for carries on (a
        # database restart throws nobody out); a new one (a cookie brought in meanwhile, perhaps
        # a copied one) waits for it.
        vouched = page_state(SignInCheck).checked == sign_in.key
        return None if vouched else "account.sign_in_unchecked"
    page_state(SignInCheck).checked = sign_in.key
    return "account.sign_in_ended" if ended else None


def import_policy():
    """What Dashboard -> Import accepts: on one's own machine the app's limits; in a class
    deployment the `[imports]` settings (smaller limits by default, or importing turned off)."""
    from tutor.transfer import ImportPolicy  # pydantic: only on the page that imports

    if not class_mode():
        return ImportPolicy()
    return ImportPolicy.for_class(_secrets_section(IMPORTS_SECTION), os.environ)


def may_teach() -> bool:
    return role() is Role.INSTRUCTOR


def sign_in() -> None:
    """Class mode, every run: the login screen (and stop) for a visitor who has not signed in;
    otherwise bind this session to the identity's profile before any page runs."""
    if not st.user.is_logged_in:
        _login_screen()
    if (refused := _sign_in_refused()) is not None:
        _login_screen(because=refused)
    profile_id = signed_in_profile_id()
    set_current_profile(profile_id)
    keep_in_url(PROFILE_PARAM, None)  # a profile named in a link means nothing here
    if profile_id is None:
        # Signed in, but the database could not say whose profile this is: every page still
        # works, and nothing it records reaches the store. Say so above every page.
        st.warning(tr("account.not_recorded"), icon=":material/database:")


def _login_screen(*, because: str | None = None) -> None:
    set_current_profile(None)
    page_state(SignInCheck).bound = None
    language_switch(st)  # above the title: a phone shows no sidebar until it is opened
    st.title(tr("common.app_name"))
    if because is not None:
        st.info(tr(because), icon=":material/schedule:")
    st.write(tr("account.login_intro"))
    st.button(tr("account.login"), type="primary", icon=":material/login:", on_click=st.login)
    remember_language()  # the provider sends the browser back to a bare "/"
    st.stop()


def _sign_out() -> None:
    """"Sign out": the sign-in is recorded as over in the database first (every copy of the
    cookie then stops working, on every replica), then Streamlit clears the cookie. When the
    database cannot record it the learner stays signed in and is told, to try again."""
    from app_pages.widgets.progress_store import store
    from tutor.store import TutorError
    from tutor.store.sign_outs import end_sign_in

    sign_in = current_sign_in()
    if sign_in is not None:
        db = store()
        try:
            recorded = db is not None and end_sign_in(db, sign_in.key, until=sign_in.ends_at)
        except TutorError:
            recorded = False
        if not recorded:
            leave_notice(SIGN_OUT_FAILED)
            return
    st.logout()


def account_box() -> None:
    """Sidebar in class mode: who is signed in, their role, and "Sign out"."""
    claims = _claims()
    who = claims.get("name") or claims.get("email") or claims.get("sub") or ""
    st.sidebar.text(tr("account.signed_in_as", name=who))  # plain text: the name is not ours
    if role() is Role.INSTRUCTOR:
        st.sidebar.caption(tr("account.instructor"))
    st.sidebar.button(tr("account.logout"), icon=":material/logout:", on_click=_sign_out)
    if take_notice(SIGN_OUT_FAILED):
        st.sidebar.error(tr("account.sign_out_failed"), icon=":material/database:")
    remember_language(st.sidebar)  # for the login screen after signing out (a new session)


def require_instructor() -> None:
    """First line of an instructor page: a learner who reaches it anyway is told so and stopped."""
    if not may_teach():
        st.error(tr("account.instructors_only"), icon=":material/lock:")
        st.stop()
