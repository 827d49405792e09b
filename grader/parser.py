"""Recursive-descent parser from tokens to the allowlisted tree, with containment limits.

Grammar (loosest first):  list := sum (',' sum)*   sum := term (('+'|'-') term)*
term := unary (('*'|'/'|implicit) unary)*   unary := ('-'|'+') unary | power
power := postfix ('^' exponent)?   exponent := '-' exponent | postfix
Limits (depth, nodes, numbers, exponents) are checked while the tree is built, before anything
is evaluated.
"""

from __future__ import annotations

import math

from .constant import constant_value
from .errors import LimitError, ParseError
from .lexer import Token, tokenize
from .names import Declarations, prepare_tokens
from .nodes import (
    Add,
    Const,
    Div,
    Factorial,
    Matrix,
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

MAX_LENGTH = 1000
MAX_DEPTH = 60
MAX_NODES = 400
MAX_NUMBER = 1e100
MAX_NUMBER_CHARS = 30
MAX_EXPONENT = 1000.0
MAX_FACTORIAL = 50
MAX_DIFF_ORDER = 4
IMPLICIT_STARTS = {"num", "name", "diffop", "cmd", "begin"}


NO_DECLARATIONS = Declarations()


def parse(text: str, decls: Declarations = NO_DECLARATIONS,
          space_vectors: bool = False) -> tuple[Node, object]:
    """Parse learner text; returns (tree, normalized text). Raises ParseError / LimitError.

    `space_vectors` (numeric answers): "2.1 2.8" at the top level is a vector, not a product.
    """
    if len(text) > MAX_LENGTH:
        raise LimitError("too_long", 0, limit=MAX_LENGTH)
    norm = normalize(text)
    tokens = prepare_tokens(tokenize(norm.text), decls)
    return Parser(tokens, decls, space_vectors).parse_all(), norm


class Parser:
    def __init__(self, tokens: list[Token], decls: Declarations,
                 space_vectors: bool = False) -> None:
        self.tokens, self.decls, self.i = tokens, decls, 0
        self.space_vectors = space_vectors
        self.depth = self.nodes = 0
        self.abs_depth = 0
        self.space_mode = [False]  # inside `[1 2; 3 4]` a space separates entries

    # -- helpers --------------------------------------------------------------------------------
    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def peek(self, offset: int = 1) -> Token:
        return self.tokens[min(self.i + offset, len(self.tokens) - 1)]

    def at(self, kind: str, text: str | None = None) -> bool:
        return self.tok.kind == kind and (text is None or self.tok.text == text)

    def take(self) -> Token:
        token = self.tok
        self.i += 1
        return token

    def expect(self, text: str, opener: Token | None = None) -> Token:
        if self.tok.text != text or self.tok.kind not in ("op", "end"):
            if self.at("eof"):
                raise ParseError("unexpected_end", self.tok.pos, expected=text)
            raise ParseError("expected", self.tok.pos, expected=text, found=self.tok.text)
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

    # -- grammar --------------------------------------------------------------------------------
    def parse_all(self) -> Node:
        if self.at("op", "="):  # a derivation line may start with "="
            self.take()
        elif (self.tok.kind == "name" and self.peek().kind == "op" and self.peek().text == "="
              and len(self.tokens) > 3):
            self.i += 2  # "L = 1.25": the answer is the value after a named left side
        if self.at("eof"):
            raise ParseError("empty", self.tok.pos)
        if self.space_vectors and self.space_separated_numbers():
            self.space_mode[0] = True  # "2.1 2.8" is a vector, as in [2.1 2.8]
            items = [self.parse_sum()]
            while not self.at("eof"):
                items.append(self.parse_sum())
        else:
            items = self.parse_list(stop=("eof",))
        if not self.at("eof"):
            raise ParseError("unexpected_token", self.tok.pos, found=self.tok.text)
        return items[0] if len(items) == 1 else self.make(Matrix((tuple(items),)))

    def space_separated_numbers(self) -> bool:
        """True when the top level has no commas and two numbers are separated by a space."""
        toks = self.tokens
        if any(t.kind == "op" and t.text in ",[]()" for t in toks):
            return False
        for a, b, c in zip(toks, toks[1:], toks[2:] + toks[-1:], strict=False):
            if a.kind == "num" and b.space_before and (
                    b.kind == "num" or (b.text == "-" and c.kind == "num" and not c.space_before)):
                return True
        return False

    def parse_list(self, stop: tuple[str, ...]) -> list[Node]:
        items = [self.parse_sum()]
        while self.at("op", ","):
            self.take()
            items.append(self.parse_sum())
        return items

    def parse_sum(self) -> Node:
        terms = [self.parse_term()]
        while self.tok.kind == "op" and self.tok.text in "+-" and not self.entry_boundary():
            op = self.take()
            term = self.parse_term()
            terms.append(term if op.text == "+" else self.make(Neg(term)))
        return terms[0] if len(terms) == 1 else self.make(Add(tuple(terms)))

    def entry_boundary(self) -> bool:
        """In `[1 -2]` the minus starts a new entry; in `[1 - 2]` it subtracts."""
        return self.space_mode[-1] and self.tok.space_before and not self.peek().space_before

    def parse_term(self) -> Node:
        factors = [self.parse_unary()]
        while True:
            t = self.tok
            if t.kind == "op" and t.text in "*/":
                self.take()
                right = self.parse_unary()
                if t.text == "/":
                    left = factors.pop() if len(factors) == 1 else self.make(Mul(tuple(factors)))
                    factors = [self.make(Div(left, right))]
                else:
                    factors.append(right)
            elif self.starts_implicit_factor():
                factors.append(self.parse_power())
            else:
                break
        return factors[0] if len(factors) == 1 else self.make(Mul(tuple(factors)))

    def starts_implicit_factor(self) -> bool:
        t = self.tok
        if self.space_mode[-1] and t.space_before:
            return False
        if t.kind in IMPLICIT_STARTS:
            return not (t.kind == "cmd" and t.text == "top")
        if t.kind == "op":
            return t.text in "([{" or (t.text == "|" and self.abs_depth == 0)
        return False

    def parse_unary(self) -> Node:
        self.enter()
        try:
            if self.tok.kind == "op" and self.tok.text in "+-":
                op = self.take()
                arg = self.parse_unary()
                return arg if op.text == "+" else self.make(Neg(arg))
            return self.parse_power()
        finally:
            self.depth -= 1

    def parse_power(self) -> Node:
        base = self.parse_postfix()
        if not self.at("op", "^"):
            return base
        caret = self.take()
        if self.is_transpose_mark():
            return self.make(Transpose(base))
        exponent = self.parse_exponent()
        self.check_exponent(base, exponent, caret.pos)
        return self.make(Pow(base, exponent))

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
                self.i += 3
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

    def check_exponent(self, base: Node, exponent: Node, pos: int) -> None:
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

    def parse_postfix(self) -> Node:
        node = self.parse_primary()
        while self.tok.kind == "op" and self.tok.text in "'!":
            mark = self.take()
            if mark.text == "!":
                if not (isinstance(node, Num) and node.value.is_integer()):
                    raise ParseError("factorial_needs_integer", mark.pos)
                if node.value > MAX_FACTORIAL:
                    raise LimitError("factorial_too_large", mark.pos, limit=MAX_FACTORIAL)
                node = self.make(Factorial(node))
            elif isinstance(node, Num | Sym | Const):
                raise ParseError("prime_needs_function", mark.pos)
            else:
                node = self.make(Transpose(node))
        return node

    def parse_primary(self) -> Node:
        self.enter()
        try:
            return self._primary()
        finally:
            self.depth -= 1

    def _primary(self) -> Node:
        return _atoms().parse_atom(self)


_ATOMS = []


def _atoms():
    """parse_atoms imports this module, so it is imported on first use and kept."""
    if not _ATOMS:
        from . import parse_atoms

        _ATOMS.append(parse_atoms)
    return _ATOMS[0]


def number_node(parser: Parser, token: Token) -> Num:
    digits = token.text.lstrip("0.").split("e")[0].split("E")[0]
    if len(digits) > MAX_NUMBER_CHARS:
        raise LimitError("number_too_long", token.pos, limit=MAX_NUMBER_CHARS)
    value = float(token.text)
    if not math.isfinite(value) or abs(value) > MAX_NUMBER:
        raise LimitError("number_too_large", token.pos)
    return parser.make(Num(value, token.text))
