"""A checked derivation, line by line: a status badge (our own fixed strings, coloured), the line
as the grader read it (LaTeX from the parsed tree, or the raw text in `st.code`), and the first
broken line highlighted with its counterexample.
"""

from __future__ import annotations

import streamlit as st

from app_pages.state import tr
from grader import StepStatus
from tutor.sessions.derivation_check import (
    Declarations,
    DerivationReport,
    LineResult,
    check_derivation,
    report_from_result,
)

# Markdown colour directives, icons and label keys for each grader status: fixed strings, never
# learner text. A remark and the starting line have their own.
BADGES = {
    StepStatus.VERIFIED: ("green", ":material/check_circle:"),
    StepStatus.DOES_NOT_FOLLOW: ("red", ":material/cancel:"),
    StepStatus.CANNOT_DECIDE: ("orange", ":material/help:"),
    StepStatus.UNREADABLE: ("gray", ":material/error:"),
}
LABELS = {
    StepStatus.VERIFIED: "derivation.status.verified",
    StepStatus.DOES_NOT_FOLLOW: "derivation.status.broken",
    StepStatus.CANNOT_DECIDE: "derivation.status.undecided",
    StepStatus.UNREADABLE: "derivation.status.unreadable",
}
REMARK_BADGE = ("violet", ":material/notes:")
START_BADGE, START_LABEL = ("blue", ":material/flag:"), "derivation.status.start"


def badge_and_label(line: LineResult) -> tuple[tuple[str, str], str]:
    """A checked line's (colour, icon) and label key."""
    if line.start:
        return START_BADGE, START_LABEL
    return BADGES[line.status], LABELS[line.status]


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
            if line.remark:  # words between the lines: shown as written
                colour, icon = REMARK_BADGE
                left, right = st.columns([1, 3], vertical_alignment="center")
                left.markdown(f"{icon} :{colour}[{tr('derivation.status.remark')}]")
                right.text(line.text)  # learner text: plain, never markdown
                continue
            (colour, icon), label_key = badge_and_label(line)
            label = tr(label_key)
            box = st.container(border=line is broken)
            left, right = box.columns([1, 3], vertical_alignment="center")
            left.markdown(f"{icon} :{colour}[**{tr('practice.line_status', n=number)} · {label}**]")
            with right:
                if line.interpreted:
                    st.latex(line.interpreted)
                else:
                    st.code(line.text, language=None)
            if line.feedback:  # a verified line's note too (a domain that differs)
                box.text(line.feedback)
        if report.target_reached is True:
            st.success(tr("derivation.target_reached"), icon=":material/flag_circle:")
        elif report.target_reached is False:
            st.warning(tr("derivation.target_missed"), icon=":material/flag_circle:")


def line_statuses(result, lines, *, has_target: bool = True) -> None:
    """Practice: the grader's per-line steps of a graded derivation question (from its start)."""
    report_view(report_from_result(result, list(lines), has_start=True, has_target=has_target))
