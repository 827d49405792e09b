"""Verdicts by exact arithmetic, owing nothing to the grader: what the learner's text says, as an
exact decimal, against the exact expected value, under the tolerance the product grades with.
An answer too close to the tolerance's edge to call safely gets no verdict rather than a guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction

# --- the tolerance a request grades with ----------------------------------------------------

@dataclass(frozen=True)
class Tolerance:
    rtol: float | None = None
    atol: float | None = None
    sigfigs: int | None = None

    @classmethod
    def of_request(cls, request: dict) -> Tolerance:
        return cls(request.get("rtol"), request.get("atol"), request.get("sigfigs"))


# --- exact decimals -------------------------------------------------------------------------

def exact(x) -> Decimal:
    """x (int, float, Fraction with a power-of-ten-friendly denominator) as an exact Decimal."""
    x = Fraction(x)
    with localcontext() as ctx:
        ctx.prec = 1000  # a float's exact decimal expansion fits
        return Decimal(x.numerator) / Decimal(x.denominator)


def round_figures(x, figures: int) -> Decimal:
    """x rounded to `figures` significant figures, exactly (half to even)."""
    d = exact(x)
    if d == 0:
        return Decimal(0)
    with localcontext() as ctx:
        ctx.prec = 1000
        rounded = d.quantize(Decimal(1).scaleb(d.adjusted() - figures + 1), ROUND_HALF_EVEN)
        if rounded.adjusted() > d.adjusted():  # 9.996 -> 10.00: one figure too many
            rounded = d.quantize(Decimal(1).scaleb(rounded.adjusted() - figures + 1),
                                 ROUND_HALF_EVEN)
    return rounded


def figures_for(tol: Tolerance, x) -> int:
    """Figures a careful learner types: exactly N for significant figures, else enough that
    rounding costs at most a quarter of the tolerance."""
    if tol.sigfigs is not None:
        return tol.sigfigs
    if x == 0:
        return 1
    if tol.rtol is not None:
        figures = 1
        while 0.5 * 10.0 ** (1 - figures) > tol.rtol / 4:
            figures += 1
        return figures
    decimals = 0
    while 0.5 * 10.0 ** -decimals > tol.atol / 4:
        decimals += 1
    return max(1, exact(x).adjusted() + decimals + 1)


@dataclass(frozen=True)
class Typed:
    """One entry as the learner writes it: `value` is exactly what the text says."""

    value: Decimal
    keep_zeros: bool  # trailing zeros are significant figures the learner means to show

    def digits(self) -> Decimal:
        return self.value if self.keep_zeros else self.value.normalize()

    def plain(self) -> str:
        if self.value == 0:
            return "0"
        return format(self.digits(), "f")

    def mantissa_exponent(self) -> tuple[str, int]:
        d = self.digits()
        return format(d.scaleb(-d.adjusted()), "f"), d.adjusted()

    def figures(self, notation: str) -> int:
        """Significant figures the text shows (trailing zeros of a whole number count)."""
        text = self.plain() if notation == "plain" else self.mantissa_exponent()[0]
        return len(text.lstrip("-").replace(".", "").lstrip("0"))


def typed(x, tol: Tolerance, figures: int | None = None) -> Typed:
    return Typed(round_figures(x, figures or figures_for(tol, x)), tol.sigfigs is not None)


# --- the verdict, by arithmetic -------------------------------------------------------------

def near_tie(x: Fraction, figures: int) -> bool:
    """True when x sits (almost) on a rounding tie at `figures` figures: parsing it into a float
    could then round it either way."""
    if x == 0:
        return False
    scaled = abs(x) / Fraction(10) ** (exact(x).adjusted() - figures + 1)
    return abs(scaled - int(scaled) - Fraction(1, 2)) < Fraction(1, 10**9)


def entry_verdict(entry: Typed, notation: str, expected, tol: Tolerance) -> str | None:
    """"in", "out", or None when too close to the edge to call."""
    a, e = Fraction(entry.value), Fraction(expected)
    if tol.sigfigs is not None:
        n = tol.sigfigs
        if near_tie(a, n) or near_tie(e, n):
            return None
        if a != 0 and entry.figures(notation) < n:  # a zero shows no figures and needs none
            return "out"
        return "in" if round_figures(a, n) == round_figures(e, n) else "out"
    bound = max(Fraction(tol.atol or 0), Fraction(tol.rtol or 0) * abs(e))
    error = abs(a - e)
    if bound == 0:
        return "in" if error == 0 else "out"
    if error <= bound / 2:
        return "in"
    return "out" if error >= 2 * bound else None


def shape_of(value) -> tuple[int, ...]:
    if not isinstance(value, list):
        return ()
    if isinstance(value[0], list):
        return (len(value), len(value[0]))
    return (len(value),)


def flat(value) -> list:
    if not isinstance(value, list):
        return [value]
    return [x for item in value for x in flat(item)]


def verdict(entries, shape, notation: str, expected, tol: Tolerance) -> str | None:
    """The grade by the contract: shapes first (a column is a vector), then every entry."""
    if shape != shape_of(expected):
        return "wrong"
    calls = [entry_verdict(a, notation, e, tol)
             for a, e in zip(flat(entries), flat(expected), strict=True)]
    if None in calls:
        return None
    return "correct" if all(c == "in" for c in calls) else "wrong"
