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
FUNC_LATEX = {"sin": r"\sin", "cos": r"\cos", "tan": r"\tan", "tanh": r"\tanh", "sinh": r"\sinh",
              "cosh": r"\cosh", "exp": r"\exp", "log": r"\ln", "sech": r"\operatorname{sech}",
              "sigmoid": r"\sigma"}


def to_latex(node: Node) -> str:
    return _render(node)


def _prec(node: Node) -> int:
    match node:
        case Add():
            return ADD
        case Neg() | Mul() | Div():
            return MUL
        case Pow() | Transpose():
            return POW
        case Num(v, _) if v < 0:
            return MUL
    return ATOM


def _wrap(node: Node, below: int) -> str:
    text = _render(node)
    return rf"\left({text}\right)" if _prec(node) < below else text


def name_latex(name: str) -> str:
    base, sep, sub = name.partition("_")
    head = "\\" + base if base in GREEK or base == "pi" else (
        base if len(base) == 1 else rf"\mathrm{{{base}}}")
    return f"{head}_{{{sub}}}" if sep else head


def number_latex(text: str) -> str:
    mantissa, sep, exponent = text.lower().partition("e")
    if not sep:
        return text
    return rf"{mantissa} \times 10^{{{int(exponent)}}}"


def _render(node: Node) -> str:
    match node:
        case Num(_, text):
            return number_latex(text)
        case Const(name):
            return "e" if name == "e" else r"\pi"
        case Sym(name) | MatSym(name):
            return name_latex(name)
        case Ident():
            return "I"
        case Neg(a):
            return "-" + _wrap(a, MUL + 1 if isinstance(a, Neg) else MUL)
        case Add(terms):
            parts = [_render(terms[0])]
            for t in terms[1:]:
                if isinstance(t, Neg):
                    parts.append(" - " + _wrap(t.arg, MUL))
                else:
                    parts.append(" + " + _render(t))
            return "".join(parts)
        case Mul(factors):
            out = _wrap(factors[0], MUL)
            for prev, f in zip(factors, factors[1:], strict=False):
                joiner = r" \cdot " if isinstance(f, Num) or isinstance(prev, Num) and \
                    isinstance(f, Pow) and isinstance(f.base, Num) else " "
                out += joiner + _wrap(f, MUL + 1 if isinstance(f, Neg) else MUL)
            return out
        case Div(a, b):
            return rf"\frac{{{_render(a)}}}{{{_render(b)}}}"
        case Pow(a, b):
            return f"{{{_wrap(a, ATOM)}}}^{{{_render(b)}}}"
        case Func("sqrt", a):
            return rf"\sqrt{{{_render(a)}}}"
        case Func("abs", a):
            return rf"\left|{_render(a)}\right|"
        case Func(name, a):
            return rf"{FUNC_LATEX[name]}\left({_render(a)}\right)"
        case Apply(name, args, order):
            inner = ", ".join(_render(a) for a in args)
            return rf"{name_latex(name)}{chr(39) * order}\left({inner}\right)"
        case Diff(expr, var, order):
            v = name_latex(var)
            op = rf"\frac{{d}}{{d{v}}}" if order == 1 else rf"\frac{{d^{{{order}}}}}{{d{v}^{{{order}}}}}"
            return rf"{op}\left({_render(expr)}\right)"
        case Transpose(a):
            return f"{{{_wrap(a, ATOM)}}}^{{\\top}}"
        case Factorial(a):
            return _wrap(a, ATOM) + "!"
        case Matrix(rows):
            body = r" \\ ".join(" & ".join(_render(e) for e in row) for row in rows)
            return rf"\begin{{bmatrix}}{body}\end{{bmatrix}}"
    return r"\text{?}"
