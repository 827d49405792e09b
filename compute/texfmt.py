"""Numbers and arrays as short LaTeX for prompts and worked solutions (display only).

Answers keep full float precision; only what the learner reads is rounded, to `digits`
significant digits with trailing zeros trimmed (2.0500000000000003 -> "2.05"). A worked solution
shows the keys with `key`: as precise as the Exercises page's list of keys (up to 6 significant
figures: 20.345, not 20.34) and never fewer than `digits`, trailing zeros kept (1.0 -> "1.000"),
so that typing the shown number satisfies a "4 significant figures" question; an exact zero stays
"0". A negative number after an operator is parenthesised (`operand`).
"""

from __future__ import annotations

import math
import string

DIGITS = 4


def num(value: float, digits: int = DIGITS, *, fixed: bool = False) -> str:
    """`value` to `digits` significant figures; `fixed` keeps the trailing zeros."""
    value = float(value)
    if value == 0:
        return "0"
    magnitude = math.floor(math.log10(abs(value)))
    if value.is_integer() and abs(value) < 1e9 and (not fixed or magnitude >= digits - 1):
        return str(int(value))
    if -3 <= magnitude < 6:
        decimals = max(0, digits - 1 - magnitude)
        text = f"{value:.{decimals}f}"
        if "." in text and not fixed:
            text = text.rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text
    mantissa, exponent = f"{value:.{digits - 1}e}".split("e")
    if "." in mantissa and not fixed:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return rf"{mantissa} \times 10^{{{int(exponent)}}}"


def count(n: int) -> str:
    """An integer with thin-space thousands separators: 2\\,362\\,368."""
    return f"{n:,}".replace(",", r"\,")


def vec(values, digits: int = DIGITS, *, fixed: bool = False) -> str:
    """A column vector."""
    body = r" \\ ".join(num(v, digits, fixed=fixed) for v in values)
    return rf"\begin{{bmatrix}}{body}\end{{bmatrix}}"


def mat(rows, digits: int = DIGITS, *, fixed: bool = False) -> str:
    body = r" \\ ".join(" & ".join(num(v, digits, fixed=fixed) for v in row) for row in rows)
    return rf"\begin{{bmatrix}}{body}\end{{bmatrix}}"


def seq(values, digits: int = DIGITS, *, fixed: bool = False) -> str:
    """A row list written inline: [a, b, c]."""
    return "[" + ", ".join(num(v, digits, fixed=fixed) for v in values) + "]"


def operand(value: float, digits: int = DIGITS) -> str:
    """A number written after an operator: a negative one in parentheses, `(-2)`, so that
    `y - t` reads `(-3.2 - (-2))`, never `-3.2 - -2`."""
    text = num(value, digits)
    return f"({text})" if text.startswith("-") else text


KEY_MOST_DIGITS = 6  # the Exercises page lists each key to 6 significant figures (`.6g`)


def _figures(text: str) -> int:
    mantissa = text.split(r" \times")[0].lstrip("-").replace(".", "").lstrip("0")
    return len(mantissa)


def key_num(value: float, digits: int = DIGITS) -> str:
    """One number of a key: as precise as the page's list of keys (up to KEY_MOST_DIGITS
    significant figures: 20.345, not 20.34), and never fewer than `digits` with trailing zeros
    kept (1.0 is "1.000"), so typing it satisfies a question asking for `digits` figures."""
    fixed, full = num(value, digits, fixed=True), num(value, KEY_MOST_DIGITS)
    return full if _figures(full) > _figures(fixed) else fixed


def key(value, digits: int = DIGITS) -> str:
    """An answer key as a worked solution shows it: a number, a column vector or a matrix, each
    number as `key_num` writes it."""
    if isinstance(value, list):
        if value and isinstance(value[0], list):
            body = r" \\ ".join(" & ".join(key_num(v, digits) for v in row) for row in value)
        else:
            body = r" \\ ".join(key_num(v, digits) for v in value)
        return rf"\begin{{bmatrix}}{body}\end{{bmatrix}}"
    return key_num(value, digits)


class _At(string.Template):
    delimiter = "@"  # "$" belongs to LaTeX; "@name" / "@{name}" marks a value


def fill(text: str, **values: str) -> str:
    """Put prepared strings into a Markdown+LaTeX text: fill(r"$y=@y$", y=vec(y))."""
    return _At(text).substitute(values)
