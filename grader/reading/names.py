"""Declarations and the token pre-pass: which names a question knows, derivative notations, and
splitting runs of letters into names.

Names. A run of letters is one name when the question knows it (declared symbols, functions and
matrices, the expected answer's variables, built-in functions and their aliases, e, pi, Greek
letters). Otherwise it is split into a product of known names when it can be written as one:
`Wx` is W·x and `2sinx` is 2·sin(x) when W and x are the question's names, `xalpha` is x·alpha.
A run that cannot be written with known names is never guessed into a product of letters: it
stays one token and the parser refuses it with a message that names it (`foo`, `rate`, `sinc`).
A single letter, alone, is always a variable (a name the question does not use is still graded:
see kinds/expression.py).

Derivatives. `d/dx`, `∂/∂x`, `\\frac{d}{dx}`, `\\frac{\\partial}{\\partial x}` (and `d^2/dx^2`)
become `diffop` tokens. Leibniz notation for a declared function, `dF/dx`, `∂F/∂x`,
`\\frac{dF}{dx}`, `d^2F/dx^2`, becomes the same tokens as `d/dx F(x)`. Leibniz notation for
anything else (`dL/dx` where L is not a declared function) becomes one `leibniz` token: a line
may start with it as a label (`dL/dx = ...`), anywhere else the parser refuses it.

Also here: `x` as a times sign in scientific notation (`9.54x10^-7`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from .lexer import GREEK, Token
from .nodes import BUILTIN_FUNCTIONS, MULTI_ARG_FUNCTIONS

# Read as moment operators only where random variables are declared (reading/moments.py).
MOMENT_WORDS = frozenset(("E", "D", "Var", "Cov"))
SPECIAL_FUNCTIONS = ("diff", "transpose", "root", "nthroot", "factorial", "sum", "prod",
                     "product")
CONSTANTS = ("e", "pi")
NOT_FINITE = ("nan", "inf", "infinity", "infty", "oo", "NaN", "Inf", "Infinity")
NAME_LIMIT = 40

# Other spellings of the built-in functions -> the name in BUILTIN_FUNCTIONS (ISO 80000-2 arsinh,
# C/numpy asin, the older arcsinh, sgn and Maxima's signum, the British cosec and cosech).
FUNCTION_ALIASES = {
    "ln": "log", "sgn": "sign", "signum": "sign", "cosec": "csc", "cosech": "csch",
    "asin": "arcsin", "acos": "arccos", "atan": "arctan",
    "asec": "arcsec", "acsc": "arccsc", "acot": "arccot",
    "arsinh": "asinh", "arcsinh": "asinh", "arcosh": "acosh", "arccosh": "acosh",
    "artanh": "atanh", "arctanh": "atanh", "arsech": "asech", "arcsech": "asech",
    "arcsch": "acsch", "arccsch": "acsch", "arcoth": "acoth", "arccoth": "acoth",
}
# log with a base written as a name: lg is log_10 (ISO 80000-2; 常用对数).
BASE_LOGS = {"lg": "10"}
# Function names that end in a number: the two-argument arctangent atan2(y, x) (C, numpy,
# SymPy, mathjs: y first). Any other built-in name with a number glued to it before a bracket
# is refused as typed (reading/names.py: _numbered_name).
NUMBERED_FUNCTIONS = {"atan2": "atan2", "arctan2": "atan2"}
# Words that are not names but must not be split either: the parser explains them.
NOT_NAMES = ("partial", "nabla")
# Built-in function names, for the glued-number check (`exp2(3)`).
FUNCTION_NAMES = frozenset(BUILTIN_FUNCTIONS + MULTI_ARG_FUNCTIONS + tuple(FUNCTION_ALIASES)
                           + tuple(BASE_LOGS) + SPECIAL_FUNCTIONS)


@dataclass(frozen=True, slots=True)
class Declarations:
    """A question's (or derivation's) names, one field per list of the declaration schema
    (docs/contracts.md): `integers` are integer-valued symbols (bounds, indices); `families`
    make `x_0`, `x_l`, `x_{l+1}` members of `x` (a function family when also in `functions`, a
    matrix family when also in `matrices`); `positive`/`nonnegative` are domains of names
    declared above; `relations` are recursions as text (`x_{l+1} = x_l + F_l(x_l)`), read by
    reading/families.py.

    `vectors` (issue 25) are column vectors (`x`, `b`); a name also in `functions` is a vector
    function of vector arguments (`F` in `x + F(x)`), one also in `families` a family of
    vectors (`x_l`). Their sizes are not declared: values/shapes.py infers them.

    Random variables (issue 25): `random` names are random variables (a family in `random` is
    i.i.d. over its index); `independent` is groups of mutually independent ones; `zero_mean`
    those with mean 0. Declaring any random variable makes E, D, Var and Cov moment operators
    (reading/moments.py)."""

    symbols: frozenset[str] = frozenset()
    functions: frozenset[str] = frozenset()
    matrices: frozenset[str] = frozenset()
    integers: frozenset[str] = frozenset()
    families: frozenset[str] = frozenset()
    positive: frozenset[str] = frozenset()
    nonnegative: frozenset[str] = frozenset()
    relations: tuple[str, ...] = ()
    vectors: frozenset[str] = frozenset()
    # -- random variables (issue 25, the moments part of the schema) --
    random: frozenset[str] = frozenset()
    independent: tuple[frozenset[str], ...] = ()
    zero_mean: frozenset[str] = frozenset()

    @classmethod
    def of(cls, symbols=(), functions=(), matrices=(), *, integers=(), families=(),
           positive=(), nonnegative=(), relations=(), vectors=(), random=(), independent=(),
           zero_mean=()) -> Declarations:
        return cls(frozenset(symbols or ()), frozenset(functions or ()),
                   frozenset(matrices or ()), frozenset(integers or ()),
                   frozenset(families or ()), frozenset(positive or ()),
                   frozenset(nonnegative or ()), tuple(relations or ()),
                   frozenset(vectors or ()),
                   frozenset(random or ()),
                   tuple(frozenset(group) for group in independent or ()),
                   frozenset(zero_mean or ()))

    def with_symbols(self, names) -> Declarations:
        """These declarations plus more plain symbols (the expected answer's variables)."""
        extra = frozenset(names) - self.symbols - self.functions - self.matrices - self.vectors
        return self if not extra else replace(self, symbols=self.symbols | extra)

    @property
    def identity_is_matrix(self) -> bool:
        return bool(self.matrices or self.vectors) and \
            "I" not in self.symbols | self.functions | self.matrices | self.vectors

    # -- vectors (issue 25) ---------------------------------------------------------------------
    @property
    def vector_values(self) -> frozenset[str]:
        """Declared vectors that are values (read as column-vector symbols), not functions."""
        return self.vectors - self.functions

    def is_vector_function(self, name: str) -> bool:
        return name in self.vectors and name in self.functions

    @property
    def matrix_like(self) -> frozenset[str]:
        """Names read as non-commuting symbols: matrices and vectors."""
        return self.matrices | self.vector_values

    @property
    def defined_vectors(self) -> frozenset[str]:
        """Vectors a relation defines (`y` in `y = x + Wx`)."""
        return frozenset(t.partition("=")[0].strip() for t in self.relations) & self.vector_values

    def loss_argument(self, var: str) -> str:
        """The vector a bare scalar function `L` is applied to in `\\nabla_v L` or
        `\\partial L/\\partial v`: the output of the first vector relation (`y` in
        `y = x + Wx`), else v itself (grader/README.md, "Vectors and Jacobians")."""
        for text in self.relations:
            left = text.partition("=")[0].strip()
            if left in self.vector_values:
                return left
        return var

    def vocabulary(self) -> frozenset[str]:
        return _vocabulary(self)

    def knows_run(self, letters: str) -> bool:
        """Whether a run of letters reads as names of this question: one letter (or a Greek
        letter), or a product of known names (`ab` when a and b are the question's)."""
        return is_variable_name(letters) or _segment(letters, self.vocabulary()) is not None


_RESERVED = frozenset(BUILTIN_FUNCTIONS + MULTI_ARG_FUNCTIONS + tuple(FUNCTION_ALIASES)
                      + tuple(BASE_LOGS) + SPECIAL_FUNCTIONS + CONSTANTS + NOT_FINITE
                      + tuple(GREEK) + NOT_NAMES)


@lru_cache(maxsize=1024)
def _vocabulary(decls: Declarations) -> frozenset[str]:
    known = decls.symbols | decls.functions | decls.matrix_like | decls.integers | _RESERVED
    if decls.random:  # Var, Cov, E, D are moment operators (reading/moments.py)
        known |= decls.random | MOMENT_WORDS
    if decls.matrix_like:
        known |= {"T"}  # W^Tg: the transpose mark written against the next name
        if decls.identity_is_matrix:
            known |= {"I"}
    return known


def is_variable_name(name: str) -> bool:
    """A name that can stand for a variable without being declared: one letter or a Greek
    letter, with or without a subscript (t, X, x_0, alpha, theta_1)."""
    base = name.partition("_")[0]
    return len(base) == 1 or base in GREEK


def prepare_tokens(tokens: list[Token], decls: Declarations,
                   notes: set[str] | None = None) -> list[Token]:
    """The pre-pass between the lexer and the parser; `notes` collects reading-note keys."""
    merged = _merge_derivatives(tokens, decls, notes)
    for token in merged:
        if token.kind == "name":
            break
    else:
        return merged  # a plain number or vector: nothing to split
    vocabulary = decls.vocabulary()
    out: list[Token] = []
    i = 0
    while i < len(merged):
        token = merged[i]
        if token.kind == "name" and token.text.lower() in FUNCTION_NAMES \
                and (token.text in FUNCTION_NAMES or token.text not in vocabulary):
            numbered = _numbered_name(merged, i)  # atan2(y, x), ATAN2(y, x), log10(x), exp2(3)
            if numbered is not None:
                out.append(numbered)
                i += 2
                continue
        if token.kind == "name" and token.text not in vocabulary \
                and _numbered_function_name(token.text):
            out.append(_numbered_operator_name(merged, i))  # \operatorname{atan2}(y, x)
            i += 1
            continue
        if token.kind != "name" or token.text in vocabulary:
            out.append(token)
            i += 1
            continue
        if _is_times_sign(merged, i, decls):
            out.append(Token("op", "*", token.pos, token.end, token.space_before))
            if notes is not None:
                notes.add("note_x_as_times")
        else:
            out.extend(_split_name(token, vocabulary))
        i += 1
    return out


def _numbered_name(tokens: list[Token], i: int) -> Token | None:
    """A function's name at i with a whole number glued to it and a bracket after, `log10(x)`,
    `atan2(y, x)`, `exp2(3)`, as one name token (None otherwise). `log2`, `log10` (numpy's and
    C's names) become log_2, log_10; `atan2`, `arctan2` the two-argument arctangent; any other
    (`exp2`, `sin2(x)`) stays one name that the parser refuses as typed, never the product
    exp·2·3 it would otherwise read silently."""
    if i + 2 >= len(tokens):
        return None
    t, number, bracket = tokens[i], tokens[i + 1], tokens[i + 2]
    if number.kind != "num" or not number.text.isdigit() or number.space_before:
        return None
    name = t.text + number.text  # in any case, as function names are (ATAN2, Log10)
    if bracket.kind == "name" and name.lower() in ("log2", "log10"):
        # log2x, log2 x: log_2(x) in numpy's spelling, or log(2x), log(2)·x? The parser asks
        # (numbered_log); as typed, log 2 x is read as log(2)·x.
        return Token("name", name, t.pos, number.end, t.space_before)
    if bracket.text != "(":
        return None
    return Token("name", _function_with_number(name, not bracket.space_before), t.pos,
                 number.end, t.space_before)


def _function_with_number(name: str, bracket_follows: bool) -> str:
    """The name `log2`, `log10` (before a bracket: `log_2`, `log_10`), `atan2`, `arctan2` reads
    as; any other stays as typed, for the parser to refuse."""
    if bracket_follows and name.lower() in ("log2", "log10"):
        return "log_" + name[3:]
    return NUMBERED_FUNCTIONS.get(name.lower(), name)


def _numbered_function_name(text: str) -> bool:
    """A function's name with a number glued to it as one token (only `\\operatorname{atan2}`
    makes one: typed plain, `atan2` is a name and a number)."""
    letters = text.rstrip("0123456789")
    return letters != text and letters.isalpha() and letters.lower() in FUNCTION_NAMES


def _numbered_operator_name(tokens: list[Token], i: int) -> Token:
    """`\\operatorname{atan2}`, `\\operatorname{log2}` (one name token from the lexer) read as the
    same name typed plain before a bracket: the two-argument arctangent, log_2; any other
    (`\\operatorname{exp2}`) stays one name that the parser refuses as typed."""
    t = tokens[i]
    bracket_follows = i + 1 < len(tokens) and tokens[i + 1].text == "("
    return Token("name", _function_with_number(t.text, bracket_follows), t.pos, t.end,
                 t.space_before)


def _is_times_sign(tokens: list[Token], i: int, decls: Declarations) -> bool:
    """`9.54x10^-7`, `2 x 10^3`: an undeclared x between a number and a power of ten."""
    text = tokens[i].text
    if text not in ("x", "X") or text in decls.symbols or text in decls.matrix_like \
            or text in decls.functions or i == 0 or i + 2 >= len(tokens):
        return False
    before, ten, caret = tokens[i - 1], tokens[i + 1], tokens[i + 2]
    return before.kind == "num" and ten.kind == "num" and ten.text == "10" \
        and caret.kind == "op" and caret.text == "^"


def _split_name(token: Token, vocabulary: frozenset[str]) -> list[Token]:
    """Known names for the run of letters (subscript kept on the last piece), or the token
    unchanged when it cannot be written with known names (the parser then names it)."""
    text = token.text
    if is_variable_name(text):
        return [token]
    base, sep, subscript = text.partition("_")
    pieces = _segment(base, vocabulary)
    if pieces is None:
        return [token]
    if sep:
        pieces[-1] = pieces[-1] + "_" + subscript
        if pieces[-1] not in vocabulary and not is_variable_name(pieces[-1]):
            return [token]
    out = []
    pos = token.pos
    for k, piece in enumerate(pieces):
        width = len(piece) if k < len(pieces) - 1 else token.end - pos
        out.append(Token("name", piece, pos, pos + width, token.space_before and k == 0))
        pos += width
    return out


def _segment(word: str, vocabulary: frozenset[str]) -> list[str] | None:
    """Split `word` into known names, longest names first (`sinx` -> sin x, not s i n x), or
    None when no split uses known names only. One pass from the end: best[i] is a split of
    word[i:], so the work is linear in the length (at most NAME_LIMIT letters per piece)."""
    n = len(word)
    longest = _longest_name(vocabulary)
    best: list[list[str] | None] = [None] * n + [[]]
    for i in range(n - 1, -1, -1):
        for size in range(min(longest, n - i), 0, -1):
            rest = best[i + size]
            if rest is not None and word[i:i + size] in vocabulary:
                best[i] = [word[i:i + size], *rest]
                break
    return best[0]


@lru_cache(maxsize=1024)
def _longest_name(vocabulary: frozenset[str]) -> int:
    """Computed once per vocabulary (a frozenset caches its hash), not once per word."""
    return min(max(map(len, vocabulary), default=1), NAME_LIMIT)


# -- derivative notations ------------------------------------------------------------------------

_DIFF_WORDS = ("d", "partial")
MAX_WRITTEN_ORDER = 99  # d^99/dx^99 is read, for the parser to refuse with its own limit


@dataclass(frozen=True, slots=True)
class _Derivative:
    """A derivative notation found at some token: d^order (of `function` or `body`) / d vars.

    `variables` has one entry per order (`\\partial^2 F / \\partial x \\partial W`: x, W)."""

    length: int  # tokens it spans
    variables: tuple[str, ...]
    function: str | None  # dF/dx: "F"; d/dx: None
    body: tuple[Token, ...] = ()  # \\frac{\\partial F(x, W)}{\\partial x}: the tokens of F(x, W)

    @property
    def var(self) -> str:
        return self.variables[0]

    @property
    def order(self) -> int:
        return len(self.variables)


def _merge_derivatives(tokens: list[Token], decls: Declarations,
                       notes: set[str] | None) -> list[Token]:
    for t in tokens:  # a loop, not any(): this runs on every answer
        if t.kind == "name" and (t.text[0] == "d" or t.text.startswith(("partial", "nabla_"))) \
                or t.text == "frac":
            break
    else:
        return tokens
    vocabulary = decls.vocabulary()
    out: list[Token] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t.kind == "name" and t.text.startswith("partial_"):  # \\partial_x F(x, W)
            out.append(Token("diffop", t.text[len("partial_"):], t.pos, t.end, t.space_before))
            i += 1
            continue
        if t.kind == "name" and t.text.startswith("nabla_"):  # \\nabla_x L: the gradient by x
            out.append(Token("gradop", t.text[len("nabla_"):], t.pos, t.end, t.space_before))
            i += 1
            continue
        found = _derivative_at(tokens, i, vocabulary)
        if found is None:
            out.append(t)
            i += 1
            continue
        out.extend(_derivative_tokens(found, tokens, i, decls, notes))
        i += found.length
    return out


def _derivative_tokens(found: _Derivative, tokens: list[Token], i: int, decls: Declarations,
                       notes: set[str] | None) -> list[Token]:
    """The tokens a derivative notation becomes: `d/dx F(x)`'s for what can be differentiated,
    else one `leibniz` token (a label at the start of a line, refused anywhere else)."""
    first, last = tokens[i], tokens[i + found.length - 1]
    label = i == 0 and tokens[i + found.length].text in ("=", "≈")
    operators = [Token("diffop", var, first.pos, last.end, first.space_before)
                 for var in found.variables]
    if found.function is None and not found.body:
        return operators
    at, end = first.pos, last.end
    if found.body and not label:
        # \\frac{\\partial F(x, W)}{\\partial x}, \\frac{\\partial x}{\\partial x}: d/dx of what the
        # numerator says, bracketed so the operator takes all of it.
        if notes is not None:
            notes.add("note_leibniz_expression")
        # The numerator may hold derivatives of its own (\\frac{\\partial \\frac{\\partial F}{…}}{…}).
        body = _merge_derivatives([*found.body, Token("eof", "", end, end)], decls, notes)[:-1]
        # the whole fraction bracketed too: it is one factor (by a vector, an operator d/dx
        # takes the whole product after it; a fraction takes only its numerator)
        return [Token("op", "(", at, at), *operators, Token("op", "(", at, at), *body,
                Token("op", ")", end, end), Token("op", ")", end, end)]
    if found.function in decls.functions and not label and len(set(found.variables)) == 1:
        # dF/dx is d/dx F(x): the same tokens, so it is read (and checked) the same way.
        if notes is not None:
            notes.add("note_leibniz")
        # ∂L/∂y of a scalar function of vectors is L at the vector decls.loss_argument names.
        argument = decls.loss_argument(found.var) if found.var in decls.vector_values \
            and not decls.is_vector_function(found.function) else found.var
        return [Token("op", "(", at, at), *operators, Token("name", found.function, at, end),
                Token("op", "(", at, end), Token("name", argument, at, end),
                Token("op", ")", at, end), Token("op", ")", end, end)]
    numerator = found.function or "".join(t.text for t in found.body)
    text = f"{numerator}/{found.var}"
    return [Token("leibniz", text, first.pos, last.end, first.space_before)]


def _derivative_at(tokens: list[Token], i: int,
                   vocabulary: frozenset[str]) -> _Derivative | None:
    """`num / den` or `\\frac{num}{den}` where num is d, d^n, dF, d^nF (d or ∂), or (in \\frac, or
    before a slash when it is a call) d^n followed by any expression: `\\partial F(x, W)`,
    `\\partial x`, `d (x + F(x))`; den is dx, d x, dx^n, or several: `\\partial x \\partial W`
    (the same d or ∂, orders adding up to the numerator's)."""
    t = tokens[i]
    if t.kind == "cmd" and t.text == "frac":
        if not _is_op(tokens, i + 1, "{"):
            return None
        top = _numerator(tokens, i + 2, vocabulary, closer="}")
        if top is None or not _is_op(tokens, top[0], "}") or not _is_op(tokens, top[0] + 1, "{"):
            return None
        bottom = _denominator(tokens, top[0] + 2, top[1], top[2], vocabulary, several=True)
        if bottom is None or not _is_op(tokens, bottom[0], "}"):
            return None
        return _leibniz(tokens, bottom[0] + 1 - i, bottom[1], top)
    top = _numerator(tokens, i, vocabulary, closer="/")
    if top is None or not _is_op(tokens, top[0], "/"):
        return None
    bottom = _denominator(tokens, top[0] + 1, top[1], top[2], vocabulary, several=False)
    if bottom is None:
        return None
    return _leibniz(tokens, bottom[0] - i, bottom[1], top)


def _leibniz(tokens: list[Token], length: int, variables: tuple[str, ...],
             top: tuple[int, str, int, str | None, tuple[Token, ...]]) -> _Derivative:
    function, body = top[3], top[4]
    if function is not None and set(variables) == {function}:
        body, function = (Token("name", function, 0, 0),), None  # ∂x/∂x: d/dx of x itself
    return _Derivative(length, variables, function, body)


def _numerator(tokens: list[Token], i: int, vocabulary: frozenset[str], closer: str,
               ) -> tuple[int, str, int, str | None, tuple[Token, ...]] | None:
    """(next index, d word, order, function name or None, body tokens) for d, d^n, dF, d F,
    d^nF, ∂F, and d^n before an expression (`\\partial F(x, W)` up to the closing brace in
    \\frac; only a call such as `∂F(x)` before a slash)."""
    t = _token(tokens, i)
    if t is None or t.kind != "name":
        return None
    if t.text in _DIFF_WORDS:
        word, j = t.text, i + 1
        order, j = _order(tokens, j)
        if order < 1:  # d^x, d^{99}: not a derivative written out (the parser then explains)
            return None
        name = _token(tokens, j)
        if name is not None and name.kind == "name" and not _is_op(tokens, j + 1, "(") \
                and _is_op(tokens, j + 1, closer):
            return j + 1, word, order, name.text, ()
        if _is_op(tokens, j, closer):
            return j, word, order, None, ()
        stop = _body_end(tokens, j, closer)
        if stop is None or stop == j:
            return None
        return stop, word, order, None, tuple(tokens[j:stop])
    rest = _after_d(t, vocabulary)
    if rest is not None and _is_op(tokens, i + 1, "("):
        # dF(x) written as one run of letters: d then the call F(x), as `d F(x)`
        call = [Token("name", rest, t.pos + 1, t.end, False), *tokens[i + 1:]]
        stop = _body_end(call, 0, closer)
        if stop is None:
            return None
        return i + stop - 1 + 1, "d", 1, None, tuple(call[:stop])
    if rest is not None and not _is_op(tokens, i + 1, "^"):
        return i + 1, "d", 1, rest, ()  # dF, dL: one token
    return None


def _body_end(tokens: list[Token], j: int, closer: str) -> int | None:
    """Where the expression of a numerator ends: at the `}` that closes \\frac's numerator, or
    (before a slash) right after a call `F(...)`; None when it does not end there."""
    if closer == "/":
        name = _token(tokens, j)
        if name is None or name.kind != "name" or not _is_op(tokens, j + 1, "("):
            return None
        depth, k = 0, j + 1
        while k < len(tokens):
            text = tokens[k].text if tokens[k].kind == "op" else ""
            depth += (text == "(") - (text == ")")
            if depth == 0:
                return k + 1
            k += 1
        return None
    depth = 0
    for k in range(j, len(tokens)):
        token = tokens[k]
        if token.kind == "eof":
            return None
        if token.kind == "op" and token.text in "{}":
            if token.text == "}" and depth == 0:
                return k
            depth += 1 if token.text == "{" else -1
    return None


def _after_d(t: Token, vocabulary: frozenset[str]) -> str | None:
    """F for a token dF that is not itself a known name (delta, diff are names)."""
    if not t.text.startswith("d") or len(t.text) < 2 or t.text in vocabulary:
        return None
    rest = t.text[1:]
    return rest if rest in vocabulary or is_variable_name(rest) else None


def _denominator(tokens: list[Token], i: int, word: str, order: int,
                 vocabulary: frozenset[str], several: bool,
                 ) -> tuple[int, tuple[str, ...]] | None:
    """(next index, one variable per order) for dx, d x, ∂x, ∂ x, each with ^n, and (in \\frac)
    several of them, `\\partial x \\partial W`, whose orders add up to the numerator's."""
    variables: list[str] = []
    j = i
    while len(variables) < order:
        t = _token(tokens, j)
        if t is None or t.kind != "name":
            return None
        if t.text == word:
            var_token = _token(tokens, j + 1)
            if var_token is None or var_token.kind != "name":
                return None
            var, j = var_token.text, j + 2
        elif word == "d" and _after_d(t, vocabulary) is not None:
            var, j = t.text[1:], j + 1
        else:
            return None
        written, j = _order(tokens, j)
        if written < 1:
            return None
        variables += [var] * written
        if not several and len(variables) != order:
            return None
    return (j, tuple(variables)) if len(variables) == order else None


def _order(tokens: list[Token], j: int) -> tuple[int, int]:
    """(order, next index): `^2`, `^{2}`, `^(2)` after a d, or 1 when there is none."""
    if not _is_op(tokens, j, "^"):
        return 1, j
    inner = _token(tokens, j + 1)
    if inner is not None and inner.kind == "num" and inner.text.isdigit():
        return _checked_order(inner.text), j + 2
    if inner is not None and inner.kind == "op" and inner.text in "{(":
        digit, close = _token(tokens, j + 2), _token(tokens, j + 3)
        if digit is not None and digit.kind == "num" and digit.text.isdigit() \
                and close is not None and close.text in "})":
            return _checked_order(digit.text), j + 4
    return -1, j  # an order that is not a plain whole number: no derivative notation here


def _checked_order(text: str) -> int:
    """A written order, or -1 past MAX_WRITTEN_ORDER (the parser's own limit is lower)."""
    value = int(text) if len(text) <= 2 else -1
    return value if 1 <= value <= MAX_WRITTEN_ORDER else -1


def _token(tokens: list[Token], i: int) -> Token | None:
    return tokens[i] if i < len(tokens) else None


def _is_op(tokens: list[Token], i: int, text: str) -> bool:
    t = _token(tokens, i)
    return t is not None and t.kind == "op" and t.text == text
