"""Check a derivation line by line: each line must equal the line before it.

`start` (when given) is line 0. Each learner line k (1-based) is compared with the last line
before it that followed (the start, the first line, or a later line that was not refuted): a line
that does not follow, or cannot be read, is never the reference, so one broken step does not mark
every correct line after it. Statuses: verified | does_not_follow | cannot_decide | unreadable.
Score: 1 when every line is verified and the last equals the target; otherwise
(verified lines before the first problem / number of lines), halved when the target is not
reached.

A line that starts with `≈` (or `\approx`, or `name ≈`) is an approximation, as in a rounded
hand computation: it must agree with the line before within a tolerance, at every sample point:
|line - before| <= atol + rtol |before|. The tolerance is the request's `rtol`/`atol` when it
gives them; otherwise it follows from the digits the learner wrote: the line must be the line
before rounded to those digits, so a line that is one number may differ by half a unit in its
last place (`≈ 0.333` and `≈ 0.33` for 1/3, not `≈ 0.34`; `≈ 3` for pi; boundaries included),
and a formula by half a unit in the last place of its least precise decimal number, relative to
that number (`≈ 0.37 g` for g/e allows 1.4 %). A line with no decimal point allows
DEFAULT_APPROX_RTOL. When a derivation has approximate lines, reaching the target is checked with
the largest tolerance used.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import numpy as np

from ..errors import EvalError, GraderError, ParseError
from ..messages import message
from ..reading.latex import to_latex
from ..reading.names import Declarations
from ..reading.nodes import Mul, Neg, Node, Num, Pow, is_constant, symbol_names, walk
from ..reading.parser import parse_with_notes
from ..result import Counterexample, Result, Step, StepStatus
from ..values.counterexample import format_value
from ..values.decide import canonical_shape, sampling_env, uses_matrices
from ..values.domain_note import domain_difference_point, one_sided_point
from ..values.domains import NO_DOMAINS, Domains, shared_restricted
from ..values.evaluate import evaluate
from ..values.indexed import Indexing
from .exact_decimal import undefined_everywhere
from .expression import (
    SHAPE_MISTAKES,
    ExpectedBroken,
    Prepared,
    SymbolicCheck,
    as_sentence,
    counterexample_of,
    full_verdict,
    prepare,
)
from .feedback import (
    caret_text,
    compared,
    counterexample_text,
    domain_note,
    misconfigured,
    reason,
    result,
    shape_text,
)
from .indexing import indexing_of
from .moment_steps import check_moment_step, is_moment_step, moments_equal

MAX_LINES = 40
DEFAULT_APPROX_RTOL = 1e-3


@dataclass(frozen=True, slots=True)
class Approximation:
    """|a - b| <= atol + rtol |b|."""

    rtol: float = 0.0
    atol: float = 0.0

    def loosest(self, other: Approximation | None) -> Approximation:
        if other is None:
            return self
        return Approximation(max(self.rtol, other.rtol), max(self.atol, other.atol))

    def describe(self, lang: str) -> str:
        parts = []
        if self.rtol:
            parts.append(message("tol_relative", lang, value=f"{self.rtol:.2g}"))
        if self.atol:
            parts.append(message("tol_absolute", lang, value=f"{self.atol:.2g}"))
        return ", ".join(parts)


def grade_derivation(lines: list[str], *, start: str | None, target: str | None,
                     decls: Declarations, lang: str = "en",
                     symbolic: SymbolicCheck | None = None,
                     tolerance: Approximation | None = None) -> Result:
    """`tolerance`: for `≈` lines (None: from the digits each line shows)."""
    # The start and the target are the question's, the same for every answer to it: read once
    # and sampled once (kinds/expression.py: `prepare`).
    try:
        start_prepared = prepare(start, decls) if start else None
    except GraderError as err:
        return misconfigured("part_start", err, lang)
    try:
        target_prepared = prepare(target, decls) if target else None
    except GraderError as err:
        return misconfigured("part_expected", err, lang)
    start_node = start_prepared.node if start_prepared else None
    target_node = target_prepared.node if target_prepared else None
    if not lines:
        return result(feedback=message("no_lines", lang), error=message("no_lines", lang))
    try:
        indexing = indexing_of(decls)
    except ParseError as err:
        return misconfigured("part_relations", err, lang)
    # The start's and target's variables are the question's names too (2xy is 2·x·y).
    names = set().union(*(symbol_names(n) for n in (start_node, target_node) if n is not None))
    decls = decls.with_symbols(names)
    if len(lines) > MAX_LINES:  # refused, never cut: a wrong line past the cut would go unseen
        text = message("too_many_lines", lang, count=len(lines), limit=MAX_LINES)
        return result(feedback=text, error=text)
    steps: list[Step] = []
    # the last line that followed (the next one's reference), its sampled values kept with it
    previous: Prepared | None = start_prepared
    previous_line = 0  # its number (0: the start), named in a step's feedback
    last_node: Node | None = None
    rendered: list[str] = [to_latex(start_node)] if start_node is not None else []
    used: Approximation | None = None  # the loosest tolerance an approximate line used
    for number, text in enumerate(lines, start=1):
        step, node, approximation = _check_line(number, str(text), previous, decls, lang,
                                                symbolic, tolerance, indexing,
                                                compared(previous_line, lang))
        steps.append(step)
        last_node = node
        if node is not None:
            rendered.append(step.interpreted)
            if step.status is not StepStatus.DOES_NOT_FOLLOW:
                previous, previous_line = Prepared(node, {}), number
        if approximation is not None and step.status is StepStatus.VERIFIED:
            used = approximation.loosest(used)
    first_wrong = next((s.line for s in steps if s.status is not StepStatus.VERIFIED), None)
    reaches = target_prepared is None or (last_node is not None and
                                          _reaches(last_node, target_prepared, symbolic, used,
                                                   indexing, decls))
    correct = first_wrong is None and reaches
    prefix = (first_wrong - 1) if first_wrong else len(lines)
    score = 1.0 if correct else (prefix / len(lines)) * (1.0 if reaches else 0.5)
    if correct:
        feedback = message("derivation_correct", lang)
    elif first_wrong is not None:
        feedback = steps[first_wrong - 1].feedback
    else:
        feedback = message("last_not_target", lang)
    return result(correct=correct, score=score, feedback=feedback,
                  interpreted=" = ".join(rendered) or None, first_wrong_step=first_wrong,
                  steps=tuple(steps), reaches_target=reaches)


def _reaches(last: Node, target: Prepared, symbolic: SymbolicCheck | None,
             used: Approximation | None, indexing: Indexing, decls: Declarations) -> bool:
    if is_moment_step(last, target.node, decls):
        return moments_equal(last, target.node, decls)
    if _same(last, target, symbolic, indexing) == "equal":
        return True
    return used is not None and \
        approximately(last, target.node, used, domains=indexing.domains).status == "equal"


def _same(a: Node, b: Prepared, symbolic: SymbolicCheck | None, indexing: Indexing) -> str:
    try:
        return full_verdict(a, b, symbolic, indexing, example=False).status
    except (EvalError, ExpectedBroken):
        return "undecided"


def _check_line(number: int, text: str, reference: Prepared | None, decls: Declarations,
                lang: str, symbolic: SymbolicCheck | None, tolerance: Approximation | None,
                indexing: Indexing, before: str = "",
                ) -> tuple[Step, Node | None, Approximation | None]:
    """`reference`: the line this one must follow (its sampled values kept with it)."""
    try:
        node, _, notes = parse_with_notes(text, decls)
    except ParseError as err:
        column, picture = caret_text(text, err)
        why = message("step_unreadable", lang, line=number, reason=reason(err, lang))
        return _step(number, "unreadable", None, f"{why}\n{picture}"), None, None
    interpreted = to_latex(node)
    approximation = (tolerance or shown_precision(node)) if "note_approximate" in notes else None
    if reference is None:  # the first line with no start: nothing to follow from
        return _step(number, "verified", interpreted, ""), node, approximation
    previous = reference.node
    if is_moment_step(node, previous, decls):  # over distributions (kinds/moment_steps.py)
        return check_moment_step(number, node, previous, decls, lang, interpreted, before), \
            node, None
    if approximation is not None:
        step = _check_approximation(number, node, previous, approximation, interpreted, lang,
                                    before, indexing.domains)
        return step, node, approximation
    try:
        verdict = full_verdict(node, reference, symbolic, indexing)
    except EvalError as err:
        if err.key in SHAPE_MISTAKES:  # the line's own shapes do not fit (the line before's
            # would be ExpectedBroken): it cannot follow
            why = message("step_does_not_follow", lang, line=number, before=before)
            text_ = joined_text(why, as_sentence(reason(err, lang), lang), lang)
            return _step(number, "does_not_follow", interpreted, text_), node, None
        text_ = message("step_cannot_decide_because", lang, line=number, reason=reason(err, lang))
        return _step(number, "cannot_decide", interpreted, text_), node, None
    except ExpectedBroken as err:
        inner = err.err
        text_ = message("step_cannot_decide_because", lang, line=number,
                        reason=reason(inner, lang))
        return _step(number, "cannot_decide", interpreted, text_), node, None
    if verdict.status == "equal":  # equal where both are real: the note says where one is not
        note = domain_note(domain_difference_point(node, previous, verdict, lang,
                                                   indexing.integers), lang, before)
        return _step(number, "verified", interpreted, note or ""), node, None
    undefined = undefined_everywhere(node, verdict.env)  # 1/0: no value to follow from
    if undefined is not None:
        why = message("step_unreadable", lang, line=number, reason=reason(undefined, lang))
        return _step(number, "unreadable", interpreted, why), None, None
    if verdict.status == "undecided":
        return _step(number, "cannot_decide", interpreted,
                     message("step_cannot_decide", lang, line=number)), node, None
    why = message("step_does_not_follow", lang, line=number, before=before)
    if verdict.status == "shape" and indexing.vectors:
        why = joined_text(why, shape_mistake(verdict.answer_shape, verdict.expected_shape,
                                             before, lang), lang)
    if verdict.status == "different":
        example = counterexample_of(node, previous, verdict, lang)
        if example is not None:
            why += ("" if lang == "zh" else " ") + counterexample_text(
                example, lang, "counterexample_step", before)
    return _step(number, "does_not_follow", interpreted, why), node, None


def shape_mistake(shape: tuple[int, ...] | None, before_shape: tuple[int, ...] | None,
                  before: str, lang: str) -> str:
    """A row where a column is meant, a transposed matrix (Jacobian), or the two shapes."""
    rows, cols = (shape + (1, 1))[:2] if shape else (1, 1)
    if shape and before_shape and tuple(reversed(shape)) == tuple(before_shape):
        if rows == 1 or cols == 1:
            return message("shape_row_for_column", lang, before=before)
        return message("shape_transposed", lang, rows=rows, cols=cols, before=before)
    return message("shape_other", lang, answer=_vector_shape_text(shape, lang),
                   expected=_vector_shape_text(before_shape, lang), before=before)


def _vector_shape_text(shape: tuple[int, ...] | None, lang: str) -> str:
    if shape and len(shape) == 2 and shape[1] == 1:
        return message("shape_column", lang)
    if shape and len(shape) == 2 and shape[0] == 1:
        return message("shape_row", lang)
    return shape_text(shape, lang, None)


def joined_text(first: str, second: str, lang: str) -> str:
    return first + ("" if lang == "zh" else " ") + second


def _check_approximation(number: int, node: Node, previous: Node, tol: Approximation,
                         interpreted: str, lang: str, before: str = "",
                         domains: Domains = NO_DOMAINS) -> Step:
    try:
        compared_ = approximately(node, previous, tol, lang, domains)
    except EvalError as err:
        text = message("step_cannot_decide_because", lang, line=number,
                       reason=reason(err, lang))
        return _step(number, "cannot_decide", interpreted, text)
    if compared_.status == "equal":  # the note of a domain that differs, as for exact steps
        return _step(number, "verified", interpreted,
                     domain_note(compared_.note, lang, before) or "")
    if compared_.status == "undecided":
        return _step(number, "cannot_decide", interpreted,
                     message("step_cannot_decide", lang, line=number))
    why = message("step_not_approximately", lang, line=number, before=before,
                  tolerance=tol.describe(lang))
    if compared_.values is not None:
        point, here, value_before = compared_.values
        if point:  # with the side that is undefined named, when one is (feedback.py)
            text_ = counterexample_text(Counterexample(point, here, value_before), lang,
                                        "counterexample_step", before)
        else:
            text_ = message("values_step", lang, point=point, answer=here,
                            expected=value_before, before=before)
        why += ("" if lang == "zh" else " ") + text_
    return _step(number, "does_not_follow", interpreted, why)


@dataclass(frozen=True, slots=True)
class Approximate:
    """How a line compares with the one before within a tolerance: "equal", "different" or
    "undecided"; where they differ, (point, this value, the value before); an equal line's
    point where only one of the two is real (values/domain_note.py), for its note."""

    status: str
    values: tuple[str, str, str] | None = None
    note: Counterexample | None = None


def approximately(node: Node, previous: Node, tol: Approximation, lang: str = "en",
                  domains: Domains = NO_DOMAINS) -> Approximate:
    """The two sampled at the same points (inside the declared `domains`), compared within `tol`
    where both are real, and equal when both are real at half the points or more (the one
    real-domain rule, grader/README.md; a point where only one is real is noted); when they
    share fewer, a point where only one of them is real is the difference shown."""
    matrix_mode = uses_matrices(node, previous)
    env = shared_restricted(sampling_env(matrix_mode), domains, ("sampling", matrix_mode, False))
    a, b = evaluate(node, env), evaluate(previous, env)
    if canonical_shape(a, not matrix_mode) != canonical_shape(b, not matrix_mode):
        return Approximate("different")
    k = a.shape[0]
    a, b = a.reshape(k, -1), b.reshape(k, -1)
    with np.errstate(all="ignore"):
        a_ok = (np.isfinite(a) & (np.abs(a.imag) <= 1e-9 * (1 + np.abs(a.real)))).all(axis=1)
        b_ok = (np.isfinite(b) & (np.abs(b.imag) <= 1e-9 * (1 + np.abs(b.real)))).all(axis=1)
        close = (np.abs(a - b) <= tol.atol + tol.rtol * np.abs(b) + 1e-12 * np.abs(b)).all(axis=1)
    valid = a_ok & b_ok
    enough = valid.sum() * 2 >= k
    bad = valid & ~close
    if not bad.any() and not enough and b_ok.any():
        bad = a_ok != b_ok  # real on different sets that share too little to compare
    if bad.any():
        j = int(np.argmax(bad))
        if a.shape[1] != 1:  # vectors and matrices: the step's feedback says no more
            return Approximate("different")
        undefined = message("value_undefined", lang)
        here = format_value(a[j, 0]) if a_ok[j] else undefined
        there = format_value(b[j, 0]) if b_ok[j] else undefined
        return Approximate("different", (_point(node, previous, env, j), here, there))
    if not enough:
        return Approximate("undecided")
    one_sided = a_ok != b_ok
    note = one_sided_point(node, previous, env, one_sided, lang, domains.integers) \
        if a.shape[1] == 1 and one_sided.any() else None
    return Approximate("equal", note=note)


def _point(node: Node, previous: Node, env, j: int) -> str:
    names = sorted(symbol_names(node) | symbol_names(previous))
    return ", ".join(f"{n} = {format_value(env.symbol(n)[j])}" for n in names)


def shown_precision(node: Node) -> Approximation:
    """The tolerance a line's own digits claim (see the module docstring)."""
    single = _single_number(node)
    if single is not None:
        return Approximation(atol=_unit(single) / 2)
    rtol = 0.0
    for n in walk(node):
        if type(n) is Num and "." in n.text and n.value:
            rtol = max(rtol, _unit(n.text) / 2 / abs(n.value))
    return Approximation(rtol=rtol or DEFAULT_APPROX_RTOL)


def _single_number(node: Node) -> str | None:
    """The literal of a line that is one number: 0.333, -0.37, 9.54e-7, 9.54×10^-7 (as 9.54e-7)."""
    if type(node) is Neg:
        node = node.arg
    if type(node) is Num:
        return node.text
    if type(node) is Mul and len(node.factors) == 2 and type(node.factors[0]) is Num:
        power = node.factors[1]
        if type(power) is Pow and power.base == Num(10.0, "10") and is_constant(power.exp):
            exponent = power.exp
            sign = -1 if type(exponent) is Neg else 1
            exponent = exponent.arg if type(exponent) is Neg else exponent
            if type(exponent) is Num and exponent.value.is_integer():
                return f"{node.factors[0].text}e{sign * int(exponent.value)}"
    return None


def _unit(literal: str) -> float:
    """One unit in the last place of a decimal literal: 0.333 -> 0.001, 9.54e-7 -> 1e-9, 3 -> 1."""
    exponent = Decimal(literal).as_tuple().exponent
    return float(Decimal(1).scaleb(exponent)) if isinstance(exponent, int) else 0.0


def _step(number: int, status: str, interpreted: str | None, feedback: str) -> Step:
    return Step(number, StepStatus(status), interpreted, feedback)
