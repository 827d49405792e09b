"""Primary expressions: numbers, names and calls, groups, |x|, bracket matrices, LaTeX commands."""

from __future__ import annotations

from ..errors import LimitError, ParseError
from .lexer import Token
from .limits import MAX_DIFF_ORDER
from .names import CONSTANTS, NOT_FINITE, Declarations
from .nodes import (
    BUILTIN_FUNCTIONS,
    Apply,
    Const,
    Diff,
    Div,
    Func,
    Ident,
    Matrix,
    MatSym,
    Mul,
    Node,
    Num,
    Pow,
    Sym,
    Transpose,
    walk,
)
from .parser import Parser, number_node

NAME_ALIASES = {"ln": "log"}


def parse_atom(p: Parser) -> Node:
    t = p.tok
    if t.kind == "num":
        return number_node(p, p.take())
    if t.kind == "name":
        return parse_name(p)
    if t.kind == "diffop":
        p.take()
        return make_diff(p, p.parse_power(), t.text, 1, t)
    if t.kind == "cmd":
        return parse_command(p)
    if t.kind == "begin":
        return parse_environment(p)
    if t.kind == "op":
        if t.text in "({":
            return parse_group(p)
        if t.text == "[":
            return parse_brackets(p)
        if t.text == "|":
            p.take()
            p.abs_depth += 1
            p.space_mode.append(False)
            inner = p.parse_sum()
            p.space_mode.pop()
            p.abs_depth -= 1
            p.expect("|", t)
            return p.make(Func("abs", inner))
    if t.kind == "eof":
        raise ParseError("incomplete", t.pos)
    raise ParseError("unexpected_token", t.pos, found=t.text)


def parse_name(p: Parser) -> Node:
    t = p.take()
    name, decls = t.text, p.decls
    if name in decls.functions:
        order = 0
        while p.at("op", "'"):
            p.take()
            order += 1
        if order > MAX_DIFF_ORDER:
            raise ParseError("derivative_order", t.pos, limit=MAX_DIFF_ORDER)
        args = parse_call_args(p, t)
        if order and len(args) != 1:
            raise ParseError("prime_needs_one_argument", t.pos, name=name)
        return p.make(Apply(name, tuple(args), order))
    if name in decls.matrices:
        return p.make(MatSym(name))
    if name in decls.symbols:
        return p.make(Sym(name))
    if name in NOT_FINITE:
        raise ParseError("not_finite", t.pos)
    if name == "I" and decls.identity_is_matrix:
        return p.make(Ident())
    if name in CONSTANTS:
        return p.make(Const(name))
    if name == "diff":
        return parse_diff_call(p, t)
    if name == "transpose":
        return p.make(Transpose(single_argument(p, t)))
    name = NAME_ALIASES.get(name, name)
    if name == "sigma" and p.at("op", "(") and not p.tok.space_before:
        name = "sigmoid"  # σ(z) is the activation, as in the source texts
    if name in BUILTIN_FUNCTIONS:
        return p.make(Func(name, single_argument(p, t)))
    if name in ("partial", "nabla"):
        raise ParseError("unexpected_token", t.pos, found=t.text)
    return p.make(Sym(name))


def parse_call_args(p: Parser, name_token: Token) -> list[Node]:
    if not p.at("op", "("):
        raise ParseError("expected_call", p.tok.pos, name=name_token.text)
    opener = p.take()
    p.space_mode.append(False)
    args = p.parse_list()
    p.space_mode.pop()
    p.expect(")", opener)
    return args


def single_argument(p: Parser, name_token: Token) -> Node:
    """`sin(x)`, or `sin x` without parentheses: then, as on paper, the argument runs on through
    the factors written right against it (`sin 2x` is sin(2x), `\\sin 2\\theta` is sin(2θ)) and
    stops at an operator, a space or another function (`sin x cos x` is sin(x)·cos(x))."""
    if p.at("op", "("):
        args = parse_call_args(p, name_token)
        if len(args) != 1:
            raise ParseError("one_argument", name_token.pos, name=name_token.text)
        return args[0]
    if p.at("eof"):
        raise ParseError("unexpected_end", p.tok.pos, expected="(")
    factors = [p.parse_power()]
    while continues_argument(p):
        factors.append(p.parse_power())
    return factors[0] if len(factors) == 1 else p.make(Mul(tuple(factors)))


def continues_argument(p: Parser) -> bool:
    t = p.tok
    if t.space_before:
        return False
    if t.kind == "num" or (t.kind == "op" and t.text == "("):
        return True
    return t.kind == "name" and not is_function_name(t.text, p.decls)


def is_function_name(name: str, decls: Declarations) -> bool:
    return (name in decls.functions or name in BUILTIN_FUNCTIONS or name in NAME_ALIASES
            or name in ("diff", "transpose", "sigma"))


def parse_diff_call(p: Parser, t: Token) -> Node:
    args = parse_call_args(p, t)
    if len(args) not in (2, 3) or not isinstance(args[1], Sym):
        raise ParseError("diff_arguments", t.pos)
    order = 1
    if len(args) == 3:
        if not (isinstance(args[2], Num) and args[2].value.is_integer()
                and 1 <= args[2].value <= MAX_DIFF_ORDER):
            raise ParseError("derivative_order", t.pos, limit=MAX_DIFF_ORDER)
        order = int(args[2].value)
    return make_diff(p, args[0], args[1].name, order, t)


def make_diff(p: Parser, expr: Node, var: str, order: int, t: Token) -> Node:
    """Nested derivatives multiply the work: their total order is limited like one order."""
    total = order + sum(n.order for n in walk(expr) if isinstance(n, Diff | Apply))
    if total > MAX_DIFF_ORDER:
        raise LimitError("derivative_order", t.pos, limit=MAX_DIFF_ORDER)
    return p.make(Diff(expr, var, order))


def parse_group(p: Parser) -> Node:
    opener = p.take()
    closer = ")" if opener.text == "(" else "}"
    p.space_mode.append(False)
    saved_abs, p.abs_depth = p.abs_depth, 0
    items = p.parse_list()
    p.abs_depth = saved_abs
    p.space_mode.pop()
    p.expect(closer, opener)
    if len(items) == 1:
        return items[0]
    return p.make(Matrix((tuple(items),)))


def parse_brackets(p: Parser) -> Node:
    """`[a, b]`, `[a b]`, `[a; b]`, `[1 2; 3 4]`, `[[1,2],[3,4]]`."""
    opener = p.take()
    spaced = not has_top_level_comma(p)  # without commas, a space separates entries
    p.space_mode.append(spaced)
    saved_abs, p.abs_depth = p.abs_depth, 0
    rows: list[list[Node]] = [[]]
    while True:
        rows[-1].append(p.parse_sum())
        tok = p.tok
        is_op = tok.kind == "op"
        if is_op and tok.text == ",":
            p.take()
            continue
        if spaced and not (is_op and tok.text in "];") and tok.kind != "eof":
            continue  # the next entry starts right here
        if is_op and tok.text == ";":
            p.take()
            rows.append([])
            continue
        break
    p.abs_depth = saved_abs
    p.space_mode.pop()
    p.expect("]", opener)
    return p.make(rows_to_matrix(p, rows, opener))


def has_top_level_comma(p: Parser) -> bool:
    depth = 0
    for token in p.tokens[p.i:]:
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


def rows_to_matrix(p: Parser, rows: list[list[Node]], opener: Token) -> Matrix:
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


def parse_environment(p: Parser) -> Node:
    opener = p.take()
    rows: list[list[Node]] = [[]]
    p.space_mode.append(False)
    while not p.at("end"):
        rows[-1].append(p.parse_sum())
        if p.at("op", "&"):
            p.take()
        elif p.at("rowsep"):
            p.take()
            if not p.at("end"):
                rows.append([])
        elif not p.at("end"):
            raise ParseError("expected", p.tok.pos, expected="& \\\\ \\end", found=p.tok.text)
    p.space_mode.pop()
    p.take()
    return p.make(rows_to_matrix(p, rows, opener))


def parse_command(p: Parser) -> Node:
    t = p.take()
    if t.text == "frac":
        num = latex_argument(p)
        den = latex_argument(p)
        return p.make(Div(num, den))
    if t.text == "sqrt":
        if p.at("op", "["):
            opener = p.take()
            index = p.parse_sum()
            p.expect("]", opener)
            radicand = latex_argument(p)
            return p.make(Pow(radicand, p.make(Div(p.make(Num(1.0, "1")), index))))
        return p.make(Func("sqrt", latex_argument(p)))
    raise ParseError("unexpected_token", t.pos, found="\\top")


def latex_argument(p: Parser) -> Node:
    """`{...}`, or a single token as in `\\frac12` (one digit) or `\\frac ab`."""
    t = p.tok
    if t.kind == "op" and t.text == "{":
        return parse_group(p)
    if t.kind == "num":
        first = t.text[0]
        rest = t.text[1:]
        if rest:
            p.replace_current(Token("num", rest, t.pos + 1, t.end, False))
        else:
            p.take()
        return p.make(Num(float(first), first))
    if t.kind == "name":
        return parse_name(p)
    raise ParseError("expected", t.pos, expected="{", found=t.text)
