"""Generated questions, for 2,000 seeds each: the prompt states the precision it grades, the worked
solution shows every key at least that precisely, and typing the worked solution's numbers is
graded correct through the bank's grading path. Keys that are exactly 0 are shown, and typed,
as `0` (compute/zeros.py), so a learner's `0` is accepted wherever the key is zero.

Regression: typing the worked solution's own 4-significant-figure numbers failed in 24 % of the
LayerNorm-Jacobian variants and 8.6 % of the gradient-multiplier ones, and a learner's `0` was
refused where a key came out as 1e-17.
"""

from __future__ import annotations

import math
import re

import pytest

import compute
import quizbank
from compute.texfmt import count, key_num, num

SEEDS = range(2000)
BANK = quizbank.load_bank()  # every file under quizbank/bank/
GENERATED = list(BANK.by_type("generated"))


def grade(question, answer, problem: dict):
    """The bank's grading entry point, against the variant the learner saw."""
    from quizbank.grading import grade as grade_question
    from quizbank.variants import Variant

    return grade_question(question, answer, lang="en", variant=Variant.from_problem(problem))


def _value(enum) -> str:
    return getattr(enum, "value", enum)


def precision_phrases(tolerance) -> dict[str, str]:
    """What the prompt must say for this tolerance, per language.

    sigfigs N: "N significant figures"; relative r >= 1e-6: the fewest significant figures whose
    rounding stays within r (5 * 10^-N <= r; 4 for 1e-3); tighter or absolute: "exact"."""
    kind, value = _value(tolerance.kind), tolerance.value
    if kind == "sigfigs":
        figures = int(value)
    elif kind == "relative" and value >= 1e-6:
        figures = math.ceil(math.log10(5 / value))
    else:
        return {"zh": "精确", "en": "exact"}
    return {"zh": f"{figures} 位有效数字", "en": f"{figures} significant figures"}


@pytest.mark.parametrize("question", GENERATED, ids=lambda q: q.id)
def test_prompt_states_the_precision(question):
    phrases = precision_phrases(question.tolerance)
    for lang, phrase in phrases.items():
        assert phrase in question.prompt.get(lang), (lang, phrase)


def latex_to_typed(shown: str) -> str:
    """A number as the worked solution shows it -> as a learner types it."""
    mantissa = re.fullmatch(r"(-?[\d.]+) \\times 10\^\{(-?\d+)\}", shown)
    if mantissa:
        return f"{mantissa.group(1)}e{mantissa.group(2)}"
    return shown.replace(r"\,", "")


def shown_entry(value: float, solution: str) -> str | None:
    """The form in which `solution` shows `value` (LaTeX), or None. Tried in order: a key's form
    (compute.texfmt.key_num), 4 significant figures with zeros kept, the exact digits, a
    thousands-separated count."""
    forms = [key_num(value), num(value, fixed=True), num(value, 12), num(value)]
    if float(value).is_integer():
        forms.append(count(int(value)))
    for form in forms:
        if re.search(r"(?<![\d.])" + re.escape(form) + r"(?![\d])", solution):
            return form
    return None


def typed_from_solution(value, solution: str):
    """(typed text, zero entries) for a key, every entry as the solution shows it; None when the
    solution does not show an entry."""
    if isinstance(value, list):
        parts = [typed_from_solution(v, solution) for v in value]
        if any(p is None for p in parts):
            return None
        return "[" + ", ".join(p[0] for p in parts) + "]", sum(p[1] for p in parts)
    form = shown_entry(value, solution)
    if form is None:
        return None
    return latex_to_typed(form), int(value == 0)


def _precision_ok(question, typed: str, key) -> bool:
    """The shown number carries at least the precision the prompt asks for."""
    kind, tol = _value(question.tolerance.kind), question.tolerance.value
    entries = re.findall(r"-?[\d.]+(?:e-?\d+)?", typed)
    keys = list(_flat(key))
    for text, exact in zip(entries, keys, strict=True):
        if float(text) == 0 == exact:
            continue
        if kind == "sigfigs" and _sigfigs(text) < int(tol) and float(text) != exact:
            return False
        if kind == "relative" and abs(float(text) - exact) > tol * abs(exact):
            return False
        if kind == "absolute" and abs(float(text) - exact) > tol:
            return False
    return True


def _flat(value):
    if isinstance(value, list):
        for v in value:
            yield from _flat(v)
    else:
        yield value


def _sigfigs(text: str) -> int:
    digits = text.lower().split("e")[0].lstrip("-").replace(".", "").lstrip("0")
    return len(digits)


@pytest.mark.parametrize("question", GENERATED, ids=lambda q: q.id)
def test_typing_the_worked_solution_is_correct(question, monkeypatch):
    # The grader builds the same problem again from (template, seed, difficulty): share it.
    built: dict = {}
    real_generate = compute.generate

    def generate_once(template, *, seed, difficulty="medium"):
        key = (template, seed, difficulty)
        if key not in built:
            built[key] = real_generate(template, seed=seed, difficulty=difficulty)
        return built[key]

    monkeypatch.setattr(compute, "generate", generate_once)
    difficulty = _value(question.difficulty)
    failures, zeros = [], 0
    for seed in SEEDS:
        problem = generate_once(question.template, seed=seed, difficulty=difficulty)
        answer = {}
        for ask in question.asks:
            key = problem["answers"][ask]
            shown = {lang: typed_from_solution(key, problem["solution"][lang]) for lang in ("en", "zh")}
            if shown["en"] is None or shown["zh"] is None:
                failures.append(f"seed {seed}: {ask}={key!r} is not shown in the worked solution")
                continue
            typed, zero_entries = shown["en"]
            zeros += zero_entries
            if not _precision_ok(question, typed, key):
                failures.append(f"seed {seed}: {ask} shown as {typed}, less precise than asked "
                                f"(key {key!r})")
            answer[ask] = typed
        if len(answer) < len(question.asks):
            continue
        result = grade(question, answer, problem)
        if not result.correct:
            wrong = {part.name: (answer[part.name], problem["answers"][part.name])
                     for part in result.parts if not part.result.correct}
            failures.append(f"seed {seed}: typed/key {wrong}: {result.feedback}")
        built.clear()  # one seed at a time: memory stays flat
    print(f"{question.id}: {len(SEEDS)} seeds, {zeros} zero entries typed as 0, "
          f"{len(failures)} failures")
    assert not failures, f"{len(failures)} of {len(SEEDS)} seeds fail:\n" + "\n".join(failures[:15])
