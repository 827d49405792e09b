"""Export the profile's history (CSV, JSON) and import a JSON export into it (tutor.transfer).

A refused file is explained in the learner's language; its problems may quote the file, so they
are shown as plain text. Nothing is written unless the whole file is valid.
"""

from __future__ import annotations

import streamlit as st

from app_pages.state import tr
from tutor.store import TutorError
from tutor.transfer import export_csv, export_json, import_json

_FLASH = "dashboard.import_done"


def transfer_section(db, profile_id: int, lang: str) -> None:
    st.subheader(tr("dashboard.export"))
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
    with st.form("dashboard.import", clear_on_submit=True):
        upload = st.file_uploader(tr("dashboard.import_label"), type=["json"], key="dashboard.upload")
        go = st.form_submit_button(tr("dashboard.import_button"), icon=":material/upload:")
    if go and upload is not None:
        try:
            report = import_json(db, upload.getvalue(), into_profile_id=profile_id)
        except TutorError as exc:
            with st.container(key="import_refused"):
                st.error(tr("dashboard.import_refused"), icon=":material/block:")
                st.text(exc.message(lang))
        else:
            # rerun so the charts above include what was imported; the message survives it
            st.session_state[_FLASH] = tr("dashboard.import_done", added=report.attempts_added,
                                          skipped=report.attempts_skipped)
            st.rerun()
    if (done := st.session_state.pop(_FLASH, None)) is not None:
        st.success(done, icon=":material/check_circle:")
