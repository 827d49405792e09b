"""The Class page's "A learner's data": export one learner's data (the Dashboard's JSON export)
and delete it, with a confirmation (the learner's name typed exactly) and a record of the
deletion (`tutor.store.deletions`). An instructor cannot delete their own profile here."""

from __future__ import annotations

import streamlit as st

from app_pages.state import lang, leave_notice, set_widget_value, take_notice, tr, widget_value
from app_pages.widgets.current_profile import current_profile_id
from app_pages.widgets.plain_text import markdown_escaped
from tutor.class_view import LearnerRow
from tutor.store import ProfileError, TutorError

PICK_KEY = "classview.data.learner"
CONFIRM_KEY = "classview.data.confirm"
DONE_KEY = "classview.data.done"  # its notice: the last deletion's message, after the rerun


def _delete(db, row: LearnerRow, profile_name: str) -> None:
    from tutor.store.deletions import delete_learner

    me = current_profile_id()
    typed = widget_value(CONFIRM_KEY, "")
    name = markdown_escaped(profile_name)
    if typed != profile_name:
        leave_notice(DONE_KEY, ("error", tr("classview.data.not_confirmed", name=name)))
        return
    if row.profile_id == me:
        leave_notice(DONE_KEY, ("error", tr("classview.data.not_yourself")))
        return
    try:
        done = delete_learner(db, row.profile_id, by=f"instructor #{me}")
    except ProfileError:
        leave_notice(DONE_KEY, ("error", tr("classview.data.gone")))
        return
    except TutorError as exc:
        leave_notice(DONE_KEY, ("error", exc.message(lang())))
        return
    set_widget_value(CONFIRM_KEY, "")
    leave_notice(DONE_KEY, ("success", tr("classview.data.deleted", name=name,
                                          attempts=done.attempts, record=done.id)))


def learner_data_section(db, rows: list[LearnerRow]) -> None:
    st.header(tr("classview.data.title"))
    st.caption(tr("classview.data.help"))
    if (done := take_notice(DONE_KEY)) is not None:
        kind, message = done
        (st.success if kind == "success" else st.error)(message)
    if not rows:
        return
    by_id = {r.profile_id: r for r in sorted(rows, key=lambda r: r.name)}
    chosen = st.selectbox(tr("classview.data.learner"), list(by_id), key=PICK_KEY,
                          format_func=lambda pid: by_id[pid].name)
    if chosen is None:
        return
    row = by_id[chosen]
    try:
        from tutor.transfer import export_json

        profile = db.get_profile(row.profile_id)
        exported = export_json(db, row.profile_id)
    except TutorError as exc:
        st.error(exc.message(lang()))
        return
    st.download_button(tr("classview.data.export"), exported, mime="application/json",
                       file_name=f"learner-{row.profile_id}.json", icon=":material/download:")
    st.text_input(tr("classview.data.confirm", name=markdown_escaped(profile.name)),
                  key=CONFIRM_KEY)
    st.button(tr("classview.data.delete"), icon=":material/delete:", on_click=_delete,
              args=(db, row, profile.name))
