"""Render the parsed tree as LaTeX for "interpreted as" (built from the tree, never the raw text)."""

from __future__ import annotations

from .lexer import GREEK
from .nodes import (
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
    Mul,
    Neg,
    Node,
    Num,
    Pow,
    Sym,
    Transpose,
)

ATOM, POW, MUL, ADD = 5, 4, 3, 1
# LaTeX's own operator names where it has one (\sin, \arcsin, \coth), else \operatorname with
# the ISO 80000-2 name (arsinh, not asinh: the inverse of a hyperbolic function is an "area").
FUNC_LATEX = {
    "exp": r"\exp", "log": r"\ln", "sign": r"\operatorname{sgn}", "sigmoid": r"\sigma",
    "sin": r"\sin", "cos": r"\cos", "tan": r"\tan", "sec": r"\sec", "csc": r"\csc",
    "cot": r"\cot", "arcsin": r"\arcsin", "arccos": r"\arccos", "arctan": r"\arctan",
    "arcsec": r"\operatorname{arcsec}", "arccsc": r"\operatorname{arccsc}",
    "arccot": r"\operatorname{arccot}",
    "sinh": r"\sinh", "cosh": r"\cosh", "tanh": r"\tanh", "sech": r"\operatorname{sech}",
    "csch": r"\operatorname{csch}", "coth": r"\coth",
    "asinh": r"\operatorname{arsinh}", "acosh": r"\operatorname{arcosh}",
    "atanh": r"\operatorname{artanh}", "asech": r"\operatorname{arsech}",
    "acsch": r"\operatorname{arcsch}", "acoth": r"\operatorname{arcoth}",
}
# Functions written with delimiters around the argument instead of a name.
DELIMITED = {"sqrt": (r"\sqrt{", "}"), "cbrt": (r"\sqrt[3]{", "}"),
             "abs": (r"\left|", r"\right|"), "floor": (r"\left\lfloor ", r"\right\rfloor"),
             "ceil": (r"\left\lceil ", r"\right\rceil")}


def to_latex(node: Node) -> str:
    return _render(node)


# How tightly each type binds when written out; a negative number binds like a product.
_PREC = {Neg: MUL, Add: ADD, Mul: MUL, Div: MUL, Pow: POW, Transpose: POW}


def _prec(node: Node) -> int:
    kind = type(node)
    if kind is Num:
        return MUL if node.value < 0 else ATOM
    return _PREC.get(kind, ATOM)


def _wrap(node: Node, below: int) -> str:
    text = _render(node)
    return rf"\left({text}\right)" if _prec(node) < below else text


def name_latex(name: str) -> str:
    base, sep, sub = name.partition("_")
    head = "\\" + base if base in GREEK or base == "pi" else (
        base if len(base) == 1 else rf"\mathrm{{{base}}}")
    return f"{head}_{{{sub}}}" if sep else head


def number_latex(text: str) -> str:
    if text == "inf":
        return r"\infty"
    mantissa, sep, exponent = text.lower().partition("e")
    if not sep:
        return text
    return rf"{mantissa} \times 10^{{{int(exponent)}}}"


def _render(node: Node) -> str:
    rule = _RENDER.get(type(node))
    return rule(node) if rule is not None else r"\text{?}"


def _signed(text: str) -> str:
    # A term after "+" or "-" that starts with its own sign is parenthesised: 1 - (-F'(x)),
    # never 1 - -F'(x).
    return rf"\left({text}\right)" if text.startswith("-") else text


def _add(node: Add) -> str:
    terms = node.terms
    parts = [_render(terms[0])]
    for t in terms[1:]:
        if isinstance(t, Neg):
            parts.append(" - " + _signed(_wrap(t.arg, MUL)))
        else:
            parts.append(" + " + _signed(_render(t)))
    return "".join(parts)


def _mul(node: Mul) -> str:
    factors = node.factors
    out = _wrap(factors[0], MUL)
    for prev, f in zip(factors, factors[1:], strict=False):
        joiner = r" \cdot " if isinstance(f, Num) or isinstance(prev, Num) and \
            isinstance(f, Pow) and isinstance(f.base, Num) else " "
        out += joiner + _wrap(f, MUL + 1 if isinstance(f, Neg) else MUL)
    return out


def _func(node: Func) -> str:
    name, a = node.name, node.arg
    if name in DELIMITED:
        opener, closer = DELIMITED[name]
        return f"{opener}{_render(a)}{closer}"
    return rf"{FUNC_LATEX[name]}\left({_render(a)}\right)"


def _func_n(node: FuncN) -> str:
    if node.name == "log":  # log(x, base)
        x, base = node.args
        return rf"\log_{{{_render(base)}}}\left({_render(x)}\right)"
    if node.name == "binomial":
        n, k = node.args
        return rf"\binom{{{_render(n)}}}{{{_render(k)}}}"
    inner = ", ".join(_render(a) for a in node.args)
    return rf"\{node.name}\left({inner}\right)"


def _apply(node: Apply) -> str:
    inner = ", ".join(_render(a) for a in node.args)
    return rf"{name_latex(node.name)}{chr(39) * node.order}\left({inner}\right)"


def _diff(node: Diff) -> str:
    v, order = name_latex(node.var), node.order
    op = rf"\frac{{d}}{{d{v}}}" if order == 1 else rf"\frac{{d^{{{order}}}}}{{d{v}^{{{order}}}}}"
    return rf"{op}\left({_render(node.expr)}\right)"


def _matrix(node: Matrix) -> str:
    body = r" \\ ".join([" & ".join([_render(e) for e in row]) for row in node.rows])
    return rf"\begin{{bmatrix}}{body}\end{{bmatrix}}"


_RENDER = {
    Num: lambda n: number_latex(n.text),
    Const: lambda n: "e" if n.name == "e" else r"\pi",
    Sym: lambda n: name_latex(n.name),
    MatSym: lambda n: name_latex(n.name),
    Ident: lambda n: "I",
    Neg: lambda n: "-" + _wrap(n.arg, MUL + 1 if isinstance(n.arg, Neg) else MUL),
    Add: _add,
    Mul: _mul,
    Div: lambda n: rf"\frac{{{_render(n.num)}}}{{{_render(n.den)}}}",
    Pow: lambda n: f"{{{_wrap(n.base, ATOM)}}}^{{{_render(n.exp)}}}",
    Func: _func,
    FuncN: _func_n,
    Apply: _apply,
    Diff: _diff,
    Transpose: lambda n: f"{{{_wrap(n.arg, ATOM)}}}^{{\\top}}",
    Factorial: lambda n: _wrap(n.arg, ATOM) + "!",
    Matrix: _matrix,
}
