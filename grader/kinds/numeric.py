"""Grade a number, vector or matrix against the question's tolerance.

Tolerance rules (NaN and infinities never match):
- relative: |a - e| <= rtol |e|          - absolute: |a - e| <= atol
- both given: |a - e| <= max(atol, rtol |e|)   - none given: relative 1e-6
- sigfigs N: a and e, each rounded to N significant figures, are equal; and when an entry is
  typed as a decimal literal (2.05, 9.54e-7, 9.54×10^-7) it must show at least N significant
  figures (a learner's 2.1 for "3 significant figures" is wrong even if 2.10 would be right).
  Trailing zeros of a whole number (100) count as significant; computed entries (1/3) are
  only rounded.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import GraderError, ParseError
from ..messages import LIST_SEPARATOR, message
from ..reading.constant import constant_value
from ..reading.latex import to_latex
from ..reading.nodes import Matrix, Mul, Neg, Node, Num, Pow, is_constant, symbol_names
from ..reading.normalize import normalize
from ..reading.parser import NO_DECLARATIONS, parse
from ..reading.plain_numbers import decimal_comma
from ..result import Result
from ..values.decide import canonical, canonical_shape
from ..values.evaluate import Env, evaluate
from .feedback import cannot_grade, result, shape_text, unreadable

DEFAULT_RTOL = 1e-6
_ENV = Env(k=1, n=1, seed=0)


@dataclass(frozen=True, slots=True)
class Tolerance:
    rtol: float | None = None
    atol: float | None = None
    sigfigs: int | None = None

    @classmethod
    def of(cls, rtol=None, atol=None, sigfigs=None) -> Tolerance:
        return cls(None if rtol is None else float(rtol), None if atol is None else float(atol),
                   None if sigfigs is None else int(sigfigs))

    def describe(self, lang: str) -> str:
        if self.sigfigs is not None:
            return message("tol_sigfigs", lang, value=self.sigfigs)
        parts = []
        if self.rtol is not None or self.atol is None:
            parts.append(message("tol_relative", lang, value=f"{self.rtol or DEFAULT_RTOL:g}"))
        if self.atol is not None:
            parts.append(message("tol_absolute", lang, value=f"{self.atol:g}"))
        return ", ".join(parts)

    def matches(self, a: float, e: float) -> bool:
        if not (math.isfinite(a) and math.isfinite(e)):
            return False
        if self.sigfigs is not None:
            return round_sig(a, self.sigfigs) == round_sig(e, self.sigfigs)
        rtol = self.rtol if self.rtol is not None else (0.0 if self.atol is not None
                                                        else DEFAULT_RTOL)
        return abs(a - e) <= max(self.atol or 0.0, rtol * abs(e))


def round_sig(x: float, n: int) -> float:
    if not math.isfinite(x):
        return math.nan
    return float(f"{x:.{max(n, 1) - 1}e}")


def typed_sigfigs(node: Node) -> int | None:
    """Significant figures shown by a typed literal (9.54, 9.54e-7, 9.54×10^-7), else None.
    An exact zero has no significant figures to show: 0, 0.0 and 0.000 all say the same."""
    match node:
        case Neg(a):
            return typed_sigfigs(a)
        case Num(value, text) | Mul((Num(value, text), Pow(Num(10.0, _), _))) if value != 0:
            return literal_sigfigs(text)
    return None


def literal_sigfigs(text: str) -> int:
    mantissa = text.lower().split("e")[0]
    if "." in mantissa:
        digits = mantissa.replace(".", "").lstrip("0")
        return max(len(digits), 1)
    return max(len(mantissa.lstrip("0")), 1)


def expected_values(expected: object) -> tuple[tuple[int, ...], list[float]]:
    """(canonical shape, entries row by row) of the question's number, vector or matrix."""
    if type(expected) in (float, int):  # the common case, without a round trip through numpy
        return (), [float(expected)]
    array = np.asarray(expected, dtype=float)
    if array.ndim > 2 or array.size == 0:
        raise ValueError("expected must be a number, a list or a list of lists")
    shape = (array.size,) if array.ndim == 2 and 1 in array.shape else tuple(array.shape)
    return shape, array.reshape(-1).tolist()


def grade_numeric(answer: str, expected: object, tol: Tolerance, lang: str) -> Result:
    e_shape, e_flat = expected_values(expected)
    if not e_shape:  # one number wanted: 9,54 is asked about, not read as the vector (9, 54)
        comma = decimal_comma(normalize(answer).text) if "," in answer or "，" in answer else None
        if comma is not None:
            return unreadable(answer, comma, lang)
    try:
        node, _ = parse(answer, NO_DECLARATIONS, space_vectors=True)
    except ParseError as err:
        return unreadable(answer, err, lang)
    interpreted = to_latex(node)
    if not is_constant(node):
        names = ", ".join(sorted(symbol_names(node))) or "?"
        return cannot_grade(GraderError("needs_number", names=names), lang, interpreted)
    try:
        a_shape, a_flat = answer_values(node)
    except GraderError as err:
        return cannot_grade(err, lang, interpreted)
    # A single number matches a one-entry vector or matrix: `[0.5]` and `0.5` say the same thing.
    if a_shape != e_shape and not len(a_flat) == len(e_flat) == 1:
        if transposed(a_flat, e_shape, e_flat, a_shape, tol):
            return result(feedback=message("looks_transposed", lang), interpreted=interpreted)
        text = message("shape_mismatch", lang, answer=shape_text(a_shape, lang, None),
                       expected=shape_text(e_shape, lang, None))
        return result(feedback=text, interpreted=interpreted)
    if tol.sigfigs is not None:
        entries = [x for row in node.rows for x in row] if isinstance(node, Matrix) else [node]
        shown = [typed_sigfigs(x) for x in entries]
        short = [s for s in shown if s is not None and s < tol.sigfigs]
        if short:
            text = message("too_few_digits", lang, n=tol.sigfigs, given=min(short))
            return result(feedback=text, interpreted=interpreted)
    ok = [tol.matches(a, x) for a, x in zip(a_flat, e_flat, strict=True)]
    if all(ok):
        return result(correct=True, score=1.0, feedback=message("correct", lang),
                      interpreted=interpreted)
    if len(e_shape) == 2 and transposed(a_flat, e_shape, e_flat, a_shape, tol):
        text = message("looks_transposed", lang)
    elif len(ok) == 1:
        text = message("number_wrong", lang, tolerance=tol.describe(lang))
    elif len(e_shape) == 2:
        cols = e_shape[1]
        wrong = LIST_SEPARATOR.get(lang, LIST_SEPARATOR["en"]).join(
            message("matrix_entry", lang, row=i // cols + 1, col=i % cols + 1)
            for i, good in enumerate(ok) if not good)
        text = message("entries_wrong_matrix", lang, tolerance=tol.describe(lang), entries=wrong)
    else:
        wrong = ", ".join(str(i + 1) for i, good in enumerate(ok) if not good)
        text = message("entries_wrong", lang, tolerance=tol.describe(lang), entries=wrong)
    return result(score=sum(ok) / len(ok) if len(ok) > 1 else 0.0, feedback=text,
                  interpreted=interpreted)


def transposed(a_flat: list[float], e_shape: tuple[int, ...], e_flat: list[float],
               a_shape: tuple[int, ...], tol: Tolerance) -> bool:
    """The answer is the expected matrix with rows and columns swapped (and not the matrix
    itself: a symmetric key is not "transposed")."""
    if len(e_shape) != 2 or a_shape != (e_shape[1], e_shape[0]):
        return False
    rows, cols = e_shape
    swapped = [e_flat[r * cols + c] for c in range(cols) for r in range(rows)]
    if swapped == e_flat:
        return False
    return all(tol.matches(a, x) for a, x in zip(a_flat, swapped, strict=True))


def answer_values(node: Node) -> tuple[tuple[int, ...], list[float]]:
    """(canonical shape, real entries row by row) of a constant answer.

    Plain arithmetic is evaluated with Python floats; anything that is not real there (a root
    of a negative number, 0/0, overflow) goes through the complex numpy evaluator, which
    decides between "not a real number" and a non-finite value (which never matches).
    """
    entries = [x for row in node.rows for x in row] if isinstance(node, Matrix) else [node]
    values = [constant_value(x) for x in entries]
    if None not in values:
        if not isinstance(node, Matrix):
            return (), values
        return canonical((len(node.rows), len(node.rows[0]))), values
    value = evaluate(node, _ENV)[0]  # raises EvalError for shapes that do not fit
    if np.any(np.abs(value.imag) > 1e-12 * np.maximum(1.0, np.abs(value.real))):
        raise GraderError("not_real")
    return canonical_shape(value[None]), np.real(value).reshape(-1).tolist()
