"""The one result of grading an answer: a small immutable value every caller reads the same way.

`Result.verdict` is one of four: correct, partial (some credit), wrong, unreadable (the answer
could not be read or decided, or is undefined: not an attempt at all). `to_json()` is the JSON
Lines contract of `python -m grader check` (docs/contracts.md), which does not change;
`to_wire()` / `from_wire()` carry every field across the contained worker's pipe.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

# The fields of one line of `python -m grader check`'s output, in order.
CONTRACT_FIELDS = ("id", "correct", "score", "feedback", "interpreted", "error",
                   "first_wrong_step", "elapsed_ms")


class Verdict(StrEnum):
    CORRECT = "correct"
    PARTIAL = "partial"
    WRONG = "wrong"
    UNREADABLE = "unreadable"


class StepStatus(StrEnum):
    """How one line of a derivation relates to the line it follows."""

    VERIFIED = "verified"
    DOES_NOT_FOLLOW = "does_not_follow"
    CANNOT_DECIDE = "cannot_decide"
    UNREADABLE = "unreadable"


@dataclass(frozen=True, slots=True)
class Step:
    """One derivation line (1-based `line`), as the grader read and judged it."""

    line: int
    status: StepStatus
    interpreted: str | None = None
    feedback: str = ""

    def to_wire(self) -> dict:
        return {"line": self.line, "status": self.status.value, "interpreted": self.interpreted,
                "feedback": self.feedback}

    @classmethod
    def from_wire(cls, data: dict) -> Step:
        return cls(int(data["line"]), StepStatus(data["status"]), data.get("interpreted"),
                   str(data.get("feedback") or ""))


@dataclass(frozen=True, slots=True)
class Counterexample:
    """A point where the answer and the expected formula differ, as text for the learner."""

    point: str  # "x = 2, F(t) = t^2"
    answer: str
    expected: str

    def to_wire(self) -> dict:
        return {"point": self.point, "answer": self.answer, "expected": self.expected}

    @classmethod
    def from_wire(cls, data: dict | None) -> Counterexample | None:
        return None if not data else cls(str(data["point"]), str(data["answer"]),
                                         str(data["expected"]))


@dataclass(frozen=True, slots=True)
class Part:
    """A named part of a result: one asked answer of a generated question."""

    name: str
    result: Result


@dataclass(frozen=True, slots=True)
class Result:
    verdict: Verdict
    score: float = 0.0
    feedback: str = ""
    interpreted: str | None = None  # LaTeX of what the grader read
    error: str | None = None  # why the answer is unreadable (set exactly when verdict is)
    malrule: str | None = None  # the matched mal-rule's feedback (bank text, Markdown)
    counterexample: Counterexample | None = None
    first_wrong_step: int | None = None
    steps: tuple[Step, ...] = ()  # derivations: every line
    reaches_target: bool | None = None  # derivations with a target
    parts: tuple[Part, ...] = ()
    id: object = None
    elapsed_ms: float = 0.0

    @property
    def correct(self) -> bool:
        return self.verdict is Verdict.CORRECT

    @property
    def unreadable(self) -> bool:
        return self.verdict is Verdict.UNREADABLE

    def part(self, name: str) -> Result | None:
        return next((p.result for p in self.parts if p.name == name), None)

    def timed(self, request_id: object, elapsed_ms: float) -> Result:
        return replace(self, id=request_id, elapsed_ms=round(elapsed_ms, 3))

    def to_json(self) -> dict:
        """One line of the JSON Lines contract."""
        return {"id": self.id, "correct": self.correct, "score": self.score,
                "feedback": self.feedback, "interpreted": self.interpreted, "error": self.error,
                "first_wrong_step": self.first_wrong_step, "elapsed_ms": self.elapsed_ms}

    def to_wire(self) -> dict:
        """Every field, JSON-ready (for the worker's pipe)."""
        out = self.to_json()
        out.update(verdict=self.verdict.value, malrule=self.malrule,
                   counterexample=self.counterexample and self.counterexample.to_wire(),
                   steps=[s.to_wire() for s in self.steps], reaches_target=self.reaches_target,
                   parts=[{"name": p.name, "result": p.result.to_wire()} for p in self.parts])
        return out

    @classmethod
    def from_wire(cls, data: dict) -> Result:
        return cls(
            verdict=Verdict(data["verdict"]), score=float(data.get("score") or 0.0),
            feedback=str(data.get("feedback") or ""), interpreted=data.get("interpreted"),
            error=data.get("error"), malrule=data.get("malrule"),
            counterexample=Counterexample.from_wire(data.get("counterexample")),
            first_wrong_step=data.get("first_wrong_step"),
            steps=tuple(Step.from_wire(s) for s in data.get("steps") or ()),
            reaches_target=data.get("reaches_target"),
            parts=tuple(Part(p["name"], cls.from_wire(p["result"]))
                        for p in data.get("parts") or ()),
            id=data.get("id"), elapsed_ms=float(data.get("elapsed_ms") or 0.0))


def verdict_for(*, correct: bool, score: float, error: str | None) -> Verdict:
    if error:
        return Verdict.UNREADABLE
    if correct:
        return Verdict.CORRECT
    return Verdict.PARTIAL if score > 0 else Verdict.WRONG
