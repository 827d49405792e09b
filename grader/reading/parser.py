"""Recursive-descent parser from tokens to the allowlisted tree, with containment limits.

Grammar (loosest first):  list := sum (',' sum)*   sum := term (('+'|'-') term)*
(one `±`/`∓` between the terms of the whole answer makes it a pair of values: `pair`)
term := unary (('*'|'/'|implicit) unary)*   unary := ('-'|'+') unary | power
power := postfix ('^' exponent)?   exponent := '-' exponent | postfix
postfix := primary ("'" | '!')*
primary := number | name | call | d/dx primary | (list) | {list} | |sum| | [rows] | \\frac{}{}
           | \\sqrt[n]{} | \\begin{bmatrix} ... \\end{bmatrix}
Limits (depth, nodes, numbers, exponents, derivative orders) are checked while the tree is
built, before anything is evaluated. Typing slips (`2 e5`, `3.2.2`, an open bracket) are
refused by reading/typos.py, on the tokens, with their own messages. `parse` tries
plain_numbers.py first: plain numbers and lists of them (the commonest answers) get the same
tree there without the token stream.

This runs for every keystroke and every answer, so the hot path is written for CPython: the
current token is a plain attribute (kept in step with the index by `take`/`skip`), power,
postfix and primary are one call, and the depth limit is checked inline.
"""

from __future__ import annotations

import math

from ..errors import LimitError, ParseError
from .constant import constant_value
from .ellipsis import infer_series
from .lexer import GREEK, Token, tokenize
from .limits import (
    MAX_DEPTH,
    MAX_DIFF_ORDER,
    MAX_EXPONENT,
    MAX_LENGTH,
    MAX_NODES,
    MAX_REREADS,
    check_binomial,
    check_exponent,
    check_factorial,
    number_value,
)
from .moments import parse_moment, starts_moment
from .names import (
    BASE_LOGS,
    CONSTANTS,
    FUNCTION_ALIASES,
    NOT_FINITE,
    Declarations,
    is_variable_name,
    prepare_tokens,
)
from .nodes import (
    BUILTIN_FUNCTIONS,
    DECLARABLE_FUNCTIONS,
    Add,
    Apply,
    Const,
    Diff,
    Div,
    Factorial,
    Func,
    FuncN,
    Ident,
    Matrix,
    MatSym,
    Member,
    Mul,
    Neg,
    Node,
    Num,
    Pow,
    Sym,
    Transpose,
    is_constant,
    walk,
)
from .normalize import normalize
from .plain_numbers import DECIMAL_COMMA_RE, parse_plain_numbers
from .series import SERIES_OPS, SERIES_SIGNS, make_series
from .typos import refuse_number_slips, unbalanced_brackets

IMPLICIT_STARTS = {"num", "name", "diffop", "gradop", "leibniz", "cmd", "bigop", "begin"}
NO_DECLARATIONS = Declarations()
LEFT_SIDES = ("=", "≈")  # "L = 1.25", "≈ 0.333": what a line says, after its label
# sin^-1 x is arcsin x (ISO 80000-2, Stewart 1.6): the inverse function, not 1/sin x.
INVERSE_FUNCTIONS = {
    "sin": "arcsin", "cos": "arccos", "tan": "arctan", "sec": "arcsec", "csc": "arccsc",
    "cot": "arccot", "sinh": "asinh", "cosh": "acosh", "tanh": "atanh", "sech": "asech",
    "csch": "acsch", "coth": "acoth",
}
EXTREMA = ("max", "min")
EULER_CAPITAL = "E"
PLUS_MINUS = ("±", "∓")
ROOT_NAMES = ("root", "nthroot")  # root(x, n) as SymPy and Maxima; nthroot(x, n) as mathjs, Doenet
TEN = Num(10.0, "10")
INDEX_NODES = (Num, Sym, Add, Neg, Mul)  # what the index of a family member may be made of


def parse(text: str, decls: Declarations = NO_DECLARATIONS,
          space_vectors: bool = False) -> tuple[Node, object]:
    """Parse learner text; returns (tree, normalized text). Raises ParseError / LimitError.

    `space_vectors` (numeric answers): "2.1 2.8" at the top level is a vector, not a product.
    """
    node, norm, _ = parse_with_notes(text, decls, space_vectors)
    return node, norm


def parse_with_notes(text: str, decls: Declarations = NO_DECLARATIONS,
                     space_vectors: bool = False) -> tuple[Node, object, tuple[str, ...]]:
    """`parse`, plus message keys for readings that are easy to misjudge (`1/2x` is (1/2)·x),
    for the "interpreted as" preview and a wrong answer's feedback."""
    if len(text) > MAX_LENGTH:
        raise LimitError("too_long", 0, limit=MAX_LENGTH)
    norm = normalize(text)
    plain = parse_plain_numbers(norm.text, space_vectors)
    if plain is not None:
        if "," in norm.text and DECIMAL_COMMA_RE.fullmatch(norm.text):
            return plain, norm, ("note_decimal_comma",)  # 1,5 is read as 1 and 5
        return plain, norm, ()
    node, notes = parse_tokens(norm.text, decls, space_vectors)
    return node, norm, notes


def parse_tokens(text: str, decls: Declarations = NO_DECLARATIONS,
                 space_vectors: bool = False) -> tuple[Node, tuple[str, ...]]:
    """The full parser on normalized text (no fast path): (tree, reading-note keys)."""
    notes: set[str] = set()
    tokens = tokenize(text, decls.knows_run)
    refuse_number_slips(tokens, text, spaced_entries=space_vectors)  # 2 e5, 3.2.2, 1 000
    parser = Parser(prepare_tokens(tokens, decls, notes), decls, space_vectors)
    parser.notes |= notes
    try:
        node = parser.parse_all()
    except LimitError:
        raise
    except ParseError as err:
        if err.key == "incomplete":  # `2*(x+`: the missing term is the first thing to say
            raise
        # An open or stray bracket is named where it is, not where the parser gave up.
        raise unbalanced_brackets(tokens, text) or err from None
    return node, tuple(sorted(parser.notes))


class Parser:
    def __init__(self, tokens: list[Token], decls: Declarations,
                 space_vectors: bool = False) -> None:
        self.tokens, self.decls, self.i = tokens, decls, 0
        self.tok = tokens[0]  # always tokens[i]; the list ends with an eof token
        self.space_vectors = space_vectors
        self.depth = self.nodes = 0
        self.abs_depth = 0
        self.norm_depth = 0  # inside \\|v\\|, a `‖` closes the norm instead of starting one
        self.space_mode = [False]  # inside `[1 2; 3 4]` a space separates entries
        self.notes: set[str] = set()  # readings worth telling the learner (parse_with_notes)
        self.replaced: list[tuple[int, Token]] = []  # (index, token it replaced): rewind()
        self.rereads = 0  # brackets read a second time (parse_brackets)
        self.top_items = False  # the whole answer is a list (a, b): ± makes no pair there

    # -- the token cursor and the limits --------------------------------------------------------
    def peek(self, offset: int = 1) -> Token:
        return self.tokens[min(self.i + offset, len(self.tokens) - 1)]

    def at(self, kind: str, text: str | None = None) -> bool:
        tok = self.tok
        return tok.kind == kind and (text is None or tok.text == text)

    def take(self) -> Token:
        token = self.tok
        if token.kind != "eof":  # the eof token stays current
            self.i += 1
            self.tok = self.tokens[self.i]
        return token

    def skip(self, count: int) -> None:
        self.i += count
        self.tok = self.tokens[self.i]

    def replace_current(self, token: Token) -> None:
        self.replaced.append((self.i, self.tok))  # undone by rewind()
        self.tokens[self.i] = self.tok = token

    def expect(self, text: str, opener: Token | None = None) -> Token:
        tok = self.tok
        if tok.text != text or tok.kind not in ("op", "end"):
            if tok.kind == "eof":
                raise ParseError("unexpected_end", tok.pos, expected=text)
            raise ParseError("expected", tok.pos, expected=text, found=tok.text)
        return self.take()

    def make(self, node: Node) -> Node:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise LimitError("too_many_nodes", self.tok.pos, limit=MAX_NODES)
        return node

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise LimitError("too_deep", self.tok.pos, limit=MAX_DEPTH)

    # -- lists, sums, terms and powers ----------------------------------------------------------
    def parse_all(self) -> Node:
        tok, after = self.tok, self.peek()
        if tok.kind == "op" and tok.text in LEFT_SIDES:  # a derivation line may start with "="
            self.take()
        elif (tok.kind in ("name", "leibniz") and after.kind == "op" and after.text in LEFT_SIDES
              and len(self.tokens) > 3):
            self.skip(2)  # "L = 1.25", "dL/dx = g": the value after a named left side
            tok = after
        if tok.text == "≈" and tok.kind == "op":
            self.notes.add("note_approximate")  # a derivation checks it with a tolerance
        if self.tok.kind == "eof":
            raise ParseError("empty", self.tok.pos)
        if self.space_vectors and self.space_separated_numbers():
            self.space_mode[0] = True  # "2.1 2.8" is a vector, as in [2.1 2.8]
            items = [self.parse_sum()]
            while self.tok.kind != "eof":
                items.append(self.parse_sum())
        else:
            items = self.parse_list()
        if self.tok.kind != "eof":
            raise ParseError("unexpected_token", self.tok.pos, found=self.tok.text)
        return items[0] if len(items) == 1 else self.make(Matrix((tuple(items),)))

    def space_separated_numbers(self) -> bool:
        """True when the top level has no commas and two numbers are separated by a space."""
        toks = self.tokens
        spaced = False
        for t in toks:
            if t.kind == "op" and t.text in ",[]()":
                return False
            spaced = spaced or t.space_before
        if not spaced:  # no space anywhere (`5/4`, `2^40`): nothing separates two numbers
            return False
        for a, b, c in zip(toks, toks[1:], toks[2:] + toks[-1:], strict=False):
            if a.kind == "num" and b.space_before and (
                    b.kind == "num" or (b.text == "-" and c.kind == "num" and not c.space_before)):
                return True
        return False

    def parse_list(self) -> list[Node]:
        top = self.depth == 0 and not self.top_items
        items = [self.parse_sum()]
        while self.tok.kind == "op" and self.tok.text == ",":
            if top:
                self.top_items = True  # `1 ± 2, 3`: a ± in a list of values is no pair
                if "note_plus_minus" in self.notes:
                    raise ParseError("plus_minus_inside", self.tok.pos)
            self.take()
            items.append(self.parse_sum())
        return items

    def parse_sum(self) -> Node:
        tok = self.tok
        paired = None  # (index of the term written after ±, the sign it has first)
        if tok.kind == "op" and tok.text in PLUS_MINUS:  # ±√2
            paired = self.plus_minus(tok, 0)
        first = self.parse_term()
        tok = self.tok
        if tok.kind != "op" or tok.text not in "+-±∓":
            return first if paired is None else self.pair(paired, [first])
        terms = [first]
        while tok.kind == "op" and tok.text in "+-±∓" and not self.entry_boundary():
            if tok.text in PLUS_MINUS:
                if paired is not None:
                    raise ParseError("plus_minus_inside", tok.pos)
                paired = self.plus_minus(tok, len(terms))
                terms.append(self.parse_term())
                tok = self.tok
                continue
            self.take()
            if tok.text == "+" and self.tok.kind == "dots":  # a_1 + a_2 + ⋯ + a_n
                terms = self.sum_with_dots(terms)
                tok = self.tok
                continue
            term = self.parse_term()
            terms.append(term if tok.text == "+" else self.make(Neg(term)))
            tok = self.tok
        if paired is not None:
            return self.pair(paired, terms)
        return terms[0] if len(terms) == 1 else self.make(Add(tuple(terms)))

    # -- ± (issue 29): a pair of values, read only between the terms of the whole answer --------
    def plus_minus(self, tok: Token, index: int) -> tuple[int, int]:
        """At `±` or `∓`: (the index of the term after it, +1 or -1 for its first sign)."""
        if self.depth or self.top_items:  # inside brackets, an exponent, a list: no pair
            raise ParseError("plus_minus_inside", tok.pos)
        self.take()
        return index, 1 if tok.text == "±" else -1

    def pair(self, paired: tuple[int, int], terms: list[Node]) -> Node:
        """`1 ± √2` is the pair [1 + √2, 1 - √2] (`∓`: the other order); the grading kind
        decides whether the question wants a pair (kinds/expression.py)."""
        index, sign = paired
        values = []
        for first in (sign, -sign):
            term = terms[index] if first > 0 else self.make(Neg(terms[index]))
            chosen = [*terms[:index], term, *terms[index + 1:]]
            values.append(chosen[0] if len(chosen) == 1 else self.make(Add(tuple(chosen))))
        self.notes.add("note_plus_minus")
        return self.make(Matrix((tuple(values),)))

    # -- a sum or product written with ⋯ (reading/ellipsis.py) ---------------------------------
    def sum_with_dots(self, terms: list[Node]) -> list[Node]:
        """After `+ ⋯`: `+ last`; the terms with the inferred sum in place of the pattern."""
        dots = self.take()
        if not self.at("op", "+"):
            raise ParseError("dots_needs_last", dots.pos)
        self.take()
        last = self.parse_term()
        before, series = infer_series("sum", terms, last, dots.pos)
        return [*before, self.make(series)]

    def product_with_dots(self, factors: list[Node]) -> list[Node]:
        """At `⋯` between factors (`\\cdot ⋯ \\cdot` too): the last factor, and the factors
        with the inferred product in place of the pattern."""
        dots = self.take()
        if self.at("op", "*"):
            self.take()
        if self.tok.kind == "eof" or (self.tok.kind == "op" and self.tok.text not in "([{|"):
            raise ParseError("dots_needs_last", dots.pos)
        last = self.parse_power()
        before, series = infer_series("prod", factors, last, dots.pos)
        return [*before, self.make(series)]

    def entry_boundary(self) -> bool:
        """In `[1 -2]` the minus starts a new entry; in `[1 - 2]` it subtracts."""
        return self.space_mode[-1] and self.tok.space_before and not self.peek().space_before

    def parse_term(self) -> Node:
        first = self.parse_unary()
        t = self.tok
        if t.kind == "op" and t.text not in "*/([{|‖":
            return first  # a single factor: the common case, no list to build
        factors = [first]
        divided = False  # the last explicit operator was "/"
        while True:
            t = self.tok
            kind = t.kind
            if kind == "dots":
                factors = self.product_with_dots(factors)
                continue
            if kind == "op":
                if t.text == "*" and self.peek().kind == "dots":  # a \\cdot ⋯ \\cdot b
                    self.take()
                    continue
                if t.text in "*/":
                    self.take()
                    right = self.parse_unary()
                    divided = t.text == "/"
                    if divided:
                        left = factors.pop() if len(factors) == 1 else self.make(Mul(tuple(factors)))
                        factors = [self.make(Div(left, right))]
                    else:
                        factors.append(right)
                    continue
                if t.text not in "([{|‖":
                    break  # , ] ) + - ^ ...: the term ends here (the common case)
            elif kind not in IMPLICIT_STARTS:
                break  # eof, end of an environment, row separator
            if not self.starts_implicit_factor():
                break
            if divided:
                self.notes.add("note_division_then_product")  # 1/2x is (1/2)·x, not 1/(2x)
            factors.append(self.parse_power())
        return factors[0] if len(factors) == 1 else self.make(Mul(tuple(factors)))

    def starts_implicit_factor(self) -> bool:
        t = self.tok
        if self.space_mode[-1] and t.space_before:
            return False
        if t.kind in IMPLICIT_STARTS:
            return not (t.kind == "cmd" and t.text == "top")
        if t.kind == "op":
            return t.text in "([{" or (t.text == "|" and self.abs_depth == 0) \
                or (t.text == "‖" and self.norm_depth == 0)
        return False

    def parse_unary(self) -> Node:
        tok = self.tok
        self.depth += 1  # enter(), inline: this runs for every factor
        if self.depth > MAX_DEPTH:
            raise LimitError("too_deep", tok.pos, limit=MAX_DEPTH)
        try:
            if tok.kind == "op" and tok.text in "+-":
                self.take()
                arg = self.parse_unary()
                return arg if tok.text == "+" else self.make(Neg(arg))
            return self.parse_power()
        finally:
            self.depth -= 1

    def parse_power(self) -> Node:
        """power, postfix and primary in one call (primary keeps its own depth level)."""
        tok = self.tok
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise LimitError("too_deep", tok.pos, limit=MAX_DEPTH)
        try:
            if tok.kind == "num":
                self.take()
                node = number_value(tok)
                self.nodes += 1  # make(), inline: most nodes are numbers
                if self.nodes > MAX_NODES:
                    raise LimitError("too_many_nodes", self.tok.pos, limit=MAX_NODES)
                if self.tok.text == "%" and self.tok.kind == "op":
                    node = self.percent(node)
            else:
                node = self.parse_atom()
        finally:
            self.depth -= 1
        tok = self.tok
        if tok.kind != "op":
            return node
        if tok.text in "'!":
            node = self.parse_postfix_marks(node)
            tok = self.tok
            if tok.kind != "op":
                return node
        if tok.text != "^":
            return node
        caret = self.take()
        if self.is_transpose_mark():
            return self.make(Transpose(node))
        exponent = self.parse_exponent()
        check_exponent(node, exponent, caret.pos)
        return self.make(Pow(node, exponent))

    def percent(self, number: Num) -> Node:
        """12.5% is 12.5/100 (only right after a number)."""
        self.take()
        self.notes.add("note_percent")
        return self.make(Div(number, self.make(Num(100.0, "100"))))

    def parse_postfix_marks(self, node: Node) -> Node:
        tok = self.tok
        while tok.kind == "op" and tok.text in "'!":
            self.take()
            if tok.text == "!":
                check_factorial(node, tok.pos)
                node = self.make(Factorial(node))
            elif isinstance(node, Num | Sym | Const):
                raise ParseError("prime_needs_function", tok.pos)
            else:
                node = self.make(Transpose(node))
            tok = self.tok
        return node

    def is_transpose_mark(self) -> bool:
        """`^T`, `^{T}`, `^(T)`, `^\\top`, `^{\\top}`: T is a transpose unless declared."""
        t = self.tok
        t_is_name = t.kind == "name" and t.text == "T" and "T" not in self.decls.symbols
        if t_is_name or (t.kind == "cmd" and t.text == "top"):
            self.take()
            return True
        if t.kind == "op" and t.text in "{(":
            inner, close = self.peek(), self.peek(2)
            inner_is_t = (inner.kind == "name" and inner.text == "T"
                          and "T" not in self.decls.symbols) or inner.kind == "cmd" and inner.text == "top"
            if inner_is_t and close.kind == "op" and close.text in "})":
                self.skip(3)
                return True
        return False

    def parse_exponent(self) -> Node:
        self.enter()
        try:
            if self.tok.kind == "op" and self.tok.text in "+-":
                op = self.take()
                arg = self.parse_exponent()
                return arg if op.text == "+" else self.make(Neg(arg))
            return self.parse_power()
        finally:
            self.depth -= 1

    # -- atoms: names, calls and derivatives ----------------------------------------------------
    def parse_atom(self) -> Node:
        t = self.tok
        if t.kind == "num":
            return self.make(number_value(self.take()))
        if t.kind == "name":
            return self.parse_name()
        if t.kind == "leibniz":
            derivative = self.member_leibniz(t) or self.leibniz_of_value(t)
            if derivative is not None:
                return derivative
            function, _, var = t.text.partition("/")
            raise ParseError("leibniz_undeclared", t.pos, function=function, var=var)
        if t.kind == "diffop":
            self.take()
            order = 1
            while self.tok.kind == "diffop" and self.tok.text == t.text:  # d^2/dx^2
                self.take()
                order += 1
            # by a declared vector, the operator takes the whole product after it, as \nabla_x
            # does (`\frac{\partial}{\partial x} V(Wx + b)`); by a scalar, the next factor
            operand = self.parse_term() if t.text in self.decls.vector_values \
                else self.parse_power()
            return self.make_diff(operand, t.text, order, t)
        if t.kind == "gradop":
            return self.parse_gradient()
        if t.kind == "cmd":
            return self.parse_command()
        if t.kind == "bigop":
            return self.parse_series()
        if t.kind == "begin":
            return self.parse_environment()
        if t.kind == "op":
            if t.text in "({":
                return self.parse_group()
            if t.text == "[":
                return self.parse_brackets()
            if t.text == "|":
                return self.parse_abs()
            if t.text == "‖":
                return self.parse_norm()
        if t.kind == "eof":
            raise ParseError("incomplete", t.pos)
        raise ParseError("unexpected_token", t.pos, found=t.text)

    def parse_name(self) -> Node:
        t = self.take()
        name, decls = t.text, self.decls
        if decls.vectors and name.startswith("J_") and decls.is_vector_function(name[2:]):
            return self.parse_jacobian_call(t)
        if decls.families and "_" in name and name.partition("_")[0] in decls.families:
            return self.parse_member(t)
        if name in SERIES_OPS and self.at("op", "(") and name not in decls.functions:
            return self.parse_series_call(t)
        if decls.random and starts_moment(self, name):
            return parse_moment(self, t)
        if name in decls.functions and name not in DECLARABLE_FUNCTIONS:
            order, args = self.primed_call(t)
            return self.make(Apply(name, args, order))
        if name in decls.matrix_like:
            return self.make(MatSym(name))
        if name in decls.symbols:
            return self.make(Sym(name))
        if name in NOT_FINITE:  # inf, infinity, oo, ∞ are a value (never a finite key); NaN is not
            if name.lower() == "nan":
                raise ParseError("not_finite", t.pos)
            return self.make(Num(math.inf, "inf"))
        if name == "I" and decls.identity_is_matrix:
            return self.make(Ident())
        if name in CONSTANTS:
            return self.make(Const(name))
        if name == EULER_CAPITAL and not decls.random:
            # E^2 for e^2 (SymPy's and mathjs' E): Euler's number where the question has no
            # name E (not declared, not in the expected answer) and no random variables (then
            # E[X], E(X) are expectations: reading/moments.py)
            self.notes.add("note_e_constant")
            return self.make(Const("e"))
        if name == "diff":
            return self.parse_diff_call(t)
        if name == "transpose":
            return self.make(Transpose(self.single_argument(t)))
        if _other_case_of_a_function(name, decls):
            name = name.lower()  # Sin(x), LOG(x), Ln x: function names are read in any case
        name = FUNCTION_ALIASES.get(name, name)
        if name == "sigma" and self.at("op", "(") and not self.tok.space_before:
            name = "sigmoid"  # σ(z) is the activation, as in the source texts
        if name == "sqrt" and self.at("op", "[") and not self.tok.space_before \
                and self.index_then_brace():
            return self.nth_root(t)  # sqrt[3]{x}: \sqrt[3]{x} without the backslash
        if name == "log" and self.at("op", "_"):  # \\log_{1/2} x, log_(10)(x), \\log_\\infty 2
            base = self.log_base_argument(t)
            return self.parse_function(t, name, lambda arg: FuncN("log", (arg, base)),
                                       base_written=True)
        build = self.one_argument_function(name, t)
        if build is not None:
            return self.parse_function(t, name, build)
        if name in ROOT_NAMES:
            return self.parse_root(t)
        if name == "factorial":  # factorial(n) is n!
            arg = self.single_argument(t)
            check_factorial(arg, t.pos)
            return self.make(Factorial(arg))
        if name == "binomial":
            args = self.parse_call_args(t)
            if len(args) != 2:
                raise ParseError("two_arguments_exactly", t.pos, name=name)
            check_binomial(args, t.pos)
            return self.make(FuncN(name, tuple(args)))
        if name == "atan2":  # atan2(y, x), arctan2(y, x): y first (reading/names.py)
            args = self.parse_call_args(t)
            if len(args) != 2:
                raise ParseError("two_arguments_exactly_yx", t.pos, name=t.text)
            return self.make(FuncN(name, tuple(args)))
        if name in EXTREMA:
            args = self.parse_call_args(t)
            if len(args) < 2:
                raise ParseError("two_arguments", t.pos, name=name)
            return self.make(FuncN(name, tuple(args)))
        if name in ("partial", "nabla"):
            raise ParseError("unexpected_token", t.pos, found=t.text)
        if is_variable_name(name):
            if self.tok.text == "(" and not self.tok.space_before:
                self.notes.add("note_letter_times_bracket")  # f(x) is f·x: f is not declared
            return self.make(Sym(name))
        raise self.unknown_name(t)

    def primed_call(self, t: Token) -> tuple[int, tuple[Node, ...]]:
        """`F(x, y)`, `F'(x)`, `F''(x)` after a declared function's name: (primes, arguments);
        a derivative by primes takes one argument."""
        order = 0
        while self.at("op", "'"):
            self.take()
            order += 1
        if order > MAX_DIFF_ORDER:
            raise ParseError("derivative_order", t.pos, limit=MAX_DIFF_ORDER)
        args = self.parse_call_args(t)
        if order and len(args) != 1:
            raise ParseError("prime_needs_one_argument", t.pos, name=t.text)
        return order, tuple(args)

    def unknown_name(self, t: Token) -> ParseError:
        """`foo`, `rate`, `sinc(x)`: never guessed into a product of letters; `log2x` (log_2 x or
        log(2x)?) asked about."""
        if t.text.lower() in ("log2", "log10"):
            return ParseError("numbered_log", t.pos, name=t.text, base=t.text[3:])
        if self.at("op", "("):
            return ParseError("not_a_function", t.pos, name=t.text)
        if len(t.text) <= 3 and t.text.isalpha():  # xy, abc: perhaps a product
            return ParseError("unknown_name_product", t.pos, name=t.text,
                              product="*".join(t.text))
        return ParseError("unknown_name", t.pos, name=t.text)

    # -- built-in functions -------------------------------------------------------------------
    def one_argument_function(self, name: str, t: Token):
        """How to build `name(argument)` when `name` is a function of one argument, else None:
        the built-ins, floor/ceil where declared, lg, log_2, log_{10}, log_b."""
        if name in BUILTIN_FUNCTIONS or name in DECLARABLE_FUNCTIONS and name in self.decls.functions:
            return lambda arg: Func(name, arg)
        if name in BASE_LOGS or name.startswith("log_"):
            base = self.log_base(name, t)
            if base is None:
                return lambda arg: Func("log", arg)
            return lambda arg: FuncN("log", (arg, base))
        return None

    def log_base_argument(self, t: Token) -> Node:
        """The base after `log_` when the lexer left it to the parser: `{1/2}`, `{0.5}`, `(10)`,
        `{b+1}`, `\\infty`, `\\pi`, any formula in braces or parentheses, or one number or
        name."""
        self.take()  # the _
        tok = self.tok
        if tok.kind == "op" and tok.text in "({":
            return self.parse_group()
        if tok.kind == "num":
            return self.make(number_value(self.take()))
        if tok.kind == "name" and not is_function_name(tok.text, self.decls):
            return self.parse_name()
        raise ParseError("log_base", tok.pos, base=tok.text)

    def log_base(self, name: str, t: Token) -> Node | None:
        """The base of lg or log_b as a node (None for log_e, the natural logarithm)."""
        text = BASE_LOGS.get(name) or name.partition("_")[2]
        if text == "e":
            return None
        if text.replace(".", "", 1).isdigit() and len(text) <= 6:  # log_2, log_2.5
            return self.make(Num(float(text), text))
        if is_variable_name(text):
            if text in CONSTANTS:
                return self.make(Const(text))
            return self.make(Sym(text))
        raise ParseError("log_base", t.pos, base=text)

    def parse_function(self, t: Token, name: str, build, base_written: bool = False) -> Node:
        """`sin x`, `sin(x)`, `sin^2 x` = (sin x)^2, `sin^-1 x` = arcsin x, `log(x, b)`."""
        power = self.function_power(t, name) if self.at("op", "^") else 1
        if name in ("log", "lg") and self.at("op", "(") and not base_written:
            args = self.parse_call_args(t)
            if len(args) == 2:  # log(x, b) as in SymPy, lg(x, b) as in Maxima/STACK
                self.notes.add("note_log_base_second")
                node = FuncN("log", (args[0], args[1]))
            elif len(args) == 1:
                node = build(args[0])
            else:
                raise ParseError("log_arguments", t.pos)
        else:
            node = build(self.single_argument(t))
        if power == -1:
            self.notes.add("note_inverse_function")
            return self.make(Func(INVERSE_FUNCTIONS[name], node.arg))
        if power == 1:
            return self.make(node)
        self.notes.add("note_function_power")
        exponent = power if isinstance(power, Node) else self.make(Num(float(power), str(power)))
        return self.make(Pow(self.make(node), exponent))

    def parse_root(self, t: Token) -> Node:
        """root(x, n): the n-th root, as in SymPy, Numbas and Maxima (root(x) is the square root);
        root(x, 3) is the real cube root."""
        args = self.parse_call_args(t)
        if len(args) not in (1, 2):
            raise ParseError("root_arguments", t.pos)
        x, n = args if len(args) == 2 else (args[0], Num(2.0, "2"))
        if n == Num(2.0, "2"):
            return self.make(Func("sqrt", x))
        if n == Num(3.0, "3"):
            return self.make(Func("cbrt", x))
        exponent = self.make(Div(self.make(Num(1.0, "1")), n))
        check_exponent(x, exponent, t.pos)  # root(x, 0.0001) is x^10000: the same limits
        return self.make(Pow(x, exponent))

    def function_power(self, t: Token, name: str) -> int | Node:
        """The n of `sin^n`: a whole number from 1 up, -1 for the inverse function, or a name
        the question declares (`sin^n x` is (sin x)^n, as Doenet reads it); an undeclared
        letter is refused, not guessed."""
        caret = self.take()
        exponent = self.parse_exponent()
        if type(exponent) is Sym and (exponent.name in self.decls.symbols
                                      or exponent.name in self.decls.integers):
            return exponent
        value = constant_value(exponent) if is_constant(exponent) else None
        if value == -1:
            if name not in INVERSE_FUNCTIONS:
                raise ParseError("no_inverse_notation", caret.pos, name=t.text)
            return -1
        if value is None or not value.is_integer() or value < 1:
            raise ParseError("function_power", caret.pos, name=t.text)
        if value > MAX_EXPONENT:
            raise LimitError("exponent_too_large", caret.pos, limit=int(MAX_EXPONENT))
        return int(value)

    def parse_call_args(self, name_token: Token) -> list[Node]:
        if not self.at("op", "("):
            raise ParseError("expected_call", self.tok.pos, name=name_token.text)
        opener = self.take()
        self.space_mode.append(False)
        args = self.parse_list()
        self.space_mode.pop()
        self.expect(")", opener)
        return args

    def single_argument(self, name_token: Token) -> Node:
        """`sin(x)`, or `sin x` without parentheses: then, as on paper, the argument runs on through
        the factors written right against it (`sin 2x` is sin(2x), `\\sin 2\\theta` is sin(2θ)) and
        stops at an operator, a space or another function (`sin x cos x` is sin(x)·cos(x))."""
        if self.at("op", "("):
            args = self.parse_call_args(name_token)
            if len(args) != 1:
                raise ParseError("one_argument", name_token.pos, name=name_token.text)
            return args[0]
        if self.at("eof"):
            raise ParseError("unexpected_end", self.tok.pos, expected="(")
        if self.at("op", "[") and not self.tok.space_before:  # Sin[x], as Mathematica writes it
            bracketed = self.parse_brackets()
            if len(bracketed.rows) == 1 and len(bracketed.rows[0]) == 1:
                return bracketed.rows[0][0]
            raise ParseError("one_argument", name_token.pos, name=name_token.text)
        factors = [self.parse_power()]
        while self.continues_argument():
            factors.append(self.parse_power())
        if self.at("op", "/"):  # ln x/y is (ln x)/y; KAS reads ln(x/y): say how it was read
            self.notes.add("note_function_argument_division")
        return factors[0] if len(factors) == 1 else self.make(Mul(tuple(factors)))

    def continues_argument(self) -> bool:
        t = self.tok
        if t.space_before:
            return False
        if t.kind == "num" or (t.kind == "op" and t.text == "("):
            return True
        return t.kind == "name" and not is_function_name(t.text, self.decls)

    def parse_diff_call(self, t: Token) -> Node:
        args = self.parse_call_args(t)
        if len(args) not in (2, 3) or not isinstance(args[1], Sym):
            raise ParseError("diff_arguments", t.pos)
        order = 1
        if len(args) == 3:
            if not (isinstance(args[2], Num) and args[2].value.is_integer()
                    and 1 <= args[2].value <= MAX_DIFF_ORDER):
                raise ParseError("derivative_order", t.pos, limit=MAX_DIFF_ORDER)
            order = int(args[2].value)
        return self.make_diff(args[0], args[1].name, order, t)

    def make_diff(self, expr: Node, var: str, order: int, t: Token) -> Node:
        """Nested derivatives multiply the work: their total order is limited like one order."""
        total = order + sum(n.order for n in walk(expr) if isinstance(n, Diff | Apply))
        if total > MAX_DIFF_ORDER:
            raise LimitError("derivative_order", t.pos, limit=MAX_DIFF_ORDER)
        return self.make(Diff(expr, var, order, vector=var in self.decls.vector_values))

    # -- vectors (issue 25): gradients, Jacobians of declared vector functions, norms ----------
    def parse_gradient(self) -> Node:
        """`\\nabla_x L`: the gradient by a declared vector, the transpose of the Jacobian (a
        column). It takes the whole product after it (`\\nabla_x \\frac{1}{2}\\|Wx-y\\|^2`); a
        bare declared function `L` is L at decls.loss_argument (names.py)."""
        t = self.take()
        var, decls = t.text, self.decls
        family = var.partition("_")[0]
        member = "_" in var and family in decls.families and family in decls.vector_values
        if var not in decls.vector_values and not member:  # \nabla_{x_0}: a vector member
            raise ParseError("gradient_needs_vector", t.pos, var=var)
        nxt = self.tok
        if nxt.kind == "name" and nxt.text in decls.functions and not self.peek().text == "(" \
                and not decls.is_vector_function(nxt.text):
            self.take()
            expr = self.make(Apply(nxt.text, (self.make(MatSym(decls.loss_argument(var))),)))
        else:
            expr = self.parse_term()
        return self.make(Transpose(self.make_diff(expr, var, 1, t)))

    def parse_jacobian_call(self, t: Token) -> Node:
        """`J_F(x)`: the Jacobian of the declared vector function F at x, as F'(x)."""
        args = self.parse_call_args(t)
        if len(args) != 1:
            raise ParseError("one_argument", t.pos, name=t.text)
        return self.make(Apply(t.text[2:], (args[0],), 1))

    def parse_norm(self) -> Node:
        """`\\|v\\|`, `‖v‖`: the Euclidean norm, read as sqrt(v^T v) (so it is differentiated
        and sampled like any formula; the preview shows that reading)."""
        opener = self.take()
        self.space_mode.append(False)
        saved_abs, self.abs_depth = self.abs_depth, 0
        self.norm_depth += 1
        inner = self.parse_sum()
        self.norm_depth -= 1
        self.abs_depth = saved_abs
        self.space_mode.pop()
        self.expect("‖", opener)
        square = self.make(Mul((self.make(Transpose(inner)), inner)))
        return self.make(Func("sqrt", square))

    # -- groups, |x| and matrices ---------------------------------------------------------------
    def parse_group(self) -> Node:
        opener = self.take()
        closer = ")" if opener.text == "(" else "}"
        self.space_mode.append(False)
        saved_abs, self.abs_depth = self.abs_depth, 0
        items = self.parse_list()
        self.abs_depth = saved_abs
        self.space_mode.pop()
        self.expect(closer, opener)
        if len(items) == 1:
            return items[0]
        return self.make(Matrix((tuple(items),)))

    def parse_abs(self) -> Node:
        """`|x|`: inside it, a `|` closes it (abs_depth) instead of starting a factor `|y|`."""
        opener = self.take()
        self.abs_depth += 1
        self.space_mode.append(False)
        inner = self.parse_sum()
        self.space_mode.pop()
        self.abs_depth -= 1
        self.expect("|", opener)
        return self.make(Func("abs", inner))

    def parse_brackets(self) -> Node:
        """`[a, b]`, `[a b]`, `[a; b]`, `[1 2; 3 4]`, `[[1,2],[3,4]]`. Around vectors or matrices
        (declared), square brackets group as parentheses do: `\\left[(Ax+b)^\\top C (Dx+d)\\right]`
        is one product (a literal's entries are numbers, so a space there cannot separate them)."""
        opener = self.take()
        start, undo = self.i, len(self.replaced)
        spaced = not self.has_top_level_comma()  # without commas, a space separates entries
        rows = self.bracket_rows(spaced)
        if spaced and len(rows) == 1 and len(rows[0]) > 1 and any(map(_matrix_like, rows[0])) \
                and self.rereads < MAX_REREADS:  # nested brackets: bounded, never 2^depth
            self.rereads += 1
            self.rewind(start, undo)
            rows = self.bracket_rows(False)
        self.expect("]", opener)
        if len(rows) == 1 and len(rows[0]) == 1 and _matrix_like(rows[0][0]):
            return rows[0][0]
        return self.make(self.rows_to_matrix(rows, opener))

    def bracket_rows(self, spaced: bool) -> list[list[Node]]:
        self.space_mode.append(spaced)
        saved_abs, self.abs_depth = self.abs_depth, 0
        rows: list[list[Node]] = [[]]
        while True:
            rows[-1].append(self.parse_sum())
            tok = self.tok
            is_op = tok.kind == "op"
            if is_op and tok.text == ",":
                self.take()
                continue
            if spaced and not (is_op and tok.text in "];") and tok.kind != "eof":
                continue  # the next entry starts right here
            if is_op and tok.text == ";":
                self.take()
                rows.append([])
                continue
            break
        self.abs_depth = saved_abs
        self.space_mode.pop()
        return rows

    def rewind(self, index: int, undo: int) -> None:
        """Back to token `index`, with the tokens replaced since undone (a second reading)."""
        while len(self.replaced) > undo:
            at, token = self.replaced.pop()
            self.tokens[at] = token
        self.i, self.tok = index, self.tokens[index]

    def has_top_level_comma(self) -> bool:
        depth = 0
        for token in self.tokens[self.i:]:
            if token.kind != "op":
                if token.kind == "eof":
                    return False
                continue
            text = token.text
            if text in "([{":
                depth += 1
            elif text in ")]}":
                if depth == 0:
                    return False
                depth -= 1
            elif text == "," and depth == 0:
                return True
        return False

    def rows_to_matrix(self, rows: list[list[Node]], opener: Token) -> Matrix:
        # [[1,2],[3,4]]: a single row whose entries are all row vectors of one length is a matrix.
        first = rows[0]
        if len(rows) == 1 and all(type(e) is Matrix and len(e.rows) == 1 for e in first):
            rows = [list(e.rows[0]) for e in first]
        width = len(rows[0])
        for row in rows:
            if len(row) != width:
                raise ParseError("ragged_matrix", opener.pos)
        for row in rows:
            for entry in row:
                if type(entry) is Matrix:
                    raise ParseError("nested_matrix", opener.pos)
        return Matrix(tuple(tuple(r) for r in rows))

    def parse_environment(self) -> Node:
        opener = self.take()
        rows: list[list[Node]] = [[]]
        self.space_mode.append(False)
        while not self.at("end"):
            rows[-1].append(self.parse_sum())
            if self.at("op", "&"):
                self.take()
            elif self.at("rowsep"):
                self.take()
                if not self.at("end"):
                    rows.append([])
            elif not self.at("end"):
                raise ParseError("expected", self.tok.pos, expected="& \\\\ \\end",
                                 found=self.tok.text)
        self.space_mode.pop()
        self.take()
        return self.make(self.rows_to_matrix(rows, opener))

    # -- LaTeX commands -------------------------------------------------------------------------
    def parse_command(self) -> Node:
        t = self.take()
        if t.text == "frac":
            num = self.latex_argument()
            den = self.latex_argument()
            return self.make(Div(num, den))
        if t.text == "binom":  # \\binom{n}{k} is binomial(n, k)
            args = [self.latex_argument(), self.latex_argument()]
            check_binomial(args, t.pos)
            return self.make(FuncN("binomial", tuple(args)))
        if t.text == "sqrt":
            if self.at("op", "["):
                return self.nth_root(t)
            return self.make(Func("sqrt", self.latex_argument()))
        raise ParseError("unexpected_token", t.pos, found="\\top")

    def nth_root(self, t: Token) -> Node:
        """`[n]{radicand}` after \\sqrt (or sqrt): the n-th root; n = 3 is the real cube root."""
        opener = self.take()
        index = self.parse_sum()
        self.expect("]", opener)
        radicand = self.latex_argument()
        if index == Num(3.0, "3"):  # the real cube root: \sqrt[3]{-8} = -2
            return self.make(Func("cbrt", radicand))
        exponent = self.make(Div(self.make(Num(1.0, "1")), index))
        check_exponent(radicand, exponent, t.pos)  # \sqrt[0.001]{x} is x^1000
        return self.make(Pow(radicand, exponent))

    def index_then_brace(self) -> bool:
        """At `[`: whether its `]` is followed right away by `{` (`sqrt[3]{x}`, the LaTeX root
        typed without its backslash; `sqrt[x]` alone is sqrt(x), as Mathematica writes it)."""
        depth = 0
        for k in range(self.i, len(self.tokens)):
            tok = self.tokens[k]
            if tok.kind == "op" and tok.text in "[]":
                depth += 1 if tok.text == "[" else -1
                if depth == 0:
                    after = self.tokens[k + 1]
                    return after.kind == "op" and after.text == "{" and not after.space_before
            elif tok.kind == "eof":
                return False
        return False

    def latex_argument(self) -> Node:
        """`{...}`, or a single token as in `\\frac12` (one digit) or `\\frac ab`."""
        t = self.tok
        if t.kind == "op" and t.text == "{":
            return self.parse_group()
        if t.kind == "num":
            first = t.text[0]
            rest = t.text[1:]
            if rest:
                self.replace_current(Token("num", rest, t.pos + 1, t.end, False))
            else:
                self.take()
            return self.make(Num(float(first), first))
        if t.kind == "name":
            return self.parse_name()
        raise ParseError("expected", t.pos, expected="{", found=t.text)

    # -- sums, products and family members (issue 24; reading/series.py, reading/families.py) ---
    def parse_series(self) -> Node:
        """`\\sum_{i=a}^{b} body` (either order of _ and ^); the body is the term that follows
        (`\\sum_{i=1}^{n} 2i + 1` is (sum of 2i) + 1, as on paper)."""
        t = self.take()
        var = lower = upper = None
        for _ in range(2):
            if self.at("op", "_") and var is None:
                self.take()
                var, lower = self.series_start(t)
            elif self.at("op", "^") and upper is None:
                self.take()
                upper = self.latex_argument()
        if var is None or upper is None:
            raise ParseError("series_needs_range", t.pos, op=SERIES_SIGNS[t.text])
        if self.tok.kind in ("eof", "end", "rowsep") or self.at("op") and self.tok.text in ")}],=+":
            raise ParseError("series_needs_body", self.tok.pos)
        body = self.parse_term()
        return self.make(make_series(t.text, var, lower, upper, body, t.pos))

    def series_start(self, t: Token) -> tuple[str, Node]:
        """`{i=a}` after the `_` of a sum or product: (index name, lower bound)."""
        if not self.at("op", "{"):
            raise ParseError("series_needs_range", t.pos, op=SERIES_SIGNS[t.text])
        opener = self.take()
        index = self.tok
        if index.kind != "name" or not is_variable_name(index.text) or self.peek().text != "=":
            raise ParseError("series_needs_range", t.pos, op=SERIES_SIGNS[t.text])
        self.skip(2)
        lower = self.parse_sum()
        self.expect("}", opener)
        return index.text, lower

    def parse_series_call(self, t: Token) -> Node:
        """`sum(expr, i, a, b)`, `prod(expr, i, a, b)` (SymPy's and Maxima's order)."""
        args = self.parse_call_args(t)
        if len(args) != 4 or type(args[1]) is not Sym:
            raise ParseError("series_arguments", t.pos, name=t.text)
        body, index, lower, upper = args
        return self.make(make_series(SERIES_OPS[t.text], index.name, lower, upper, body, t.pos))

    def parse_member(self, t: Token) -> Node:
        """`x_{l+1}`, `W_i`, `F_l(x_l)`, `F_l'(x_l)`: a member of a declared family."""
        family, _, subscript = t.text.partition("_")
        index = self.member_index(subscript, t)
        decls = self.decls
        if family in decls.functions:
            order, args = self.primed_call(t)
            return self.make(Member(family, index, "function", args, order))
        kind = "matrix" if family in decls.matrix_like else "symbol"
        return self.make(Member(family, index, kind))

    def member_leibniz(self, t: Token) -> Node | None:
        """`\\frac{\\partial x_L}{\\partial x_l}`, `dx_L/dx_l`: a member differentiated by a
        member of the same family (through its relation: values/evaluate.py), else None."""
        top, _, var = t.text.partition("/")
        family = top.partition("_")[0]
        if "_" not in top or family not in self.decls.families \
                or var.partition("_")[0] != family or family in self.decls.functions:
            return None
        self.take()
        self.member_index(var.partition("_")[2], t)  # an index that can be read
        member = self.make(Member(family, self.member_index(top.partition("_")[2], t),
                                  "matrix" if family in self.decls.matrix_like else "symbol"))
        return self.make(Diff(member, var, 1))

    def leibniz_of_value(self, t: Token) -> Node | None:
        """`\\frac{\\partial x}{\\partial W}` for a declared symbol x: d/dW of x (0 unless W is
        x). `\\frac{\\partial \\mathcal{L}}{\\partial x_L}` for a name that is no declared value
        (undeclared, or an integer such as the depth L, which \\mathcal{L} also reads as) by a
        family member: the gradient of an unknown quantity at that layer, one unknown value
        (`Sym` named `L/x_L`, shown as the fraction) the same wherever it is written the same.
        None for anything else (the parser then refuses it)."""
        top, _, var = t.text.partition("/")
        decls = self.decls
        if top in decls.vector_values and var in decls.vector_values:  # ∂y/∂x: a Jacobian
            self.take()
            return self.make_diff(self.make(MatSym(top)), var, 1, t)
        if top in decls.symbols and top not in decls.families:
            self.take()
            return self.make_diff(self.make(Sym(top)), var, 1, t)
        declared = decls.symbols | decls.functions | decls.matrix_like
        if top not in declared and "_" not in top and "(" not in top \
                and var.partition("_")[0] in decls.families and "_" in var:
            self.take()
            self.member_index(var.partition("_")[2], t)  # an index that can be read
            self.notes.add("note_unknown_gradient")
            return self.make(Sym(t.text))
        return None

    def member_index(self, subscript: str, t: Token) -> Node:
        """The subscript of a member as a formula of integers (`l+1` -> l + 1)."""
        try:
            tokens = tokenize(subscript.replace(",", " "))
            index = Parser(prepare_tokens(tokens, self.decls), self.decls).parse_all()
        except ParseError:
            raise ParseError("bad_member_index", t.pos, name=t.text) from None
        if type(index) is Matrix or any(type(n) not in INDEX_NODES for n in walk(index)):
            raise ParseError("bad_member_index", t.pos, name=t.text)
        self.nodes += sum(1 for _ in walk(index))
        return index


def is_function_name(name: str, decls: Declarations) -> bool:
    return (name in decls.functions or name in BUILTIN_FUNCTIONS or name in FUNCTION_ALIASES
            or name in EXTREMA or name in BASE_LOGS or name.startswith("log_")
            or name in ("diff", "transpose", "sigma", *ROOT_NAMES)
            or _other_case_of_a_function(name, decls))


def _other_case_of_a_function(name: str, decls: Declarations) -> bool:
    """Sin, LOG, Ln: a built-in function's name in capitals (Greek letters keep their case:
    Σ is not σ)."""
    return (len(name) > 1 and not name.islower() and name not in GREEK
            and is_function_name(name.lower(), decls))


def _matrix_like(node: Node) -> bool:
    """Whether a formula involves a declared vector or matrix (or I, or a member of a family of
    them)."""
    return any(type(n) in (MatSym, Ident) or (type(n) is Member and n.kind == "matrix")
               for n in walk(node))
