"""Export the profile's history (CSV, JSON) and import a JSON export into it (tutor.transfer).

A refused file is explained in the learner's language; its problems may quote the file, so they
are shown as plain text. Nothing is written unless the whole file is valid (a file with entries
dated in the future is refused). Attempts at questions this bank does not have are kept, and the
page says how many (`tutor.transfer` explains why kept rather than skipped).

The uploader's own strings: Streamlit draws its button ("Upload") and its note ("20MB per file •
JSON") in English and offers no parameter for them (streamlit/streamlit#13500, open). We replace
their text with our translated strings in CSS scoped to this uploader (`translated_uploader_css`);
the file picker accepts any file, so a wrong file gets our own translated refusal ("not JSON")
rather than Streamlit's English "files are not allowed". What stays English: the "Drag and drop a
file here" overlay shown only while a file is dragged over the box, the error for a file over
the 20 MB limit, and the hidden input's screen-reader name "file upload".
"""

from __future__ import annotations

import streamlit as st

from app_pages.state import leave_notice, take_notice, tr, tr_n
from app_pages.widgets import resources
from app_pages.widgets.auth import import_policy
from app_pages.widgets.uploader_css import uploader_css
from tutor.store import TutorError
from tutor.transfer import ImportPolicy, export_csv, export_json, import_json

_DONE = "dashboard.import_done"  # its notice: what was imported, shown after the rerun
_UPLOADER_BOX = "import_uploader"


def translated_uploader_css(box_key: str, policy: ImportPolicy) -> str:
    """CSS that shows our translated button label and note in the uploader inside `box_key`."""
    return uploader_css(box_key, tr("dashboard.upload_button"),
                        tr("dashboard.upload_note", mb=policy.max_mb))


def transfer_section(db, profile_id: int, lang: str) -> None:
    st.header(tr("dashboard.export"))
    st.caption(tr("dashboard.export_help"))
    cols = st.columns(2)
    # Built only when clicked (in a thread of its own), so a long history never slows the page;
    # a download changes nothing on the page, so it does not rerun it.
    cols[0].download_button(tr("dashboard.export_csv"), lambda: export_csv(db, profile_id),
                            file_name="residual-tutor-attempts.csv", mime="text/csv",
                            icon=":material/download:", key="dashboard.csv", on_click="ignore")
    cols[1].download_button(tr("dashboard.export_json"), lambda: export_json(db, profile_id),
                            file_name="residual-tutor-progress.json", mime="application/json",
                            icon=":material/download:", key="dashboard.json", on_click="ignore")
    policy = import_policy()
    if not policy.allowed:
        st.info(tr("dashboard.import_turned_off"), icon=":material/block:")
        return
    st.caption(tr("dashboard.import_marked"))
    st.html(translated_uploader_css(_UPLOADER_BOX, policy))
    with st.form("dashboard.import", clear_on_submit=True), st.container(key=_UPLOADER_BOX):
        upload = st.file_uploader(tr("dashboard.import_label"), key="dashboard.upload")
        go = st.form_submit_button(tr("dashboard.import_button"), icon=":material/upload:")
    if go and upload is not None:
        try:
            known = {q.id for q in resources.bank()}
            report = import_json(db, upload.getvalue(), into_profile_id=profile_id,
                                 known_question_ids=known, policy=policy)
        except TutorError as exc:
            with st.container(key="import_refused"):
                st.error(tr("dashboard.import_refused"), icon=":material/block:")
                st.text(exc.message(lang))
        else:
            # rerun so the charts above include what was imported; the message survives it
            # "Attempts" above counts first tries only: say how many of the imported ones are
            done = tr_n("dashboard.import_done", report.attempts_added,
                        first=report.first_tries_added, skipped=report.attempts_skipped)
            unknown = (tr_n("dashboard.import_unknown_kept", report.attempts_unknown,
                            questions=tr_n("dashboard.questions_n", report.questions_unknown))
                       if report.attempts_unknown else None)
            leave_notice(_DONE, (done, unknown))
            st.rerun()
    if (notice := take_notice(_DONE)) is not None:
        done, unknown = notice
        st.success(done, icon=":material/check_circle:")
        if unknown:
            st.info(unknown, icon=":material/help:")
