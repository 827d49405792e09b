"""Run every question's author tests through the grader, the way a test runner would."""

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .bank import Bank
from .enums import Verdict
from .question_types import GeneratedQuestion, Question

GradeQuestion = Callable[..., dict]


class GraderUnavailable(RuntimeError):
    """`grader.grade_question` cannot be imported (the grader is not installed or not built yet)."""


def import_grade_question() -> GradeQuestion:
    """Imported lazily: validating the bank must not need sympy or the grader's worker."""
    try:
        from grader import grade_question
    except Exception as error:  # noqa: BLE001 - any import failure means: no grader to run
        raise GraderUnavailable(f"grader.grade_question is not available ({error})") from error
    return grade_question


@dataclass(frozen=True)
class TestOutcome:
    question_id: str
    number: int  # 1-based, as authors count the items under `tests:`
    expected: Verdict
    got: str  # a Verdict value, or "error" when grading itself failed
    feedback: str
    where: Callable[[], str] = field(compare=False, repr=False)  # path:line, found on demand

    @property
    def passed(self) -> bool:
        return self.got == self.expected.value

    def __str__(self) -> str:
        detail = f" ({self.feedback})" if self.feedback else ""
        return (
            f"{self.where()}: {self.question_id}: test #{self.number}: "
            f"expected {self.expected.value} got {self.got}{detail}"
        )


def verdict_of(result: dict) -> Verdict:
    """The grader's result -> the verdict authors write: unreadable answers carry an `error`."""
    if result.get("error"):
        return Verdict.UNREADABLE
    return Verdict.CORRECT if result.get("correct") else Verdict.WRONG


def _answer_with_keys(question: GeneratedQuestion, answer: dict[str, str], seed: int) -> dict:
    """Replace the word "key" by the answer key that compute gives for this seed."""
    if "key" not in answer.values():
        return answer
    from compute import generate  # torch, lazily: only generated tests that use "key" need it

    problem = generate(question.template, seed=seed, difficulty=question.difficulty.value)
    return {
        name: json.dumps(problem["answers"][name]) if text == "key" else text
        for name, text in answer.items()
    }


def run_question_tests(
    question: Question, where: Callable[[int], str], grade: GradeQuestion, lang: str
) -> list[TestOutcome]:
    outcomes = []
    for k, test in enumerate(question.tests, start=1):
        seed = getattr(test, "seed", None)
        answer: Any = test.answer
        try:
            if isinstance(question, GeneratedQuestion):
                answer = _answer_with_keys(question, answer, seed)
            result = grade(question, answer, lang=lang, seed=seed)
            got, feedback = (
                verdict_of(result).value,
                str(result.get("error") or result.get("feedback") or ""),
            )
        except Exception as error:  # noqa: BLE001 - a crash is a failed test, reported like one
            got, feedback = "error", f"{type(error).__name__}: {error}"
        outcomes.append(
            TestOutcome(question.id, k, test.verdict, got, feedback, lambda k=k: where(k))
        )
    return outcomes


def run_author_tests(bank: Bank, grade: GradeQuestion, lang: str = "en") -> list[TestOutcome]:
    outcomes = []
    for question in bank:
        location = bank.location(question.id)

        def where(k: int, location=location) -> str:
            line = location.line_of("tests", k - 1)
            return location.path if line is None else f"{location.path}:{line}"

        outcomes += run_question_tests(question, where, grade, lang)
    return outcomes
