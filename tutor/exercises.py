"""The exercise session flow, without Streamlit: template + seed -> problem -> graded answers.

An exercise is a compute template drawn with a seed; the learner answers every answer the
template computes, each graded by the grader's numeric check against the template's value. The
(template, seed, difficulty) triple names the problem, so a link carrying it opens the same numbers
for anyone. `compute` and `grader` are imported lazily: they are slow to import and this module
sits on the app's page path.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

DIFFICULTIES = ("easy", "medium", "hard")
DEFAULT_DIFFICULTY = "medium"
# Seeds are short enough to read aloud and type into a URL.
SEED_RANGE = (1, 99_999)
DEFAULT_TOLERANCE: Mapping[str, Any] = {"kind": "relative", "value": 1e-3}
QUESTION_ID_PREFIX = "exercise:"


@dataclass(frozen=True)
class Exercise:
    """One generated problem, as the page shows it (numbers are plain Python values)."""

    template: str
    seed: int
    difficulty: str
    asks: tuple[str, ...]
    expected: Mapping[str, Any]
    prompt: Mapping[str, str]
    solution: Mapping[str, str]
    tolerance: Mapping[str, Any] = field(default_factory=lambda: dict(DEFAULT_TOLERANCE))

    @property
    def question_id(self) -> str:
        return QUESTION_ID_PREFIX + self.template

    def share_params(self) -> dict[str, str]:
        """The query parameters that reopen this exact problem."""
        return {"template": self.template, "seed": str(self.seed), "difficulty": self.difficulty}


@dataclass(frozen=True)
class AnswerResult:
    """The grader's decision on one asked answer."""

    name: str
    answer: str
    correct: bool
    error: str | None = None
    feedback: str | None = None
    interpreted: str | None = None

    @property
    def verdict(self) -> str:
        if self.error:
            return "error"
        return "correct" if self.correct else "wrong"


@dataclass(frozen=True)
class ExerciseResult:
    """A graded attempt at a whole exercise: what the progress store records."""

    exercise: Exercise
    answers: tuple[AnswerResult, ...]
    seconds: float = 0.0

    @property
    def score(self) -> float:
        """Fraction of the asked answers that are correct."""
        return sum(a.correct for a in self.answers) / len(self.answers) if self.answers else 0.0

    @property
    def verdict(self) -> str:
        """correct / partial / wrong / error, the store's verdict vocabulary."""
        if self.answers and all(a.correct for a in self.answers):
            return "correct"
        if any(a.correct for a in self.answers):
            return "partial"
        if self.answers and all(a.error for a in self.answers):
            return "error"
        return "wrong"

    def attempt_fields(self) -> dict[str, Any]:
        """Keyword arguments for the store's `NewAttempt` (answers kept as readable JSON)."""
        typed = {a.name: a.answer for a in self.answers}
        return {
            "question_id": self.exercise.question_id,
            "verdict": self.verdict,
            "score": self.score,
            "answer": json.dumps(typed, ensure_ascii=False, sort_keys=True),
            "seed": self.exercise.seed,
            "hints_used": 0,
            "seconds": max(self.seconds, 0.0),
        }


def list_exercise_templates() -> list[dict]:
    """Every compute template (`name`, `description: {zh, en}`, `answers`)."""
    import compute

    return compute.list_templates()


def draw_seed() -> int:
    lo, hi = SEED_RANGE
    return lo + secrets.randbelow(hi - lo + 1)


def build_exercise(template: str, seed: int, difficulty: str = DEFAULT_DIFFICULTY,
                   *, tolerance: Mapping[str, Any] | None = None) -> Exercise:
    """The problem for (template, seed, difficulty); raises compute's errors for bad input."""
    import compute

    problem = compute.generate(template, seed=seed, difficulty=difficulty)
    spec = next(t for t in compute.list_templates() if t["name"] == template)
    asks = tuple(name for name in spec["answers"] if name in problem["answers"])
    return Exercise(
        template=template,
        seed=seed,
        difficulty=difficulty,
        asks=asks,
        expected={name: problem["answers"][name] for name in asks},
        prompt=dict(problem["prompt"]),
        solution=dict(problem["solution"]),
        tolerance=dict(tolerance or DEFAULT_TOLERANCE),
    )


# The bank's tolerance kinds -> the grader request's tolerance fields.
TOLERANCE_FIELDS = {"relative": "rtol", "absolute": "atol", "sigfigs": "sigfigs"}


def numeric_request(expected: Any, answer: str, tolerance: Mapping[str, Any], lang: str) -> dict:
    """The grader's numeric check request for one answer (tolerance as rtol / atol / sigfigs)."""
    field_name = TOLERANCE_FIELDS[str(tolerance.get("kind", "relative"))]
    return {"kind": "numeric", "answer": answer, "expected": expected,
            field_name: tolerance["value"], "lang": lang}


def grade_exercise(exercise: Exercise, typed: Mapping[str, str], *, lang: str = "en",
                   seconds: float = 0.0,
                   check: Callable[[dict], Any] | None = None) -> ExerciseResult:
    """Grade every asked answer (a blank one is wrong, not an error) into one result.

    `check` is `grader.check` unless a test or benchmark passes another.
    """
    if check is None:
        import grader

        check = grader.check
    results = []
    for name in exercise.asks:
        text = str(typed.get(name, "") or "").strip()
        if not text:
            results.append(AnswerResult(name, "", correct=False))
            continue
        verdict = check(numeric_request(exercise.expected[name], text, exercise.tolerance, lang))
        results.append(AnswerResult(
            name=name,
            answer=text,
            correct=verdict.correct,
            error=verdict.error or None,
            feedback=verdict.feedback or None,
            interpreted=verdict.interpreted,
        ))
    return ExerciseResult(exercise, tuple(results), seconds)


def answer_shape(value: Any) -> tuple[int, ...]:
    """() for a number, (n,) for a vector, (rows, cols) for a matrix: the input's hint."""
    if isinstance(value, Sequence) and not isinstance(value, str):
        inner = answer_shape(value[0]) if value else ()
        return (len(value), *inner)
    return ()


_SAMPLE_ENTRIES = ("0.5", "-1.2", "3", "0.25", "2", "-0.8")


def shape_example(shape: tuple[int, ...]) -> str:
    """An example of how to type a value of this shape: 1.25, [0.5, -1.2], [[0.5, -1.2], [3, 0.25]]."""
    if not shape:
        return "1.25"

    def row(n: int, offset: int = 0) -> str:
        cells = [_SAMPLE_ENTRIES[(offset + i) % len(_SAMPLE_ENTRIES)] for i in range(n)]
        if n > 6:
            cells = [*cells[:2], "…", cells[-1]]
        return "[" + ", ".join(cells) + "]"

    if len(shape) == 1:
        return row(shape[0])
    shown = range(shape[0]) if shape[0] <= 3 else (0, 1, None, shape[0] - 1)
    rows = ["…" if r is None else row(shape[1], offset=r * shape[1]) for r in shown]
    return "[" + ", ".join(rows) + "]"


def parse_share_params(params: Mapping[str, Any], template_names: Sequence[str]) -> tuple | None:
    """(template, seed, difficulty) from a shared link's query parameters, or None.

    Query parameters are untrusted: anything that is not a known template, a seed in range and a
    known difficulty is ignored rather than passed on.
    """
    template = str(params.get("template", ""))
    seed_text = str(params.get("seed", ""))
    difficulty = str(params.get("difficulty", DEFAULT_DIFFICULTY))
    if template not in template_names or difficulty not in DIFFICULTIES:
        return None
    if not seed_text.isascii() or not seed_text.isdigit() or len(seed_text) > 9:
        return None
    seed = int(seed_text)
    if not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
        return None
    return template, seed, difficulty


def tolerance_value(tolerance: Mapping[str, Any]) -> tuple[str, str]:
    """(kind, shown value) of a tolerance: relative 1e-3 -> ("relative", "0.1%")."""
    kind = str(tolerance.get("kind", "relative"))
    value = tolerance.get("value", 0)
    if kind == "relative":
        return kind, f"{float(value) * 100:g}%"
    if kind == "sigfigs":
        return kind, str(int(value))
    return kind, f"{float(value):g}"


def format_value(value: Any) -> str:
    """A key value as the learner would type it: 3.08, [3.08, 2.64], [[1, 0], [0, 1]]."""
    if isinstance(value, Sequence) and not isinstance(value, str):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)
