"""The derivation checker's flow, without Streamlit: declared names from comma-separated text,
then each line checked against the one before it, so every line gets its own status and a
broken line its own counterexample.

Every pair (line k-1, line k) goes through `grader.check` as an expression request (the warm,
contained worker); a line that cannot be read is "unreadable", one the grader cannot decide is
"undecided". The first line is the starting point: it is only read, not compared.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

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
    target_reached: bool | None  # None when no target was given or the last line is not verified

    @property
    def first_broken(self) -> LineResult | None:
        return next((r for r in self.lines if r.status is LineStatus.BROKEN), None)

    @property
    def all_verified(self) -> bool:
        return all(r.status in (LineStatus.START, LineStatus.VERIFIED) for r in self.lines)


def _is_undecided(result: dict) -> bool:
    # The grader says "cannot decide" honestly instead of guessing; it flags it explicitly.
    return bool(result.get("undecided")) or result.get("decision") == "undecided"


def _status(result: dict) -> LineStatus:
    if _is_undecided(result):
        return LineStatus.UNDECIDED
    if result.get("error"):
        return LineStatus.UNREADABLE
    return LineStatus.VERIFIED if result.get("correct") else LineStatus.BROKEN


def check_derivation(
    lines: Sequence[str], decl: Declarations, *, lang: str, check: Callable[[dict], dict],
    preview: Callable[..., dict], target: str | None = None,
) -> DerivationReport:
    """Each line against the one before; then the last line against the target, if any."""
    lines = [line.strip() for line in lines if line.strip()][:MAX_LINES]
    fields = decl.request_fields()
    results: list[LineResult] = []
    for k, text in enumerate(lines):
        if k == 0:
            seen = preview(text, lang=lang, **fields)
            status = LineStatus.UNREADABLE if seen.get("error") else LineStatus.START
            results.append(LineResult(1, text, status, seen.get("interpreted"), seen.get("error") or ""))
            continue
        result = check({"id": str(k + 1), "kind": "expression", "expected": lines[k - 1],
                        "answer": text, "lang": lang, **fields})
        status = _status(result)
        if status is LineStatus.UNREADABLE and results[-1].status is LineStatus.UNREADABLE:
            # the line before cannot be read: this line cannot be compared, not wrong
            status = LineStatus.UNDECIDED
        results.append(LineResult(k + 1, text, status, result.get("interpreted"),
                                  result.get("feedback") or result.get("error") or ""))
    reached = None
    if target and target.strip() and lines and not any(
        r.status in (LineStatus.UNREADABLE,) for r in results[-1:]
    ):
        final = check({"id": "target", "kind": "expression", "expected": target,
                       "answer": lines[-1], "lang": lang, **fields})
        if not final.get("error") and not _is_undecided(final):
            reached = bool(final.get("correct"))
    return DerivationReport(tuple(results), reached)
