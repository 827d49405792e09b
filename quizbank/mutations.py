"""Mutation tests of answer keys: wrong answers derived mechanically from a question's key must be
rejected by the grader. A mutant the grader accepts means the key, its tolerance or its symbol
declarations are too loose, and is reported like a failing test.

| question | mutants |
| --- | --- |
| expression | `grader.mutants` of the key: drop a term, flip a sign, swap the factors of a matrix product, drop or add a transpose, `I + W` -> `W`, an exponent +-1 |
| derivation | the same mutants of the target, written as the last line of the model derivation |
| numeric | the key moved by 10x its tolerance (all entries up; the first entry down), its sign flipped, a matrix transposed |
| generated | for a few seeds, one asked answer moved by 10x the tolerance or its sign flipped |

And for mal-rules (expression, numeric): none may be accepted as correct (it would be the key),
and each must be reachable: its own answer gets its own feedback (not an earlier rule's).

A surviving mutant can be justified in the question's YAML (`accepted_mutants: [{answer, why}]`,
e.g. a transpose dropped from a symmetric matrix): it is then reported as `justified`, not failed.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .author_tests import GradeQuestion
from .bank import Bank
from .question_types import (
    DerivationQuestion,
    ExpressionQuestion,
    GeneratedQuestion,
    NumericQuestion,
    Question,
)

GENERATED_SEEDS = (1, 2, 3)
PERTURBATION = 10.0  # a mutant number is this many tolerances away from the key

# Statuses of one mutant; only the first two are fine.
KILLED, JUSTIFIED = "killed", "justified"
SURVIVED, MALRULE_IS_KEY, MALRULE_UNREACHABLE, KEY_REJECTED, ERROR = (
    "survived", "malrule_is_key", "malrule_unreachable", "key_rejected", "error")
PASSING = (KILLED, JUSTIFIED)


@dataclass(frozen=True)
class Mutant:
    kind: str  # what was changed, e.g. "drop_transpose", "tolerance_x10"
    answer: Any  # what is graded: text, a list of lines, or {ask: text} (generated)
    shown: str  # the mutant as the report prints it (and as `accepted_mutants` names it)
    seed: int | None = None  # generated questions: the variant's seed


@dataclass(frozen=True)
class MutationOutcome:
    question_id: str
    kind: str
    mutant: str
    status: str
    detail: str = ""
    where: Callable[[], str] = field(default=lambda: "", compare=False, repr=False)

    @property
    def passed(self) -> bool:
        return self.status in PASSING

    def __str__(self) -> str:
        return f"{self.where()}: {self.question_id}: mutant [{self.kind}] {self.mutant}: " \
               f"{self.status}{f' ({self.detail})' if self.detail else ''}"


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


# --- numbers -----------------------------------------------------------------------------------

def tolerance_step(key: float, tolerance) -> float:
    """One tolerance at `key`: relative r -> r|key| (r at 0), absolute a -> a, N significant
    figures -> one unit in the N-th figure."""
    kind, value = tolerance.kind.value, float(tolerance.value)
    if kind == "relative":
        return value * (abs(key) or 1.0)
    if kind == "absolute":
        return value
    exponent = math.floor(math.log10(abs(key))) if key else 0
    return 10.0 ** (exponent - int(value) + 1)


def _map(value, f):
    return [_map(v, f) for v in value] if isinstance(value, list) else f(value)


def _first_entry(value, f):
    if isinstance(value, list) and value:
        return [_first_entry(value[0], f), *value[1:]]
    return f(value)


def _plain(value) -> str:
    # Full precision (repr): a mutant 10 tolerances away must not be rounded back onto the key.
    return json.dumps(_map(value, float))


def number_mutants(key, tolerance) -> list[tuple[str, Any]]:
    """(kind, mutated key) pairs for a number, vector or matrix key."""
    found = [
        ("tolerance_x10_up", _map(key, lambda x: x + PERTURBATION * tolerance_step(x, tolerance))),
        ("tolerance_x10_down_first",
         _first_entry(key, lambda x: x - PERTURBATION * tolerance_step(x, tolerance))),
    ]
    if any(x != 0 for x in _flat(key)):
        found.append(("flip_sign", _map(key, lambda x: -x)))
    if isinstance(key, list) and key and isinstance(key[0], list):
        transposed = [list(row) for row in zip(*key, strict=True)]
        if transposed != key:
            found.append(("transpose", transposed))
    return found


def _flat(value) -> list[float]:
    return [x for v in value for x in _flat(v)] if isinstance(value, list) else [value]


# --- mutants per question type -----------------------------------------------------------------

def formula_mutants(text: str, question) -> list[tuple[str, str]]:
    """`grader.mutants` of a formula, with the question's declarations."""
    from grader import mutants  # the grader parses and prints the tree; imported lazily

    schema = {k: v for k, v in question.declared_fields().items()
              if k not in ("symbols", "functions", "matrices")}  # families, random, …
    return list(mutants(text, symbols=question.symbols, functions=question.functions,
                        matrices=question.matrices, **schema))


def mutants_of(question: Question) -> Iterator[Mutant]:
    if isinstance(question, ExpressionQuestion):
        for kind, text in formula_mutants(question.answer, question):
            yield Mutant(kind, text, text)
    elif isinstance(question, DerivationQuestion):
        for kind, text in formula_mutants(question.target, question):
            yield Mutant(kind, [*question.steps[:-1], text], text)
    elif isinstance(question, NumericQuestion):
        for kind, value in number_mutants(question.answer, question.tolerance):
            yield Mutant(kind, _plain(value), _plain(value))
    elif isinstance(question, GeneratedQuestion):
        from .variants import variant_for  # torch, lazily

        for seed in GENERATED_SEEDS:
            variant = variant_for(question, seed)
            keys = {ask: _plain(variant.answers[ask]) for ask in question.asks}
            for ask in question.asks:
                for kind, value in number_mutants(variant.answers[ask], question.tolerance):
                    if kind == "transpose":
                        continue  # shapes are the template's business, not the tolerance's
                    shown = f"seed {seed}: {ask} = {_plain(value)}"
                    yield Mutant(kind, {**keys, ask: _plain(value)}, shown, seed)


def _key_answer(question: Question):
    if isinstance(question, ExpressionQuestion):
        return question.answer
    if isinstance(question, DerivationQuestion):
        return list(question.steps)
    if isinstance(question, NumericQuestion):
        return _plain(question.answer)
    return None


# --- running -----------------------------------------------------------------------------------

def _grade(grade: GradeQuestion, question: Question, answer, lang: str, seed: int | None):
    variant = None
    if isinstance(question, GeneratedQuestion):
        from .variants import variant_for

        variant = variant_for(question, seed)
    return grade(question, answer, lang=lang, variant=variant)


def run_question_mutations(question: Question, grade: GradeQuestion, *, lang: str = "en",
                           where: Callable[[], str] = lambda: "") -> list[MutationOutcome]:
    """Every mutant of one question (and its mal-rule checks), graded."""
    outcomes: list[MutationOutcome] = []
    accepted = {squash(m.answer): m.why for m in getattr(question, "accepted_mutants", [])}

    def outcome(kind, shown, status, detail=""):
        outcomes.append(MutationOutcome(question.id, kind, shown, status, detail, where))

    key = _key_answer(question)
    if key is not None:
        result = _grade(grade, question, key, lang, None)
        if not result.correct:
            outcome("key", str(key), KEY_REJECTED, str(result.error or result.feedback or ""))
            return outcomes
    try:
        mutants = list(mutants_of(question))
    except Exception as error:  # noqa: BLE001 - a broken key is reported, not raised
        outcome("mutate", str(key), ERROR, f"{type(error).__name__}: {error}")
        return outcomes
    for mutant in mutants:
        try:
            result = _grade(grade, question, mutant.answer, lang, mutant.seed)
        except Exception as error:  # noqa: BLE001 - reported like a failed test
            outcome(mutant.kind, mutant.shown, ERROR, f"{type(error).__name__}: {error}")
            continue
        if result.correct:
            why = accepted.get(squash(mutant.shown))
            outcome(mutant.kind, mutant.shown, JUSTIFIED if why else SURVIVED,
                    why or "the grader accepts it: the key, tolerance or declarations are too "
                           "loose")
        else:
            outcome(mutant.kind, mutant.shown, KILLED)
    outcomes += _malrule_outcomes(question, grade, lang, where)
    return outcomes


def _malrule_outcomes(question, grade, lang, where) -> list[MutationOutcome]:
    found = []
    for k, rule in enumerate(getattr(question, "malrules", []), start=1):
        result = grade(question, rule.answer, lang=lang, variant=None)
        expected = rule.feedback.get(lang)
        if result.correct:
            status, detail = MALRULE_IS_KEY, "the grader accepts this mal-rule as the key"
        elif result.malrule != expected:
            status = MALRULE_UNREACHABLE
            detail = ("it gets another mal-rule's feedback" if result.malrule else
                      str(result.error or "it gets no mal-rule feedback"))
        else:
            status, detail = KILLED, ""
        found.append(MutationOutcome(question.id, f"malrule #{k}", rule.answer, status, detail,
                                     where))
    return found


MUTATION_TYPES = (ExpressionQuestion, DerivationQuestion, NumericQuestion, GeneratedQuestion)


def run_mutation_tests(bank: Bank, grade: GradeQuestion, *, lang: str = "en",
                       only: Callable[[Question], bool] = lambda q: True) -> list[MutationOutcome]:
    outcomes = []
    for question in bank:
        if not isinstance(question, MUTATION_TYPES) or not only(question):
            continue
        location = bank.location(question.id)
        outcomes += run_question_mutations(question, grade, lang=lang,
                                           where=lambda location=location: str(location))
    return outcomes


def survivors_report(outcomes: list[MutationOutcome]) -> str:
    """A Markdown report of every mutant that did not simply die (survived, justified, errors)."""
    lines = ["# Mutation tests of the answer keys", "",
             "Generated by `quizbank test --mutations --report FILE`. A surviving mutant is a "
             "wrong answer derived from the key that the grader accepts.", ""]
    counts: dict[str, int] = {}
    for o in outcomes:
        counts[o.status] = counts.get(o.status, 0) + 1
    lines.append(", ".join(f"{n} {status}" for status, n in sorted(counts.items())) or "none")
    lines += ["", "| question | where | mutant | kind | status | why |", "| --- | --- | --- | --- "
              "| --- | --- |"]
    for o in outcomes:
        if o.status != KILLED:
            cells = [o.question_id, o.where(), f"`{o.mutant}`", o.kind, o.status, o.detail]
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"
