"""A derivation report's rows as the tests compare them: the grader's `StepStatus` of each checked
line, "start" for the first readable line (which the grader says is verified) and "remark" for
the words between the lines (not checked)."""

from grader import StepStatus

START, REMARK = "start", "remark"


def row_kinds(report) -> list:
    kinds = []
    for row in report.lines:
        if row.start:
            assert row.status is StepStatus.VERIFIED, row  # a start is a line the grader read
        kinds.append(REMARK if row.remark else START if row.start else row.status)
    return kinds
