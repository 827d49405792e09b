"""Generated keys that are exact whole numbers (|±1|^n = 1, 2^28): typing the number exactly is
full marks whatever precision the prompt asks for, and the worked solution writes `= 1`, never
`≈ 1.000` (`≈` marks a rounded value only).

Regression (issue 30): in `gen-gradient-multiplier` at a = ±1, typing `1` scored 0.5 with "Give 3
significant figures (you gave 1)", and the solution printed `1^{28} ≈ 1.000` and
`2^{28} ≈ 268435456`.
"""

from __future__ import annotations

import re

import pytest

import compute
import quizbank
from compute.texfmt import key_num
from quizbank.grading import grade
from quizbank.variants import Variant

SEEDS = range(400)  # a = ±1 comes up in about 1 seed in 40 for the gradient multiplier
BANK = quizbank.load_bank()
GENERATED = list(BANK.by_type("generated"))


def _whole_numbers(value):
    if isinstance(value, list):
        for v in value:
            yield from _whole_numbers(v)
    elif float(value).is_integer() and value != 0 and abs(value) < 1e9:
        yield float(value)


def _typed(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_typed(v) for v in value) + "]"
    return str(int(value)) if float(value).is_integer() and abs(value) < 1e9 else repr(value)


@pytest.mark.parametrize("question", GENERATED, ids=lambda q: q.id)
def test_an_exact_whole_number_key_typed_exactly_is_full_marks(question):
    difficulty = getattr(question.difficulty, "value", question.difficulty)
    failures, seen = [], 0
    for seed in SEEDS:
        problem = compute.generate(question.template, seed=seed, difficulty=difficulty)
        exact = {ask: list(_whole_numbers(problem["answers"][ask])) for ask in question.asks}
        if not any(exact.values()):
            continue
        seen += 1
        answer = {ask: _typed(problem["answers"][ask]) for ask in question.asks}
        result = grade(question, answer, lang="en", variant=Variant.from_problem(problem))
        if not result.correct or result.score != 1.0:
            failures.append(f"seed {seed}: {answer} scored {result.score}: {result.feedback}")
        for lang in ("en", "zh"):
            solution = problem["solution"][lang]
            for value in (v for values in exact.values() for v in values):
                written = (str(int(value)), key_num(value))
                if any(re.search(r"\\approx\s*" + re.escape(w) + r"(?![\d.])", solution)
                       for w in written):
                    failures.append(f"seed {seed} ({lang}): the exact {int(value)} is written "
                                    "with ≈")
    assert not failures, f"{seen} seeds with exact keys:\n" + "\n".join(failures[:10])
