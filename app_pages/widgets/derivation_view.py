"""A checked derivation, line by line: a status badge (our own fixed strings, coloured), the line
as the grader read it (LaTeX from the parsed tree, or the raw text in `st.code`), and the first
broken line highlighted with its counterexample.
"""

from __future__ import annotations

import streamlit as st

from app_pages.flows.derivation_check import (
    Declarations,
    DerivationReport,
    LineStatus,
    check_derivation,
    report_from_result,
)
from app_pages.state import tr

# Markdown colour directives and icons for each status: fixed strings, never learner text.
BADGES = {
    LineStatus.REMARK: ("violet", ":material/notes:"),
    LineStatus.START: ("blue", ":material/flag:"),
    LineStatus.VERIFIED: ("green", ":material/check_circle:"),
    LineStatus.BROKEN: ("red", ":material/cancel:"),
    LineStatus.UNDECIDED: ("orange", ":material/help:"),
    LineStatus.UNREADABLE: ("gray", ":material/error:"),
}


def check(lines, decl: Declarations, lang: str, target: str | None = None) -> DerivationReport:
    import grader

    return check_derivation(lines, decl, lang=lang, check=grader.check, preview=grader.preview,
                            target=target, split=grader.split_derivation)


def report_view(report: DerivationReport) -> None:
    """One row per line, the first broken one framed with its counterexample."""
    broken = report.first_broken
    with st.container(key="derivation_report"):
        if (problem := report.target_problem) is not None:
            st.error(tr("derivation.bad_target"), icon=":material/flag:")
            st.code("\n".join(filter(None, (problem.reason, problem.caret))), language=None)
        if report.error:
            st.warning(tr("practice.unreadable"), icon=":material/help:")
            st.text(report.error)
        for line in report.lines:
            number = line.number
            colour, icon = BADGES[line.status]
            if line.status is LineStatus.REMARK:  # words between the lines: shown as written
                left, right = st.columns([1, 3], vertical_alignment="center")
                left.markdown(f"{icon} :{colour}[{tr('derivation.status.remark')}]")
                right.text(line.text)  # learner text: plain, never markdown
                continue
            label = tr(f"derivation.status.{line.status.value}")
            box = st.container(border=line is broken)
            left, right = box.columns([1, 3], vertical_alignment="center")
            left.markdown(f"{icon} :{colour}[**{tr('practice.line_status', n=number)} · {label}**]")
            with right:
                if line.interpreted:
                    st.latex(line.interpreted)
                else:
                    st.code(line.text, language=None)
            if line.feedback and line.status in (LineStatus.BROKEN, LineStatus.UNREADABLE,
                                                 LineStatus.UNDECIDED):
                box.text(line.feedback)
        if report.target_reached is True:
            st.success(tr("derivation.target_reached"), icon=":material/flag_circle:")
        elif report.target_reached is False:
            st.warning(tr("derivation.target_missed"), icon=":material/flag_circle:")


def line_statuses(result, lines, *, has_target: bool = True) -> None:
    """Practice: the grader's per-line steps of a graded derivation question (from its start)."""
    report_view(report_from_result(result, list(lines), has_start=True, has_target=has_target))
