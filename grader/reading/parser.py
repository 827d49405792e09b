"""Recursive-descent parser from tokens to the allowlisted tree, with containment limits.

Grammar (loosest first):  list := sum (',' sum)*   sum := term (('+'|'-') term)*
term := unary (('*'|'/'|implicit) unary)*   unary := ('-'|'+') unary | power
power := postfix ('^' exponent)?   exponent := '-' exponent | postfix
postfix := primary ("'" | '!')*
Limits (depth, nodes, numbers, exponents) are checked while the tree is built, before anything
is evaluated.

This runs for every keystroke and every answer, so the hot path is written for CPython: the
current token is a plain attribute (kept in step with the index by `take`/`skip`), power,
postfix and primary are one call, and the depth limit is checked inline.
"""

from __future__ import annotations

from ..errors import LimitError, ParseError
from .lexer import Token, tokenize
from .limits import (
    MAX_DEPTH,
    MAX_FACTORIAL,
    MAX_LENGTH,
    MAX_NODES,
    check_exponent,
    number_value,
)
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
)
from .normalize import normalize
from .plain_numbers import parse_plain_numbers

IMPLICIT_STARTS = {"num", "name", "diffop", "cmd", "begin"}
NO_DECLARATIONS = Declarations()


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
        return plain, norm, ()
    node, notes = parse_tokens(norm.text, decls, space_vectors)
    return node, norm, notes


def parse_tokens(text: str, decls: Declarations = NO_DECLARATIONS,
                 space_vectors: bool = False) -> tuple[Node, tuple[str, ...]]:
    """The full parser on normalized text (no fast path): (tree, reading-note keys)."""
    parser = Parser(prepare_tokens(tokenize(text), decls), decls, space_vectors)
    return parser.parse_all(), tuple(sorted(parser.notes))


class Parser:
    def __init__(self, tokens: list[Token], decls: Declarations,
                 space_vectors: bool = False) -> None:
        self.tokens, self.decls, self.i = tokens, decls, 0
        self.tok = tokens[0]  # always tokens[i]; the list ends with an eof token
        self.space_vectors = space_vectors
        self.depth = self.nodes = 0
        self.abs_depth = 0
        self.space_mode = [False]  # inside `[1 2; 3 4]` a space separates entries
        self.notes: set[str] = set()  # readings worth telling the learner (parse_with_notes)

    # -- helpers --------------------------------------------------------------------------------
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

    # -- grammar --------------------------------------------------------------------------------
    def parse_all(self) -> Node:
        if self.at("op", "="):  # a derivation line may start with "="
            self.take()
        elif (self.tok.kind == "name" and self.peek().kind == "op" and self.peek().text == "="
              and len(self.tokens) > 3):
            self.skip(2)  # "L = 1.25": the answer is the value after a named left side
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
        for t in toks:
            if t.kind == "op" and t.text in ",[]()":
                return False
        for a, b, c in zip(toks, toks[1:], toks[2:] + toks[-1:], strict=False):
            if a.kind == "num" and b.space_before and (
                    b.kind == "num" or (b.text == "-" and c.kind == "num" and not c.space_before)):
                return True
        return False

    def parse_list(self) -> list[Node]:
        items = [self.parse_sum()]
        while self.tok.kind == "op" and self.tok.text == ",":
            self.take()
            items.append(self.parse_sum())
        return items

    def parse_sum(self) -> Node:
        first = self.parse_term()
        tok = self.tok
        if tok.kind != "op" or tok.text not in "+-":
            return first  # the common case: no sum at this level
        terms = [first]
        while tok.kind == "op" and tok.text in "+-" and not self.entry_boundary():
            self.take()
            term = self.parse_term()
            terms.append(term if tok.text == "+" else self.make(Neg(term)))
            tok = self.tok
        return terms[0] if len(terms) == 1 else self.make(Add(tuple(terms)))

    def entry_boundary(self) -> bool:
        """In `[1 -2]` the minus starts a new entry; in `[1 - 2]` it subtracts."""
        return self.space_mode[-1] and self.tok.space_before and not self.peek().space_before

    def parse_term(self) -> Node:
        first = self.parse_unary()
        t = self.tok
        if t.kind == "op" and t.text not in "*/([{|":
            return first  # a single factor: the common case, no list to build
        factors = [first]
        divided = False  # the last explicit operator was "/"
        while True:
            t = self.tok
            kind = t.kind
            if kind == "op":
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
                if t.text not in "([{|":
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
            return t.text in "([{" or (t.text == "|" and self.abs_depth == 0)
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
            else:
                node = _atoms.parse_atom(self)
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

    def parse_postfix_marks(self, node: Node) -> Node:
        tok = self.tok
        while tok.kind == "op" and tok.text in "'!":
            self.take()
            if tok.text == "!":
                if not (isinstance(node, Num) and node.value.is_integer()):
                    raise ParseError("factorial_needs_integer", tok.pos)
                if node.value > MAX_FACTORIAL:
                    raise LimitError("factorial_too_large", tok.pos, limit=MAX_FACTORIAL)
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


def number_node(parser: Parser, token: Token) -> Num:
    return parser.make(number_value(token))


# parse_atoms builds on Parser (defined above) and the parser calls back into it; importing the
# module object (not its names) works whichever of the two modules is imported first.
from . import parse_atoms as _atoms  # noqa: E402
