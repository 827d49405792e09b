"""Grade a number, vector or matrix against the question's tolerance, as people round numbers.

Numbers are compared as the decimals people write, not as binary floats (grader/README.md,
"Numbers the way people and textbooks round them"): a typed entry is the decimal typed (`2.675`
is 2.675, not the float just below it), a computed one (`1/3`, `sqrt(2)`) its value to 60
digits (exact_decimal.py), and the key is the shortest decimal that reads back as its float
(the `2.675` a bank file or a JSON request writes).

- relative rtol: |a - k| <= rtol·|k|; absolute atol: |a - k| <= atol; both: the larger bound;
  neither: relative 1e-6. The bounds are inclusive (key 2, rtol 0.1: 1.8 and 2.2 are right).
- significant figures N: an entry typed as a decimal must show at least N figures (`9.5e-7` is
  too short for 3; an exact 0 has none to show; the key itself typed exactly, `1` for a key of
  exactly 1, is never too short), and then it is right when it rounds to the
  same N figures as the key, R_N(a) = R_N(k), or when it is the key correctly rounded to more
  figures, a = R_M(k) for some N < M <= the figures it shows. R rounds in one step, ties away
  from zero (2.675 -> 2.68, 2.5 -> 3, -2.5 -> -3): the key is never rounded twice, and neither
  is a more precise answer (1.045 for a key 1.0449 is right at 3 figures: it is the key to 4
  figures, although 1.045 rounded again would be 1.05).
- a key entry that is 0, or within 1e-12 of 0 at the scale of the key's largest entry (1e-17
  beside entries of order 1: float noise), is matched by an answer of exactly 0 under every kind.
- an entry without a value (1/0, 0^-1, log 0) makes the answer unreadable ("1/0 is undefined");
  an infinite one (`inf`, `∞`) is read and never matches a key (keys are finite).

Floats decide first where they cannot be wrong (far from a bound); the decimals decide the rest.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

import numpy as np

from ..errors import GraderError, ParseError
from ..messages import LIST_SEPARATOR, message
from ..reading.constant import constant_value
from ..reading.latex import to_latex
from ..reading.nodes import Matrix, Mul, Neg, Node, Num, Pow, is_constant, symbol_names
from ..reading.normalize import normalize
from ..reading.parser import NO_DECLARATIONS, parse_with_notes
from ..reading.plain_numbers import decimal_comma
from ..reading.typos import plus_minus_for_one_value, spaced_numbers_for_one_value
from ..result import Result
from ..values.decide import canonical, canonical_shape
from ..values.evaluate import Env, evaluate
from .exact_decimal import CONTEXT, NotExact, decimal_of_float, exact_value, undefined_part
from .feedback import cannot_grade, result, shape_text, unreadable

DEFAULT_RTOL = 1e-6
ZERO_AT_SCALE = 1e-12  # a key entry this small beside the key's largest entry is a zero
FLOAT_MARGIN = 1e-12  # relative: closer than this to a bound, the decimals decide
_ENV = Env(k=1, n=1, seed=0)
TEN = Num(10.0, "10")  # the base of a typed power of ten (9.54×10^-7)


def answer_decimal(value: float, node: Node | None) -> Decimal:
    """The decimal value of an answer entry: of the tree it was typed as, when there is one
    (`2.675`, `1/3`), else of its float (an entry of a matrix product)."""
    if node is not None:
        typed = literal_decimal(node)
        if typed is not None:
            return typed
        try:
            return exact_value(node)
        except (GraderError, NotExact):
            pass
    return decimal_of_float(value)


def literal_decimal(node: Node) -> Decimal | None:
    """The decimal a typed number shows (-9.54, 9.54e-7, -9.54×10^-7), read off its text; None
    for anything computed."""
    if type(node) is Neg:
        value = literal_decimal(node.arg)
        return None if value is None else -value
    if type(node) is Num:
        return Decimal(node.text) if node.text != "inf" else None
    if not is_literal(node):
        return None
    mantissa, power = node.factors
    exponent = power.exp.arg.text if type(power.exp) is Neg else power.exp.text
    if not exponent.isdigit():
        return None  # 10^2.5: not a decimal literal
    shift = -int(exponent) if type(power.exp) is Neg else int(exponent)
    return literal_decimal(mantissa).scaleb(shift)


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

    def matches(self, a: float, key: float, node: Node | None = None, shown: int | None = None,
                zero_key: bool = False) -> bool:
        """Does the answer entry `a` (typed as `node`, showing `shown` figures) match `key`?
        `zero_key`: the key entry counts as 0 (it is 0, or float noise beside the others)."""
        if zero_key and a == 0 and answer_decimal(a, node) == 0:
            return True
        if not (math.isfinite(a) and math.isfinite(key)):
            return False
        if self.sigfigs is not None:
            return sigfigs_match(answer_decimal(a, node), decimal_of_float(key), self.sigfigs,
                                 shown)
        rtol = self.rtol if self.rtol is not None else (0.0 if self.atol is not None
                                                        else DEFAULT_RTOL)
        atol = self.atol or 0.0
        bound = rtol * abs(key)
        if atol > bound:
            bound = atol
        excess = abs(a - key) - bound
        margin = FLOAT_MARGIN * (abs(a) + abs(key) + bound)
        if excess < -margin:
            return True
        if excess > margin:
            return False
        # Within rounding distance of the bound: decide in decimals (6.0006 for 6 at 1e-4).
        k = decimal_of_float(key)
        difference = CONTEXT.abs(CONTEXT.subtract(answer_decimal(a, node), k))
        return difference <= max(decimal_of_float(atol),
                                 CONTEXT.multiply(decimal_of_float(rtol), CONTEXT.abs(k)))


def round_half_up(x: Decimal, figures: int) -> Decimal:
    """`x` rounded to `figures` significant figures in one step, ties away from zero."""
    if x == 0 or not x.is_finite():
        return x
    unit = Decimal(1).scaleb(x.adjusted() - figures + 1)
    return x.quantize(unit, rounding=ROUND_HALF_UP, context=CONTEXT)


def sigfigs_match(answer: Decimal, key: Decimal, figures: int, shown: int | None) -> bool:
    """Right to `figures` significant figures: it rounds to the key's rounding, or it is the key
    correctly rounded to M figures, figures < M <= `shown` (what a typed answer shows)."""
    if round_half_up(answer, figures) == round_half_up(key, figures):
        return True
    return shown is not None and any(answer == round_half_up(key, more)
                                     for more in range(figures + 1, shown + 1))


def typed_sigfigs(node: Node) -> int | None:
    """Significant figures shown by a typed literal (9.54, 9.54e-7, -9.54×10^-7), else None.
    An exact zero has no significant figures to show: 0, 0.0 and 0.000 all say the same."""
    if type(node) is Neg:
        return typed_sigfigs(node.arg)
    if type(node) is Mul and is_literal(node):
        return typed_sigfigs(node.factors[0])
    if type(node) is Num and node.value != 0 and math.isfinite(node.value):
        return literal_sigfigs(node.text)
    return None


def literal_sigfigs(text: str) -> int:
    mantissa = text.lower().split("e")[0]
    if "." in mantissa:
        digits = mantissa.replace(".", "").lstrip("0")
        return max(len(digits), 1)
    return max(len(mantissa.lstrip("0")), 1)


def is_literal(node: Node) -> bool:
    """A number typed as such (-9.54, 9.54e-7, -9.54×10^-7): nothing in it can be undefined."""
    if type(node) is Neg:
        node = node.arg
    if type(node) is Num:
        return True
    if type(node) is not Mul or len(node.factors) != 2:
        return False
    mantissa, power = node.factors
    if type(mantissa) is Neg:
        mantissa = mantissa.arg
    if type(mantissa) is not Num or type(power) is not Pow or power.base != TEN:
        return False
    exponent = power.exp.arg if type(power.exp) is Neg else power.exp
    return type(exponent) is Num


def expected_values(expected: object) -> tuple[tuple[int, ...], list[float]]:
    """(canonical shape, entries row by row) of the question's number, vector or matrix."""
    if type(expected) in (float, int):  # the common case, without a round trip through numpy
        return (), [float(expected)]
    if type(expected) is list and expected and all(type(x) is float for x in expected):
        return (len(expected),), list(expected)  # a vector of floats: as numpy would read it
    array = np.asarray(expected, dtype=float)
    if array.ndim > 2 or array.size == 0:
        raise ValueError("expected must be a number, a list or a list of lists")
    shape = (array.size,) if array.ndim == 2 and 1 in array.shape else tuple(array.shape)
    return shape, array.reshape(-1).tolist()


def grade_numeric(answer: str, expected: object, tol: Tolerance, lang: str) -> Result:
    e_shape, e_flat = expected_values(expected)
    if not e_shape:  # one number wanted: 9,54 is asked about, not read as the vector (9, 54)
        slip = None
        if "," in answer or "，" in answer:
            slip = decimal_comma(normalize(answer).text)
        elif " " in answer.strip() or not answer.isascii():  # one number has no space inside
            slip = spaced_numbers_for_one_value(normalize(answer).text)
        if slip is not None:  # 1 000, 2 3: asked about, not read as a vector
            return unreadable(answer, slip, lang)
    try:
        node, _, notes = parse_with_notes(answer, NO_DECLARATIONS, space_vectors=True)
    except ParseError as err:
        return unreadable(answer, err, lang)
    if "note_plus_minus" in notes and e_shape != (2,):  # 1 ± 0.5 where one value is wanted
        return unreadable(answer, plus_minus_for_one_value(normalize(answer).text), lang)
    interpreted = to_latex(node)
    if not is_constant(node):
        names = ", ".join(sorted(symbol_names(node))) or "?"
        return cannot_grade(GraderError("needs_number", names=names), lang, interpreted)
    entries = [x for row in node.rows for x in row] if isinstance(node, Matrix) else [node]
    try:
        a_shape, values = answer_values(node, entries)  # raises UndefinedValue for 1/0
    except GraderError as err:
        return cannot_grade(err, lang, interpreted)
    # A single number matches a one-entry vector or matrix: `[0.5]` and `0.5` say the same thing.
    if a_shape != e_shape and not len(values) == len(e_flat) == 1:
        if transposed(values, e_shape, e_flat, a_shape, tol):
            return result(feedback=message("looks_transposed", lang), interpreted=interpreted)
        return _wrong_shape(a_shape, e_shape, lang, interpreted)
    if len(entries) != len(values):  # computed (a matrix product): no typed tree per entry
        entries = [None] * len(values)
    if tol.sigfigs is None and 0.0 not in values:  # the commonest case, kept short
        ok = [tol.matches(a, k, x) for a, k, x in zip(values, e_flat, entries, strict=True)]
    else:
        shown = [None] * len(values)
        if tol.sigfigs is not None:
            shown = [None if x is None else typed_sigfigs(x) for x in entries]
            # The key itself, typed exactly (`1` for a key of exactly 1), is never too short: an
            # exact value is as precise as an answer gets.
            short = [n for n, a, k, x in zip(shown, values, e_flat, entries, strict=True)
                     if n is not None and n < tol.sigfigs
                     and answer_decimal(a, x) != decimal_of_float(k)]
            if short:
                text = message("too_few_digits", lang, n=tol.sigfigs, given=min(short))
                return result(feedback=text, interpreted=interpreted)
        zeros = zero_entries(e_flat)
        ok = [tol.matches(a, k, x, n, z) for a, k, x, n, z in zip(values, e_flat, entries, shown,
                                                                 zeros, strict=True)]
    if all(ok):
        return result(correct=True, score=1.0, feedback=message("correct", lang),
                      interpreted=interpreted)
    if len(e_shape) == 2 and transposed(values, e_shape, e_flat, a_shape, tol):
        text = message("looks_transposed", lang)
    elif len(ok) == 1:
        infinite = math.isinf(values[0])
        text = message("number_infinite" if infinite else "number_wrong", lang,
                       tolerance=tol.describe(lang))
    elif len(e_shape) == 2:
        cols = e_shape[1]
        wrong = LIST_SEPARATOR.get(lang, LIST_SEPARATOR["en"]).join(
            message("matrix_entry", lang, row=i // cols + 1, col=i % cols + 1)
            for i, good in enumerate(ok) if not good)
        text = message("entries_wrong_matrix", lang, tolerance=tol.describe(lang), entries=wrong)
    else:
        wrong = [str(i + 1) for i, good in enumerate(ok) if not good]
        text = message("entry_wrong" if len(wrong) == 1 else "entries_wrong", lang,
                       tolerance=tol.describe(lang), entries=", ".join(wrong))
    return result(score=sum(ok) / len(ok) if len(ok) > 1 else 0.0, feedback=text,
                  interpreted=interpreted)


def transposed(values: list[float], e_shape: tuple[int, ...], e_flat: list[float],
               a_shape: tuple[int, ...], tol: Tolerance) -> bool:
    """The answer is the expected matrix with rows and columns swapped (and not the matrix
    itself: a symmetric key is not "transposed")."""
    if len(e_shape) != 2 or a_shape != (e_shape[1], e_shape[0]):
        return False
    rows, cols = e_shape
    swapped = [e_flat[r * cols + c] for c in range(cols) for r in range(rows)]
    if swapped == e_flat:
        return False
    return all(tol.matches(a, x) for a, x in zip(values, swapped, strict=True))


def _wrong_shape(a_shape: tuple[int, ...], e_shape: tuple[int, ...], lang: str,
                 interpreted: str) -> Result:
    text = message("shape_mismatch", lang, answer=shape_text(a_shape, lang, None),
                   expected=shape_text(e_shape, lang, None))
    return result(feedback=text, interpreted=interpreted)


def zero_entries(key: list[float]) -> list[bool]:
    """Which key entries count as 0: 0 itself, or within 1e-12 of 0 at the scale of the key's
    largest entry (1e-17 beside entries of order 1 is float noise; a key alone is its own
    scale, so a tiny scalar key is not 0)."""
    scale = max(map(abs, key))
    return [abs(k) <= ZERO_AT_SCALE * scale for k in key]


def answer_values(node: Node, entries: list[Node]) -> tuple[tuple[int, ...], list[float]]:
    """(canonical shape, entries row by row) of a constant answer.

    Raises UndefinedValue when a part has no value (1/0, checked in decimals unless every entry
    is a typed number) and GraderError("not_real") for a value that is not real. Plain
    arithmetic is evaluated with Python floats; what is not a finite float there (an overflow,
    `inf`) gets the float of its decimal value; what has no value as a scalar (a matrix
    product) goes through the numpy evaluator.
    """
    if not all(map(is_literal, entries)):
        undefined = undefined_part(node)
        if undefined is not None:
            raise undefined
    values = [constant_value(x) for x in entries]
    if None in values:
        try:
            values = [float(exact_value(x)) if v is None else v
                      for x, v in zip(entries, values, strict=True)]
        except NotExact:
            return _computed_values(node)
    if not isinstance(node, Matrix):
        return (), values
    return canonical((len(node.rows), len(node.rows[0]))), values


def _computed_values(node: Node) -> tuple[tuple[int, ...], list[float]]:
    value = evaluate(node, _ENV)[0]  # raises EvalError for shapes that do not fit
    if np.any(np.abs(value.imag) > 1e-12 * np.maximum(1.0, np.abs(value.real))):
        raise GraderError("not_real")
    return canonical_shape(value[None]), np.real(value).reshape(-1).tolist()
