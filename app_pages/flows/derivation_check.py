"""The derivation checker's flow, without Streamlit: declared names from comma-separated text,
one `grader.check` derivation request (the warm, contained worker checks each line against the
line before it), and its per-line steps as a report the page can show.

Line statuses follow the grader: verified, does not follow (with a counterexample in the
feedback), cannot decide, unreadable (with the position). Without a given start, the first line
is the starting point: read, with nothing to follow from.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the grader is imported by the caller that checks
    from grader import Result

NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")  # the bank's Identifier rule
MAX_LINES = 40


class LineStatus(StrEnum):
    START = "start"  # the first line: read, nothing to follow from
    VERIFIED = "verified"  # equals the line before
    BROKEN = "broken"  # does not follow (counterexample in `feedback`)
    UNDECIDED = "undecided"  # the grader could not decide either way
    UNREADABLE = "unreadable"  # this line cannot be read (position in `feedback`)


@dataclass(frozen=True)
class Declarations:
    symbols: tuple[str, ...] = ()
    functions: tuple[str, ...] = ()
    matrices: tuple[str, ...] = ()

    def request_fields(self) -> dict:
        return {"symbols": list(self.symbols), "functions": list(self.functions),
                "matrices": list(self.matrices)}


def parse_names(text: str) -> tuple[tuple[str, ...], list[str]]:
    """`"x, y , W"` -> (("x", "y", "W"), []); names that are not identifiers come back as problems."""
    names, bad = [], []
    for part in re.split(r"[,，;；\s]+", text or ""):
        if not part:
            continue
        (names if NAME.match(part) else bad).append(part)
    return tuple(dict.fromkeys(names)), bad


def declarations_from_text(symbols: str, functions: str, matrices: str) -> tuple[Declarations, list[str]]:
    """Declarations and every problem at once (bad names; one name declared twice)."""
    parsed, problems = {}, []
    for field, text in (("symbols", symbols), ("functions", functions), ("matrices", matrices)):
        names, bad = parse_names(text)
        parsed[field] = names
        problems += [f"{field}: {b}" for b in bad]
    seen: dict[str, str] = {}
    for field, names in parsed.items():
        for name in names:
            if name in seen:
                problems.append(f"{name}: {seen[name]} & {field}")
            seen.setdefault(name, field)
    return Declarations(**parsed), problems


@dataclass(frozen=True)
class LineResult:
    number: int  # 1-based
    text: str
    status: LineStatus
    interpreted: str | None  # LaTeX from the parsed tree
    feedback: str  # the grader's explanation (counterexample, position), already localized


@dataclass(frozen=True)
class DerivationReport:
    lines: tuple[LineResult, ...]
    target_reached: bool | None  # None when no target was given
    error: str | None = None  # the request itself could not be checked (e.g. an unreadable target)

    @property
    def first_broken(self) -> LineResult | None:
        return next((r for r in self.lines if r.status is LineStatus.BROKEN), None)

    @property
    def all_verified(self) -> bool:
        return all(r.status in (LineStatus.START, LineStatus.VERIFIED) for r in self.lines)


GRADER_STATUS = {
    "verified": LineStatus.VERIFIED,
    "does_not_follow": LineStatus.BROKEN,
    "cannot_decide": LineStatus.UNDECIDED,
    "unreadable": LineStatus.UNREADABLE,
}


def report_from_result(result: Result, lines: Sequence[str], *, has_start: bool,
                       has_target: bool) -> DerivationReport:
    """The grader's derivation result (`steps`, `reaches_target`) as a per-line report."""
    rows = []
    readable_before = has_start
    for step in result.steps:
        number = step.line
        status = GRADER_STATUS[step.status.value]
        if status is LineStatus.VERIFIED and not readable_before:
            status = LineStatus.START  # the first readable line: nothing before it to follow from
        readable_before = readable_before or status is not LineStatus.UNREADABLE
        text = lines[number - 1] if 0 < number <= len(lines) else ""
        rows.append(LineResult(number, text, status, step.interpreted, step.feedback))
    reached = bool(result.reaches_target) if has_target and rows else None
    error = result.error if not rows else None
    return DerivationReport(tuple(rows), reached, error)


def check_derivation(
    lines: Sequence[str], decl: Declarations, *, lang: str, check: Callable[[dict], Result],
    target: str | None = None, start: str | None = None,
) -> DerivationReport:
    """Check `lines` (blank ones dropped) from `start` (or from the first line) to `target`."""
    lines = [line.strip() for line in lines if line.strip()][:MAX_LINES]
    target = target.strip() if target and target.strip() else None
    result = check({"id": "derivation", "kind": "derivation", "expected": target, "start": start,
                    "answer": lines, "lang": lang, **decl.request_fields()})
    return report_from_result(result, lines, has_start=start is not None,
                              has_target=target is not None)
