"""Build generated.jsonl: learners' numeric answers to compute's problems, with verdicts that owe
nothing to the grader. Run: .venv/bin/python bench/corpus/make_generated.py

answers.jsonl was written alongside the grader, so grading it right is not an independent measure.
Here the expected values come from compute (torch, float64), the learner's text is written by the
formatting in learner_notation.py (no grader code), and each verdict is exact decimal arithmetic
(exact_verdict.py) on what that text says against the exact expected value, under the tolerance
the product grades that answer with.
A rewrite too close to the tolerance's edge to call safely (within a factor 2 of the bound, or
on a rounding tie for significant figures) is left out rather than guessed.

Every line is a `python -m grader check` request (the numeric request `quizbank.grading` builds
for one asked answer, `numeric_request` below) plus `verdict` ("correct" / "wrong") and `how` (the rewrite), which the grader
ignores. The output is the same byte for byte on every run: fixed seeds, no randomness here.
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))
HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # the sibling modules, also when loaded by file path (the tests)
    sys.path.insert(0, str(HERE))

# these imports need the path fixes above
from exact_verdict import Tolerance, figures_for, flat, shape_of, verdict  # noqa: E402
from learner_notation import first_form, forms_of, written  # noqa: E402

import compute  # noqa: E402
import quizbank  # noqa: E402
from quizbank.grading import TOLERANCE_FIELDS  # noqa: E402
from tutor.sessions.exercises import EXERCISE_TOLERANCE as DEFAULT_TOLERANCE  # noqa: E402

OUTPUT = Path(__file__).with_name("generated.jsonl")
PROBLEMS = (("easy", 1), ("medium", 2), ("hard", 3))  # (difficulty, seed) for every template
CORRECT_PER_ANSWER = 3  # rewrites taken per answer, rotating through the list so all kinds occur
WRONG_PER_ANSWER = 3


# --- the tolerance the product uses ---------------------------------------------------------

def product_tolerances() -> dict[tuple[str, str], dict]:
    """(template, answer) -> tolerance, as the product grades it: a bank `generated` question's
    own tolerance where one asks for that answer (quizbank/grading.py `grade_generated`), else
    the Exercises default for a template's answers (tutor/sessions/exercises.py)."""
    rule: dict[tuple[str, str], dict] = {}
    for question in quizbank.load_bank().by_type("generated"):
        tolerance = {"kind": question.tolerance.kind.value, "value": question.tolerance.value}
        for ask in question.asks:
            rule.setdefault((question.template, ask), tolerance)
    return rule


def numeric_request(expected, answer: str, tolerance: dict, lang: str) -> dict:
    """One asked answer's `grader.check` request, as `quizbank.grading.grade_generated` makes it
    (the field order is the file's, which must stay byte for byte the same)."""
    return {"kind": "numeric", "answer": answer, "expected": expected,
            TOLERANCE_FIELDS[tolerance["kind"]]: tolerance["value"], "lang": lang}


# --- correct and wrong rewrites -------------------------------------------------------------

def scaled(value, factor):
    if isinstance(value, list):
        return [scaled(v, factor) for v in value]
    return Fraction(value) * factor


def correct_rewrites(expected, tol: Tolerance):
    """(how, text, shape, entries, notation) of the exact value written correctly."""
    entries = written(expected, tol)
    return [(how, text, shape_of(expected), entries, notation)
            for how, text, notation in forms_of(entries)]


def wrong_rewrites(expected, tol: Tolerance):
    """(how, text, shape, entries, notation) of the mistakes learners make."""
    out = []

    def add(how, value_entries, shape):
        text, notation = first_form(value_entries)
        out.append((how, text, shape, value_entries, notation))

    shape = shape_of(expected)
    if any(x != 0 for x in flat(expected)):
        add("sign-flipped", written(scaled(expected, -1), tol), shape)
        add("times-10", written(scaled(expected, 10), tol), shape)
        add("divided-by-10", written(scaled(expected, Fraction(1, 10)), tol), shape)
    entries = written(expected, tol)
    if shape and len(flat(expected)) >= 2:
        cells = flat(entries)
        for i in range(len(cells)):
            j = next((j for j in range(i + 1, len(cells)) if cells[j].value != cells[i].value), None)
            if j is not None:
                cells[i], cells[j] = cells[j], cells[i]
                add("entries-swapped", regroup(cells, shape), shape)
                break
    if len(shape) == 1 and shape[0] >= 2:
        add("entry-dropped", entries[:-1], (shape[0] - 1,))
    if len(shape) == 2:
        dropped = entries[:-1]
        add("row-dropped", dropped, (len(dropped), shape[1]) if len(dropped) > 1
            else (shape[1],))
        if expected != [list(col) for col in zip(*expected, strict=True)]:
            add("transposed", [list(col) for col in zip(*entries, strict=True)], shape)
    too_few = too_few_figures(expected, tol)
    if too_few is not None:
        add(f"rounded-{too_few}-sig", written(expected, tol, too_few), shape)
    return out


def regroup(cells, shape):
    if len(shape) < 2:
        return cells
    return [cells[r * shape[1]:(r + 1) * shape[1]] for r in range(shape[0])]


def too_few_figures(expected, tol: Tolerance) -> int | None:
    """The most figures that still put the answer clearly outside the tolerance, if any."""
    most = max(figures_for(tol, x) for x in flat(expected))
    for figures in range(most - 1, 0, -1):
        entries = written(expected, tol, figures)
        if verdict(entries, shape_of(expected), first_form(entries)[1], expected, tol) == "wrong":
            return figures
    return None


def rotated(items: list, start: int, count: int) -> list:
    if not items:
        return []
    start %= len(items)
    return (items[start:] + items[:start])[:count]


# --- the corpus -----------------------------------------------------------------------------

def corpus_lines() -> list[dict]:
    tolerances = product_tolerances()
    lines, seen = [], set()
    turn = 0  # which rewrites this answer gets: a different slice of the list each time
    for template in compute.list_templates():
        for difficulty, seed in PROBLEMS:
            problem = compute.generate(template["name"], seed=seed, difficulty=difficulty)
            for name in template["answers"]:
                expected = problem["answers"].get(name)
                if not all(isinstance(x, int | float) and not isinstance(x, bool)
                           for x in flat(expected)) or len(shape_of(expected)) > 2:
                    continue  # not a number, vector or matrix
                tolerance = tolerances.get((template["name"], name), DEFAULT_TOLERANCE)
                lang = ("en", "zh")[turn % 2]
                probe = numeric_request(expected, "", tolerance, lang)
                tol = Tolerance.of_request(probe)
                chosen = (rotated(correct_rewrites(expected, tol), turn * CORRECT_PER_ANSWER,
                                  CORRECT_PER_ANSWER)
                          + rotated(wrong_rewrites(expected, tol), turn * WRONG_PER_ANSWER,
                                    WRONG_PER_ANSWER))
                turn += 1
                for how, text, shape, entries, notation in chosen:
                    decided = verdict(entries, shape, notation, expected, tol)
                    if decided is None:
                        continue  # too close to the tolerance's edge to call by arithmetic
                    line_id = f"{template['name']}/{difficulty}-{seed}/{name}/{how}"
                    assert line_id not in seen, line_id
                    seen.add(line_id)
                    request = numeric_request(expected, text, tolerance, lang)
                    lines.append({"id": line_id, **request, "verdict": decided, "how": how})
    return lines


def render() -> str:
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in corpus_lines())


def main() -> None:
    text = render()
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"{text.count(chr(10))} answers -> {OUTPUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
