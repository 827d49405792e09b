"""Exercises: every compute template as a generated question, graded and recorded like any other.

A template is practised through the bank's generated question for it when the bank has one (the
one asking for the most answers), else through a question made here from the template's listing
that asks for all its answers, with the stable id `exercise:<template>` (so its attempts reach
Review and the dashboard). A problem is named by (template, seed, difficulty): a link carrying
them opens the same numbers for anyone.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tutor.sessions.question_session import parse_seed

DIFFICULTIES = ("easy", "medium", "hard")
DEFAULT_DIFFICULTY = "medium"
QUESTION_ID_PREFIX = "exercise:"
# The tolerance of a template's answers when no bank question sets one: hand computations carried
# to four significant figures land well inside it.
EXERCISE_TOLERANCE = {"kind": "relative", "value": 1e-3}


def exercise_questions(bank_questions: Iterable, templates: Sequence[Mapping]) -> dict[str, Any]:
    """Template name -> the generated question that practises it (see the module docstring)."""
    by_template: dict[str, Any] = {}
    for question in sorted(bank_questions, key=lambda q: q.id):
        if str(getattr(question.type, "value", question.type)) != "generated":
            continue
        best = by_template.get(question.template)
        if best is None or len(question.asks) > len(best.asks):
            by_template[question.template] = question
    return {spec["name"]: by_template.get(spec["name"]) or synthesized_question(spec)
            for spec in templates}


def synthesized_question(spec: Mapping[str, Any]):
    """A generated question for a template the bank has no question for: its description as the
    prompt, every answer it computes asked, the worked solution from the variant itself."""
    from quizbank.question_types import GeneratedQuestion
    from tutor.i18n import LANGUAGES, t

    description = dict(spec["description"])
    solution = {lang: t("exercises.synthesized_solution", lang) for lang in LANGUAGES}
    question = GeneratedQuestion.model_validate({
        "id": "exercise-" + spec["name"].replace("_", "-"),  # validated as an id, then renamed
        "type": "generated",
        "topic": "worked-example",
        "difficulty": DEFAULT_DIFFICULTY,
        "source": {"text": "gradient-propagation", "section": "exercises"},
        "prompt": description,
        "solution": solution,
        "template": spec["name"],
        "asks": list(spec["answers"]),
        "tolerance": dict(EXERCISE_TOLERANCE),
    })
    return question.model_copy(update={"id": QUESTION_ID_PREFIX + spec["name"]})


def parse_share_params(params: Mapping[str, Any], template_names: Sequence[str]) -> tuple | None:
    """(template, seed, difficulty) from a shared link's query parameters, or None.

    Query parameters are untrusted: anything that is not a known template, a seed in range and a
    known difficulty is ignored rather than passed on.
    """
    template = str(params.get("template", ""))
    difficulty = str(params.get("difficulty", DEFAULT_DIFFICULTY))
    seed = parse_seed(params.get("seed", ""))
    if template not in template_names or difficulty not in DIFFICULTIES or seed is None:
        return None
    return template, seed, difficulty


# ---- how numbers are typed --------------------------------------------------------------------
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


# A relative tolerance this small only absorbs floating-point rounding: the key must be matched
# exactly (a count of parameters), and "1e-07%" would tell the learner nothing.
EXACT_BELOW = 1e-6


def tolerance_value(tolerance) -> tuple[str, str]:
    """(kind, shown value) of a question's tolerance: relative 1e-3 -> ("relative", "0.1%");
    relative below EXACT_BELOW -> ("exact", "")."""
    kind = str(getattr(tolerance.kind, "value", tolerance.kind))
    value = tolerance.value
    if kind == "relative" and float(value) < EXACT_BELOW:
        return "exact", ""
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


# ---- the problem's numbers as code ------------------------------------------------------------
CODE_DIALECTS = ("numpy", "matlab")
MAX_COPIED_NUMBERS = 5000  # past this (a deep MLP's weights) the page offers the command instead


def _count_numbers(value: Any) -> int:
    if isinstance(value, Sequence) and not isinstance(value, str):
        return sum(_count_numbers(v) for v in value)
    return 1


def _scalar(value: Any, dialect: str) -> str:
    if isinstance(value, str):  # a named choice such as an initialization's mode, "fan_in"
        return json.dumps(value) if dialect == "numpy" else "'" + value.replace("'", "''") + "'"
    if isinstance(value, bool):
        return ("True" if value else "False") if dialect == "numpy" else ("true" if value else "false")
    if isinstance(value, int):
        return str(value)
    return repr(float(value))  # the shortest text that reads back as the same double


def _depth(value: Any) -> int:
    is_array = isinstance(value, Sequence) and not isinstance(value, str)
    return 1 + _depth(value[0]) if is_array and value else 0


def _numpy(value: Any) -> str:
    if isinstance(value, Sequence) and not isinstance(value, str):
        return "[" + ", ".join(_numpy(v) for v in value) + "]"
    return _scalar(value, "numpy")


def _matlab(value: Any) -> str:
    depth = _depth(value)
    if depth == 0:
        return _scalar(value, "matlab")
    if depth == 1:  # a vector of the maths is a column: x = [1; 2]
        return "[" + "; ".join(_scalar(v, "matlab") for v in value) + "]"
    if depth == 2:
        return "[" + "; ".join(", ".join(_scalar(v, "matlab") for v in row) for row in value) + "]"
    return "cat(3, " + ", ".join(_matlab(m) for m in value) + ")"  # W(:, :, k) is matrix k


def numbers_as_code(params: Mapping[str, Any], dialect: str) -> str | None:
    """The problem's numbers as NumPy or MATLAB assignments, exactly as drawn (vectors as
    columns in MATLAB); None when there are more than MAX_COPIED_NUMBERS of them."""
    if dialect not in CODE_DIALECTS:
        raise ValueError(f"dialect must be one of {CODE_DIALECTS}, got {dialect!r}")
    if sum(_count_numbers(v) for v in params.values()) > MAX_COPIED_NUMBERS:
        return None
    if dialect == "numpy":
        lines = ["import numpy as np", ""]
        for name, value in params.items():
            is_array = isinstance(value, Sequence) and not isinstance(value, str)
            lines.append(f"{name} = np.array({_numpy(value)})" if is_array else
                         f"{name} = {_numpy(value)}")
        return "\n".join(lines)
    return "\n".join(f"{name} = {_matlab(value)};" for name, value in params.items())
