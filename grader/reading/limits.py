"""Containment limits of the parser, and the checks made while the tree is built.

Every limit is checked before anything is evaluated: an answer that passes the parser can be
evaluated in bounded time and memory.
"""

from __future__ import annotations

import math

from ..errors import LimitError, ParseError
from .constant import constant_value
from .lexer import Token
from .nodes import Factorial, Node, Num, Pow, is_constant, walk

MAX_LENGTH = 1000
MAX_DEPTH = 60
MAX_NODES = 400
MAX_NUMBER = 1e100
MAX_NUMBER_CHARS = 30
# Whole exponents of any size cost nothing in the exact test (pow(a, e, p)); 10^4 keeps the float
# samples and the symbolic fallback bounded too.
MAX_EXPONENT = 10_000.0
# n! of a whole number is computed exactly (1000! has 2,568 digits, a fraction of a millisecond);
# a formula's factorial is the gamma function, bounded like any other function.
MAX_FACTORIAL = 1000
MAX_DIFF_ORDER = 4
# Square brackets read a second time as a product of vectors or matrices (parser.parse_brackets):
# nested ones could otherwise be re-read 2^depth times.
MAX_REREADS = 16


def number_value(token: Token) -> Num:
    """The Num of a number token, within the digit and size limits."""
    value, broken = number_within_limits(token.text)
    if broken == "number_too_long":
        raise LimitError(broken, token.pos, limit=MAX_NUMBER_CHARS)
    if broken is not None:
        raise LimitError(broken, token.pos)
    return Num(value, token.text)


def number_within_limits(text: str) -> tuple[float, str | None]:
    """(value, None) for a number literal within the limits, else (nan, the limit's key)."""
    # The digit count is only worth computing when the literal could be long enough to fail.
    if len(text) > MAX_NUMBER_CHARS:
        digits = text.lstrip("0.").split("e")[0].split("E")[0]
        if len(digits) > MAX_NUMBER_CHARS:
            return math.nan, "number_too_long"
    value = float(text)
    if not -MAX_NUMBER <= value <= MAX_NUMBER:  # also false for inf
        return math.nan, "number_too_large"
    return value, None


def check_exponent(base: Node, exponent: Node, pos: int) -> None:
    """No towers a^b^c^d, no exponent above MAX_EXPONENT, no constant power above 1e300."""
    towers = sum(1 for n in walk(exponent) if isinstance(n, Pow))
    if towers >= 3:
        raise LimitError("exponent_tower", pos)
    if not is_constant(exponent):
        return
    value = constant_value(exponent)
    if value is None:
        return
    if abs(value) > MAX_EXPONENT:
        raise LimitError("exponent_too_large", pos, limit=int(MAX_EXPONENT))
    if is_constant(base):
        b = constant_value(base)
        if b is not None and b != 0 and abs(value) * math.log10(abs(b)) > 300:
            raise LimitError("number_too_large", pos)


def check_factorial(arg: Node, pos: int) -> None:
    """n! is Gamma(n + 1) for a formula n; a constant n must be a whole number 0..MAX_FACTORIAL
    (the gamma function has poles at the negative integers, and 2.5! is rarely meant)."""
    if not is_constant(arg):
        return
    value = exact_constant_size(arg)
    if value is None or value < 0 or not float(value).is_integer():
        raise ParseError("factorial_needs_integer", pos)
    if value > MAX_FACTORIAL:
        raise LimitError("factorial_too_large", pos, limit=MAX_FACTORIAL)


def exact_constant_size(arg: Node) -> float | None:
    """The value of a factorial's constant argument (its own factorials may overflow a float:
    then it is above the limit anyway)."""
    value = constant_value(arg)
    if value is None and any(isinstance(n, Factorial) for n in walk(arg)):
        return math.inf
    return value


def check_binomial(args: list[Node], pos: int) -> None:
    """binomial(n, k) of constant whole numbers is computed exactly: n at most MAX_FACTORIAL."""
    n = args[0]
    if is_constant(n):
        value = exact_constant_size(n)
        if value is not None and abs(value) > MAX_FACTORIAL:
            raise LimitError("binomial_too_large", pos, limit=MAX_FACTORIAL)
