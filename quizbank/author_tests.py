"""Run every question's author tests through the grader, the way a test runner would."""

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .bank import Bank
from .enums import ExpectedVerdict
from .question_types import GeneratedQuestion, Question

# grade(question, answer, *, lang, variant) -> grader.Result: `quizbank.grading.grade`, or a
# stand-in in tests.
GradeQuestion = Callable[..., Any]
GRADING_FAILED = "error"  # what a test's output says it got when grading itself raised


class GraderUnavailable(RuntimeError):
    """The grader cannot be imported (it is not installed, or broken)."""


def import_grade_question() -> GradeQuestion:
    """Imported lazily: validating the bank must not need the grader."""
    try:
        from .grading import grade
    except Exception as error:  # noqa: BLE001 - any import failure means: no grader to run
        raise GraderUnavailable(f"the grader is not available ({error})") from error
    return grade


@dataclass(frozen=True)
class TestOutcome:
    question_id: str
    number: int  # 1-based, as authors count the items under `tests:`
    expected: ExpectedVerdict
    got: ExpectedVerdict | None  # None when grading itself failed (printed "error")
    feedback: str
    where: Callable[[], str] = field(compare=False, repr=False)  # path:line, found on demand

    @property
    def passed(self) -> bool:
        return self.got is self.expected

    @property
    def got_text(self) -> str:
        """What the grader said, as the output prints it."""
        return GRADING_FAILED if self.got is None else self.got.value

    def __str__(self) -> str:
        detail = f" ({self.feedback})" if self.feedback else ""
        return (
            f"{self.where()}: {self.question_id}: test #{self.number}: "
            f"expected {self.expected.value} got {self.got_text}{detail}"
        )


def verdict_of(result) -> ExpectedVerdict:
    """A `grader.Result` -> the verdict authors write (partial credit is not correct: wrong)."""
    if result.unreadable:
        return ExpectedVerdict.UNREADABLE
    return ExpectedVerdict.CORRECT if result.correct else ExpectedVerdict.WRONG


def _answer_with_keys(answer: dict[str, str], variant) -> dict:
    """Replace the word "key" by the variant's answer key."""
    return {name: json.dumps(variant.answers[name]) if text == "key" else text
            for name, text in answer.items()}


def run_question_tests(
    question: Question, where: Callable[[int], str], grade: GradeQuestion, lang: str
) -> list[TestOutcome]:
    outcomes = []
    for k, test in enumerate(question.tests, start=1):
        answer: Any = test.answer
        variant = None
        try:
            if isinstance(question, GeneratedQuestion):
                from .variants import variant_for  # torch, lazily: only generated tests need it

                variant = variant_for(question, test.seed)
                answer = _answer_with_keys(answer, variant)
            result = grade(question, answer, lang=lang, variant=variant)
            got, feedback = verdict_of(result), str(result.error or result.feedback or "")
        except Exception as error:  # noqa: BLE001 - a crash is a failed test, reported like one
            got, feedback = None, f"{type(error).__name__}: {error}"
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
