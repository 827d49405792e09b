"""Typing slips that are refused, not graded (issue 29, item 1).

A learner who types `2 e5`, `3.2.2`, `1 000` or leaves a bracket open made a slip; reading it
anyway (2·e·5, 3.2·0.2, 1·0) would grade a formula they did not mean and cost them a try. These
checks run on the token stream (positions are into the normalized text, so the caret lands under
what was typed) and raise a `ParseError` with a message of their own:

- `number_space_number`: two numbers separated only by a space (`2 3`, `2^3 4`, `-2 2`, and the
  mixed number `1 1/2`), except where a space separates entries (inside `[...]`, the numeric
  questions' `2.1 2.8`), the arguments of `\\frac 1 2`, `\\sqrt 2`, the power on a function's
  name before its argument (`tan^3 2x`) and two fractions side by side (`1/2 1/2`);
- `thousands_space`: `1 000`, `12 500 000`: a thousands separator, asked about (`1000?`);
- `space_in_number`: `2 e5`, `2e 5`, `2 e-5`: a space inside scientific notation;
- `malformed_number`: `3.2.2`, `3e0.5`, `3e.5` (a second decimal point, a fractional exponent)
  and `2e+a`, `2e-x` (an exponent that is not a number: 2·e + a or 2·10^a?);
- `decimal_comma_formula` (`decimal_comma_in_formula`, asked by kinds/expression.py only when
  the question wants one value and the answer was read as a vector): `x+1,5`. A comma inside
  brackets or a call (`F(x, W)`, `binomial(5,2)`, `[1,5]`) is never a decimal comma;
- `plus_minus` (`plus_minus_for_one_value`, asked by kinds/expression.py): `1 ± √2` reads as a
  pair of values, refused where the question wants one value;
- brackets (`unbalanced_brackets`, asked only once the parser has failed, so it costs a correct
  answer nothing): a bracket never closed (caret under the opener), a closer that closes
  nothing, a closer of the wrong kind, a `|` without its partner.
"""

from __future__ import annotations

import re

from ..errors import ParseError
from .lexer import NUMBER, Token
from .names import BASE_LOGS, FUNCTION_ALIASES
from .nodes import BUILTIN_FUNCTIONS

EXPONENT_LETTERS = ("e", "E")
OPENERS = {"(": ")", "[": "]", "{": "}"}
CLOSERS = {")": "(", "]": "[", "}": "{"}
ARGUMENT_COMMANDS = ("frac", "binom", "sqrt")  # \frac 1 2: numbers as arguments
FUNCTION_WORDS = frozenset((*BUILTIN_FUNCTIONS, *FUNCTION_ALIASES, *BASE_LOGS))


def refuse_number_slips(tokens: list[Token], text: str, spaced_entries: bool = False) -> None:
    """Raise a ParseError at the first slip of number entry in `tokens` (see the module).
    `spaced_entries` (numeric answers): a space between numbers separates a vector's entries
    (`2.1 2.8`), so only the slips inside one number are refused."""
    square_depth = 0
    for k, tok in enumerate(tokens):
        kind = tok.kind
        if kind == "op":
            if tok.text == "[":
                square_depth += 1
            elif tok.text == "]":
                square_depth -= 1
            continue
        if kind != "num":
            continue
        after = tokens[k + 1]
        if after.kind == "num" and not after.space_before and after.text.startswith("."):
            raise _malformed(tokens, k, k + 1, text)  # 3.2.2, 3e0.5, 3.2e2.2
        if after.kind == "name" and after.text in EXPONENT_LETTERS:
            _exponent_slip(tokens, k, text)
        if after.kind == "num" and after.space_before and square_depth <= 0 \
                and not spaced_entries and not _command_argument(tokens, k) \
                and not _function_power(tokens, k) and not _fractions_side_by_side(tokens, k):
            raise _spaced_numbers(tokens, k, text)


def _exponent_slip(tokens: list[Token], k: int, text: str) -> None:
    """`2 e5`, `2e 5`, `2 e-5`: scientific notation with a space in it; `3e.5`, `2e+a`: an
    exponent that is not a whole number."""
    number, letter = tokens[k], tokens[k + 1]
    nxt = tokens[k + 2]
    signed = nxt.kind == "op" and nxt.text in "+-" and not nxt.space_before
    digits = tokens[k + 3] if signed else nxt
    glued_digits = digits.kind == "num" and not digits.space_before
    if letter.space_before:
        if glued_digits and digits.text[0].isdigit():  # 2 e5, 2 e-5
            written = text[number.pos:digits.end]
            raise ParseError("space_in_number", letter.pos, written=written,
                             number=written.replace(" ", ""))
        return
    if nxt.kind == "num" and nxt.space_before and nxt.text[0].isdigit():  # 2e 5
        written = text[number.pos:nxt.end]
        raise ParseError("space_in_number", nxt.pos, written=written,
                         number=written.replace(" ", ""))
    if (glued_digits and digits.text.startswith(".")) or \
            (signed and digits.kind == "name" and not digits.space_before):  # 3e.5, 2e+a
        raise _malformed(tokens, k, k + 3 if signed else k + 2, text)


def _malformed(tokens: list[Token], first: int, last: int, text: str) -> ParseError:
    """`3.2.2`: the whole run of glued number pieces, as typed."""
    while last + 1 < len(tokens) and tokens[last + 1].kind in ("num", "name") \
            and not tokens[last + 1].space_before and tokens[last + 1].text[0] in ".0123456789":
        last += 1
    return ParseError("malformed_number", tokens[first].pos,
                      written=text[tokens[first].pos:tokens[last].end])


def _spaced_numbers(tokens: list[Token], k: int, text: str) -> ParseError:
    """`1 000` (groups of three digits after a whole number of 1 to 3 digits) is a thousands
    separator; any other two numbers with only a space between are a slip."""
    first = tokens[k]
    groups = [first]
    j = k + 1
    while tokens[j].kind == "num" and tokens[j].space_before:
        groups.append(tokens[j])
        j += 1
    head, rest = groups[0].text, [g.text for g in groups[1:]]
    whole = head.isdigit() and len(head) <= 3
    if whole and all(len(g) == 3 and g.isdigit() for g in rest[:-1]) \
            and rest[-1].partition(".")[0].isdigit() and len(rest[-1].partition(".")[0]) == 3:
        return ParseError("thousands_space", tokens[k + 1].pos,
                          written=text[first.pos:groups[-1].end],
                          plain=head + "".join(rest))
    second = tokens[k + 1]
    return ParseError("number_space_number", second.pos, first=first.text, second=second.text)


def _function_power(tokens: list[Token], k: int) -> bool:
    """Whether the number at k is the power written on a function's name (`tan^3 2x`, read as
    (tan 2x)^3): the number after it is the function's argument."""
    if k < 2 or tokens[k - 1].kind != "op" or tokens[k - 1].text != "^":
        return False
    name = tokens[k - 2]
    if name.kind != "name":
        return False
    word = name.text.lower()
    return word in FUNCTION_WORDS or word.startswith("log_")


def _fractions_side_by_side(tokens: list[Token], k: int) -> bool:
    """`1/2 1/2`: the space ends one fraction and starts another, so it separates two factors
    as on paper. (A whole number before a fraction, `1 1/2`, is a mixed number to many people:
    refused.)"""
    before, after = tokens[k - 1] if k else None, tokens[k + 2]
    return (before is not None and before.kind == "op" and before.text == "/"
            and after.kind == "op" and after.text == "/")


def _command_argument(tokens: list[Token], k: int) -> bool:
    """Whether the number at k is an argument of \\frac, \\binom or \\sqrt (`\\frac 1 2`)."""
    before = tokens[k - 1] if k >= 1 else None
    if before is not None and before.kind == "cmd" and before.text in ARGUMENT_COMMANDS:
        return True
    two_before = tokens[k - 2] if k >= 2 else None
    return (before is not None and before.kind == "num" and two_before is not None
            and two_before.kind == "cmd" and two_before.text in ("frac", "binom"))


def unbalanced_brackets(tokens: list[Token], text: str) -> ParseError | None:
    """The first bracket without its partner, or None when every bracket is paired. `|` pairs
    with the next `|` at the same depth (an absolute value), `‖` likewise (a norm). Brackets
    are named as typed (`\\{`, `(`)."""
    stack: list[Token] = []
    for tok in tokens:
        if tok.kind != "op":
            continue
        symbol = tok.text
        if symbol in OPENERS:
            stack.append(tok)
        elif symbol in CLOSERS:
            bars = _open_bar(stack)
            if bars is not None:
                return ParseError("bracket_unpaired_bar", bars.pos, bar=_typed(bars, text))
            if not stack:
                return ParseError("bracket_closes_nothing", tok.pos, bracket=_typed(tok, text))
            opener = stack.pop()
            if OPENERS[opener.text] != symbol:
                return ParseError("bracket_mismatch", tok.pos, bracket=_typed(tok, text),
                                  opener=_typed(opener, text))
        elif symbol in ("|", "‖"):
            if stack and stack[-1].text == symbol:
                stack.pop()
            else:
                stack.append(tok)
    if stack:
        opener = stack[-1]
        if opener.text in ("|", "‖"):
            return ParseError("bracket_unpaired_bar", opener.pos, bar=_typed(opener, text))
        return ParseError("bracket_never_closed", opener.pos, bracket=_typed(opener, text))
    return None


def _typed(tok: Token, text: str) -> str:
    """A bracket as the learner typed it (`\\{`, `\\lbrace`, `\\vert`), else its symbol."""
    return text[tok.pos:tok.end].strip() or tok.text


def _open_bar(stack: list[Token]) -> Token | None:
    """A `|` left open inside the bracket being closed (`(|x)`)."""
    return stack[-1] if stack and stack[-1].text in ("|", "‖") else None


DIGIT_COMMA_DIGIT = re.compile(r"(?<=\d),(?=\d)")


def decimal_comma_in_formula(text: str) -> ParseError | None:
    """`x+1,5`: a comma with a digit right against each side, outside every bracket (so it
    separates no arguments and no bracketed entries): 1.5, or two entries? Asked about, with
    the caret under the comma. `text` is normalized."""
    for match in DIGIT_COMMA_DIGIT.finditer(text):
        at = match.start()
        depth = sum(text.count(o, 0, at) for o in "([{") - sum(text.count(c, 0, at) for c in ")]}")
        if depth == 0:
            start, end = at, at + 1
            while start > 0 and text[start - 1].isdigit():
                start -= 1
            while end < len(text) and text[end].isdigit():
                end += 1
            whole, part = text[start:at], text[at + 1:end]
            return ParseError("decimal_comma_formula", at, decimal=f"{whole}.{part}")
    return None


PLUS_MINUS_RE = re.compile(r"\\pm(?![A-Za-z])|\\mp(?![A-Za-z])")


def plus_minus_for_one_value(text: str) -> ParseError:
    """`1 ± √2` where the question wants one value: refused with its own message, the caret
    under the ±. `text` is normalized (± is `\\pm` there)."""
    found = PLUS_MINUS_RE.search(text)
    return ParseError("plus_minus", found.start() if found else 0)


SPACED_THOUSANDS_RE = re.compile(r"\s*([+-]?\d{1,3})((?: \d{3})+)(\.\d+)?\s*")
SIGNED_NUMBER_RE = re.compile(rf"[+-]?{NUMBER}")
PIECE_RE = re.compile(r"\S+")


def spaced_numbers_for_one_value(text: str) -> ParseError | None:
    """Numbers separated by spaces as the whole answer where one number is wanted (numeric
    questions read `2.1 2.8` as a vector): `1 000`, `12 500 000.5` are a thousands separator,
    asked about (`1000?`); `2 3` is two numbers, refused as elsewhere."""
    match = SPACED_THOUSANDS_RE.fullmatch(text)
    if match is not None:
        plain = match[1] + match[2].replace(" ", "") + (match[3] or "")
        return ParseError("thousands_space", match.start(2) + 1, plain=plain,
                          written=text.strip())
    # piece by piece, not one regular expression: its nested repeats of NUMBER would backtrack
    # exponentially on a long run of digits and spaces (tests/grader/test_hostile.py)
    pieces = list(PIECE_RE.finditer(text))
    if len(pieces) < 2 or not all(SIGNED_NUMBER_RE.fullmatch(p[0]) for p in pieces):
        return None
    return ParseError("number_space_number", pieces[1].start(), first=pieces[0][0],
                      second=pieces[1][0])
