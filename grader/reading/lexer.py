"""Split normalized text into tokens; LaTeX commands are folded into the same small token set.

Only an allowlist of LaTeX commands is known; anything else (`\\input`, `\\def`, ...) is a parse
error, so there are no macros and nothing is ever read from disk. A known command typed glued
to a name (`a\\cdotb`, `\\alphax`) is split when the rest is a name the question knows
(`_glued_command`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from ..errors import ParseError

GREEK = (
    "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi rho sigma tau "
    "upsilon phi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma Phi Psi Omega"
).split()
LATEX_NAMES = {g: g for g in GREEK}
LATEX_NAMES.update({"varepsilon": "epsilon", "varphi": "phi", "vartheta": "theta", "pi": "pi",
                    "partial": "partial", "infty": "inf", "nabla": "nabla"})
# \sin, \arcsin, \log_{10}, \max ...: LaTeX's operator names (and the common extensions
# \sech, \arsinh, \sgn) are read as the function's name; the parser knows the aliases.
LATEX_FUNCTIONS = (
    "exp log ln lg sin cos tan sec csc cot arcsin arccos arctan arcsec arccsc arccot sinh cosh "
    "tanh sech csch coth arsinh arcosh artanh arcsinh arccosh arctanh max min sgn sign"
).split()
for _fn in LATEX_FUNCTIONS:
    LATEX_NAMES[_fn] = _fn
LATEX_OPS = {"cdot": "*", "times": "*", "ast": "*", "div": "/", "mid": "|", "vert": "|",
             "lvert": "|", "rvert": "|", "prime": "'", "approx": "≈",
             "pm": "±", "mp": "∓",  # 1 \\pm \\sqrt{2}: a pair of values (parser.py)
             # \{ \} as brackets, as Chinese textbooks write E\{[X - E(X)]^2\} (no sets here)
             "{": "(", "}": ")", "lbrace": "(", "rbrace": ")",
             # a vector's norm \|x\| (also ‖x‖ after normalization): one `‖` token each side
             "|": "‖", "Vert": "‖", "lVert": "‖", "rVert": "‖",
             "'": "'"}  # F\'(x): a prime escaped as in a program's string, still a prime
LATEX_SKIP = {"left", "right", "big", "Big", "bigl", "bigr", "Bigl", "Bigr", "quad", "qquad",
              "displaystyle", "limits", "space", "thinspace", "medspace", "thickspace",
              "enspace"}
# \mathcal{F}: the residual branch; \mathbb{E}: the expectation (where random variables are
# declared, reading/moments.py)
LATEX_NAME_WRAPPERS = {"mathbf", "boldsymbol", "bm", "mathrm", "mathit", "operatorname",
                       "vec", "mathsf", "text", "mathcal", "mathbb"}
LATEX_CMDS = {"frac": "frac", "dfrac": "frac", "tfrac": "frac", "cfrac": "frac", "sqrt": "sqrt",
              "top": "top", "intercal": "top", "T": "top",
              "binom": "binom", "dbinom": "binom", "tbinom": "binom"}
LATEX_DOTS = {"cdots", "dots", "ldots", "dotsb", "dotsc", "dotsm"}
# \sum and \prod (∑, ∏ after normalization): a `bigop` token; its range follows as _{i=a}^{b}.
LATEX_BIG_OPERATORS = {"sum": "sum", "prod": "prod"}
MATRIX_ENVS = {"bmatrix", "pmatrix", "matrix", "Bmatrix"}

NUMBER = r"(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"  # also read by plain_numbers.py
NUMBER_RE = re.compile(NUMBER)
NAME_RE = re.compile(r"[A-Za-z]+")
SUBSCRIPT_RE = re.compile(r"[A-Za-z0-9]+")
LOG_BASE_RE = re.compile(r"\d+(?:\.\d+)?|[A-Za-z]")  # log_2x, log_2.5x, log_bx
SIMPLE_LOG_BASE_RE = re.compile(r"\d+|[A-Za-z]")  # log_{10}, log_{b}: one name token
BRACED_SUBSCRIPT_RE = re.compile(r"\{([A-Za-z0-9+\-, ]{1,20})\}")
COMMAND_RE = re.compile(r"\\([A-Za-z]+|.)")
WRAPPED_NAME_RE = re.compile(r"\{\s*([A-Za-z]+)\s*\}")
# \operatorname{atan2}, \operatorname{log2}: a function's name may end in a number (names.py reads
# it as the same name typed plain); the other wrappers take letters only (\mathrm{x2} is refused).
OPERATOR_NAME_RE = re.compile(r"\{\s*([A-Za-z]+[0-9]*)\s*\}")
ENV_RE = re.compile(r"\{([A-Za-z]+\*?)\}")
# The variable of `\partial_x`, `\partial_{x}`, `\partial_{x_l}`, `\partial_{x_{l+1}}`.
PARTIAL_VARIABLE_RE = re.compile(r"_(?:([A-Za-z])|\{\s*([A-Za-z]+(?:_[A-Za-z0-9]|_\{[A-Za-z0-9+\-]{1,20}\})?)\s*\})")
OPERATORS = "+-*/^()[]{},;|'!&=%_"  # "_": the range of \\sum_{i=1}^{n} (names read their own)
LOG = "log"  # its subscript is a base: log_2x is log_2 x
MAXIMA_CONSTANTS = ("pi", "e")


class Token(NamedTuple):  # a tuple: tokens are made in the hot path, and tuples are cheap
    kind: str  # num | name | op | cmd | bigop | dots | begin | end | rowsep | eof
    text: str
    pos: int
    end: int
    space_before: bool = False


# Tokens are made for every character run of every keystroke: building the tuple directly skips
# the NamedTuple's Python-level __new__ (about 0.5 -> 0.15 us per token).
_new_token = tuple.__new__


def tokenize(text: str, knows_run: Callable[[str], bool] | None = None) -> list[Token]:
    """Tokens of normalized text. `knows_run(letters)` says whether a run of letters is a name
    the question knows (names.py); it decides where a glued command splits (`a\\cdotb`)."""
    tokens: list[Token] = []
    append = tokens.append
    i, n = 0, len(text)
    space = False
    while i < n:
        ch = text[i]
        if ch == " ":
            space, i = True, i + 1
            continue
        start = i
        # Operators first: the most common token, and none is a digit, letter or backslash.
        if ch in OPERATORS:
            if ch == "*" and text.startswith("**", i):
                append(_new_token(Token, ("op", "^", start, i + 2, space)))
                i += 2
            elif ch == "%" and text.startswith(MAXIMA_CONSTANTS, i + 1):  # %pi, %e (Maxima)
                name, i = _read_name(text, i + 1)
                if name not in MAXIMA_CONSTANTS:
                    raise ParseError("unexpected_char", start, char=repr("%"))
                append(_new_token(Token, ("name", name, start, i, space)))
            else:
                append(_new_token(Token, ("op", ch, start, i + 1, space)))
                i += 1
        elif ch.isdigit() or (ch == "." and i + 1 < n and text[i + 1].isdigit()):
            m = NUMBER_RE.match(text, i)
            i = m.end()
            append(_new_token(Token, ("num", m.group(0), start, i, space)))
        elif ch.isascii() and ch.isalpha():
            name, i = _read_name(text, i)
            append(_new_token(Token, ("name", name, start, i, space)))
        elif ch == "\\":
            token, i = _read_command(text, i, space, knows_run)
            if token is not None:
                append(token)
        elif ch == "." and text.startswith("...", i):  # a_1 + ... + a_n, as \\cdots
            append(_new_token(Token, ("dots", "⋯", start, i + 3, space)))
            i += 3
        elif ch == "~":  # LaTeX's unbreakable space
            space, i = True, i + 1
            continue
        else:
            raise ParseError("unexpected_char", start, char=repr(ch))
        space = False
    append(_new_token(Token, ("eof", "", n, n, space)))
    return tokens


def _read_name(text: str, i: int) -> tuple[str, int]:
    """A run of letters, plus a subscript `_0`, `_l`, `_{l+1}` that becomes part of the name."""
    m = NAME_RE.match(text, i)
    suffix, end = _read_subscript(text, m.end(), base_of_log=m.group(0) == LOG)
    return m.group(0) + suffix, end


def _read_subscript(text: str, i: int, base_of_log: bool = False) -> tuple[str, int]:
    """`_0`, `_l`, `_{l+1}`. After log an unbraced subscript is a base: a number or one letter
    (`log_2x` is log_2 x, `log_2.5x` is log_{2.5} x, `log_bx` is log_b x, as `log_{2}x`); any
    other base (`\\log_{1/2}`, `\\log_{0.5}`, `log_(10)`, `\\log_\\infty`) is left to the
    parser, which reads it as a formula after the `_`."""
    if i >= len(text) or text[i] != "_":
        return "", i
    braced = BRACED_SUBSCRIPT_RE.match(text, i + 1)
    if braced and (not base_of_log or SIMPLE_LOG_BASE_RE.fullmatch(braced.group(1).strip())):
        return "_" + braced.group(1).replace(" ", ""), braced.end()
    plain = (LOG_BASE_RE if base_of_log else SUBSCRIPT_RE).match(text, i + 1)
    if plain and not braced:
        return "_" + plain.group(0), plain.end()
    if base_of_log:
        return "", i
    raise ParseError("bad_subscript", i)


def _read_command(text: str, i: int, space: bool,
                  knows_run: Callable[[str], bool] | None = None) -> tuple[Token | None, int]:
    m = COMMAND_RE.match(text, i)
    if m is None:
        raise ParseError("unexpected_char", i, char=repr("\\"))
    word, end = m.group(1), m.end()
    if word == "\\":
        return Token("rowsep", "\\\\", i, end, space), end
    if word in ",;:! " or word in LATEX_SKIP:
        return None, end
    if word in LATEX_OPS:
        return Token("op", LATEX_OPS[word], i, end, space), end
    if word in LATEX_DOTS:  # a_1 + \\cdots + a_n: reading/ellipsis.py infers the sum
        return Token("dots", "⋯", i, end, space), end
    if word in ("partial", "nabla") and text[end:].lstrip(" ").startswith("_"):  # ∂_x, ∇_x
        return _partial_with_variable(text, i, len(text) - len(text[end:].lstrip(" ")), space,
                                      word)
    if word in LATEX_NAMES:
        # \lambda_l is the name lambda_l, as lambda_l is (a member when lambda is a family)
        suffix, stop = (_read_subscript(text, end, base_of_log=True) if word == LOG
                        else _read_subscript(text, end) if word in GREEK else ("", end))
        return Token("name", LATEX_NAMES[word] + suffix, i, stop, space), stop
    if word in LATEX_CMDS:
        return Token("cmd", LATEX_CMDS[word], i, end, space), end
    if word in LATEX_BIG_OPERATORS:
        return Token("bigop", LATEX_BIG_OPERATORS[word], i, end, space), end
    if word in LATEX_NAME_WRAPPERS:
        wrapped = (OPERATOR_NAME_RE if word == "operatorname" else WRAPPED_NAME_RE).match(text, end)
        if wrapped is None:
            raise ParseError("bad_command_argument", end, command="\\" + word)
        suffix, stop = _read_subscript(text, wrapped.end())
        name = wrapped.group(1) + suffix
        return Token("name", name, i, stop, space), stop
    if word in ("begin", "end"):
        env = ENV_RE.match(text, end)
        if env is None or env.group(1) not in MATRIX_ENVS:
            raise ParseError("unknown_environment", end, command="\\" + word)
        return Token(word, env.group(1), i, env.end(), space), env.end()
    glued = _glued_command(word, knows_run)
    if glued is not None:  # a\cdotb: \cdot, then b is read as the next name
        return _read_command(text[:i + 1 + glued], i, space)
    raise ParseError("unknown_command", i, command="\\" + word)


# Commands that may be typed glued to the name after them (`2\timesx`, `\alphax`, `\sinx`,
# `\sqrtx`): operators, Greek letters, function names, \frac, \sqrt, \binom, \top.
GLUABLE = frozenset(w for w in (*LATEX_OPS, *LATEX_NAMES, *LATEX_CMDS)
                    if len(w) >= 2 and w.isalpha())


def _glued_command(word: str, knows_run: Callable[[str], bool] | None) -> int | None:
    """The length of the known command `word` starts with, when what follows it is a single
    letter or (with `knows_run`) letters the question knows as names; the longest such command
    (`\\sinhx` is \\sinh x). None when there is none: the command is then refused as typed."""
    for size in range(len(word) - 1, 1, -1):
        rest = word[size:]
        if word[:size] in GLUABLE and (len(rest) == 1 or (knows_run is not None
                                                         and knows_run(rest))):
            return size
    return None


def _partial_with_variable(text: str, i: int, end: int, space: bool,
                          word: str = "partial") -> tuple[Token, int]:
    """`\\partial_x`, `\\partial_{x_l}`: one name token `partial_x`, `partial_x_l` (names.py
    reads it as the operator d/dx; the variable keeps its own subscript). `\\nabla_x` the same
    way, as `nabla_x` (the gradient by a declared vector)."""
    m = PARTIAL_VARIABLE_RE.match(text, end)
    if m is None:
        raise ParseError("bad_subscript", end)
    var = (m.group(1) or m.group(2)).replace("{", "").replace("}", "")
    return Token("name", word + "_" + var, i, m.end(), space), m.end()
