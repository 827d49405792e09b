"""The parser's fast path for the commonest answers: plain numbers and lists of them.

`0.4`, `-9.54e-7`, `9.54*10^-7`, `[0.4, 2.05]`, `(0.4, 2.05)`, `0.4, 2.05`, `[0.4 2.05]`,
`[1.5; 2.5]`, `[1 2; 3 4]`, `[[1, 2], [3, 4]]`, and the arithmetic of one value written as two
numbers and an operator (`2^40`, `5/4`, `1+0.01`) are read with a few regular expressions instead
of the token stream and the recursive descent (2-5x faster). The tree is exactly the one the full
parser builds (a property test compares the two); anything else, including anything the full
parser would report as an error (a ragged matrix, a number over the limits), returns None and
goes through the full parser.
"""

from __future__ import annotations

import re

from ..errors import ParseError
from .lexer import NUMBER
from .limits import check_exponent, number_within_limits
from .nodes import Add, Div, Matrix, Mul, Neg, Node, Num, Pow

EXPONENT = r"[+-]?\d{1,3}"
# A signed number, optionally times a power of ten: -9.54, 9.54*10^-7, 9.54*10^(-7), 10^{-7}.
ENTRY_RE = re.compile(
    rf"(-?)({NUMBER})(?:\s*\*\s*10\s*\^\s*(?:({EXPONENT})|\(\s*({EXPONENT})\s*\)"
    rf"|\{{\s*({EXPONENT})\s*\}}))?")
# Two unsigned numbers and one operator, no space: `2^40`, `5/4`, `1+0.01`, `2*40`.
BINARY_RE = re.compile(rf"({NUMBER})([-+*/^])({NUMBER})")
ONLY_NUMBER_CHARS = re.compile(r"[0-9.eE+\-*/^{},; \[\]()]*")
ROW_BREAK_RE = re.compile(r"\]\s*,\s*\[")
MAX_ENTRIES = 50  # in all; at most 6 nodes each: well below the parser's node limit
MAX_POWER_OF_TEN = 300  # the parser refuses 10^301 and beyond ("number too large")
TEN = Num(10.0, "10")
# `9,54e-7`, `1,5`: one comma between digits, nothing else: a decimal comma, or two numbers?
DECIMAL_COMMA_RE = re.compile(r"\s*([+-]?)(\d+),(\d+)([eE][+-]?\d+)?\s*")
# `1,000,000`: groups of three digits, a thousands separator where one number is wanted.
THOUSANDS_RE = re.compile(r"\s*([+-]?\d{1,3})((?:,\d{3}){2,})(\.\d+)?\s*")


def decimal_comma(text: str) -> ParseError | None:
    """For a question that wants one number: `9,54e-7` is read neither as 9.54e-7 nor as the
    vector (9, 54e-7); the learner is asked (`did you mean 9.54e-7?`); so is `1,000,000` (a
    thousands separator). `text` is normalized."""
    match = DECIMAL_COMMA_RE.fullmatch(text)
    if match is None:
        groups = THOUSANDS_RE.fullmatch(text)
        if groups is None:
            return None
        plain = groups[1] + groups[2].replace(",", "") + (groups[3] or "")
        return ParseError("thousands_separator", groups.start(2), plain=plain)
    sign, whole, part, exponent = match.groups()
    decimal = f"{sign}{whole}.{part}{exponent or ''}"
    pos = match.start(3) - 1
    if len(part) == 3 and not exponent:  # 1,500: perhaps a thousands separator
        return ParseError("decimal_comma_thousands", pos, decimal=decimal,
                          thousands=f"{sign}{whole}{part}")
    return ParseError("decimal_comma_asked", pos, decimal=decimal)


def parse_plain_numbers(text: str, space_vectors: bool) -> Node | None:
    """The full parser's tree for plain numbers and lists of them, or None to use the parser."""
    if not ONLY_NUMBER_CHARS.fullmatch(text):
        return None
    body = text.strip()
    if not body:
        return None
    first, last = body[0], body[-1]
    if first not in "[(" and "," not in body:
        single = _entry(body)  # a single number: the commonest answer of all
        if single is None and " " not in body:
            single = _binary(body)
        if single is not None or " " not in body:
            return single
    if first == "(" and last == ")":  # (a, b) takes commas only; (a) is just a
        return _list_or_entry(_rows(body[1:-1], separators=","))
    if first == "[" and last == "]":
        inner = body[1:-1].strip()
        if inner.startswith("["):
            return _nested(inner)
        rows = _rows(inner, separators=",;", spaced=True)
        return None if rows is None else Matrix(rows)
    rows = _rows(body, separators=",", spaced=space_vectors)
    if rows and len(rows[0]) > 1 and "," not in body and "*" in body:
        return None  # "9.54*10^-7 1.5": whether a space separates is the parser's call
    return _list_or_entry(rows)


def _list_or_entry(rows: tuple[tuple[Node, ...], ...] | None) -> Node | None:
    if rows is None:
        return None
    return rows[0][0] if len(rows[0]) == 1 else Matrix(rows)


def _rows(text: str, separators: str, spaced: bool = False) -> tuple[tuple[Node, ...], ...] | None:
    """Rows split at `;` (where allowed), entries at commas, or at spaces when there is no comma
    anywhere (as in the parser: one comma makes every space a plain space)."""
    if ";" in text and ";" not in separators:
        return None
    use_commas = "," in text
    rows = []
    for part in text.split(";") if ";" in separators else [text]:
        pieces = part.split(",") if use_commas else part.split() if spaced else [part]
        if not pieces or len(pieces) > MAX_ENTRIES:
            return None
        row = []
        for piece in pieces:
            node = _entry(piece.strip())
            if node is None:
                return None
            row.append(node)
        rows.append(tuple(row))
    if len({len(row) for row in rows}) != 1 or len(rows) * len(rows[0]) > MAX_ENTRIES:
        return None  # ragged, or long enough for the node limit: the full parser says where
    return tuple(rows)


def _nested(inner: str) -> Matrix | None:
    """`[1, 2], [3, 4]` inside the outer brackets: each `[...]` is a row of one length."""
    if not inner.endswith("]"):
        return None
    pieces = ROW_BREAK_RE.split(inner[1:-1])  # a bracket left over fails _entry: None
    if len(pieces) < 2:
        return None  # [[1, 2]] is a row of one row: the parser's rules decide
    table = []
    for piece in pieces:
        rows = _rows(piece, separators=",", spaced=True)
        if rows is None or len(rows) != 1:
            return None
        table.append(rows[0])
    if len({len(r) for r in table}) != 1 or len(table) * len(table[0]) > MAX_ENTRIES:
        return None
    return Matrix(tuple(table))


def _entry(text: str) -> Node | None:
    match = ENTRY_RE.fullmatch(text)
    if match is None:
        return None
    sign, digits, bare, parenthesized, braced = match.groups()
    number = _number(digits)
    if number is None:
        return None
    node = Neg(number) if sign else number
    # at most one of the three spellings of the exponent matched (this runs for every entry)
    exponent = bare if bare is not None else parenthesized if parenthesized is not None \
        else braced
    if exponent is None:
        return node
    power = int(exponent)
    if abs(power) > MAX_POWER_OF_TEN:
        return None
    magnitude = Num(float(exponent.lstrip("+-")), exponent.lstrip("+-"))
    return Mul((node, Pow(TEN, Neg(magnitude) if exponent.startswith("-") else magnitude)))


def _binary(text: str) -> Node | None:
    """`a op b` as the parser builds it: a sum of a and b (or of a and -b), a product of the two,
    a quotient, a power within the parser's exponent limits."""
    match = BINARY_RE.fullmatch(text)
    if match is None:
        return None
    left, op, right = match.groups()
    a, b = _number(left), _number(right)
    if a is None or b is None:
        return None
    if op == "^":
        try:
            check_exponent(a, b, 0)
        except ParseError:
            return None  # a power over the limits: the parser reports it where it is
        return Pow(a, b)
    if op == "/":
        return Div(a, b)
    if op == "*":
        return Mul((a, b))
    return Add((a, b if op == "+" else Neg(b)))


def _number(digits: str) -> Num | None:
    value, broken = number_within_limits(digits)
    return None if broken else Num(value, digits)  # over a limit: the parser reports where
