"""Render the parsed tree as LaTeX for "interpreted as" (built from the tree, never the raw text)."""

from __future__ import annotations

from .constant import constant_value
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
    Member,
    Moment,
    Mul,
    Neg,
    Node,
    Num,
    Pow,
    Series,
    Sym,
    Transpose,
    walk,
)
from .series import SERIES_SIGNS

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
    if "/" in name:  # an unknown gradient `L/x_L` (parser.py: leibniz_of_value)
        top, _, var = name.partition("/")
        return rf"\frac{{\partial {name_latex(top)}}}{{\partial {name_latex(var)}}}"
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
    norm_of = _norm_argument(node)
    if norm_of is not None:
        return rf"\left\|{_render(norm_of)}\right\|"
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
    if node.name == "atan2":  # no LaTeX command: written as SymPy's printer does
        y, x = node.args
        return rf"\operatorname{{atan2}}\left({_render(y)}, {_render(x)}\right)"
    inner = ", ".join(_render(a) for a in node.args)
    return rf"\{node.name}\left({inner}\right)"


def _apply(node: Apply) -> str:
    inner = ", ".join(_render(a) for a in node.args)
    # A partial derivative by argument positions (1-based, as D_1 F in analysis texts).
    by = rf"\partial_{{{','.join(str(i + 1) for i in node.partials)}}}" if node.partials else ""
    return rf"{by}{name_latex(node.name)}{chr(39) * node.order}\left({inner}\right)"


def _norm_argument(node: Func) -> Node | None:
    """v for sqrt(v^T v), which is how the parser reads the norm \\|v\\|."""
    a = node.arg
    if node.name == "sqrt" and type(a) is Mul and len(a.factors) == 2 \
            and type(a.factors[0]) is Transpose and a.factors[0].arg == a.factors[1] \
            and type(a.factors[1]) is not Sym:
        return a.factors[1]
    return None


def _transpose(node: Transpose) -> str:
    """A transpose; the transposed Jacobian of a scalar by a vector is its gradient ∇_x."""
    a = node.arg
    if type(a) is Diff and a.vector:
        return rf"\nabla_{{{name_latex(a.var)}}}\left({_render(a.expr)}\right)"
    return f"{{{_wrap(a, ATOM)}}}^{{\\top}}"


def _diff(node: Diff) -> str:
    """d/dx, or ∂/∂x when what it differentiates has a function of several arguments; by a
    declared vector, ∂/∂x (a Jacobian; ∂y/∂x for a vector y)."""
    v, order = name_latex(node.var), node.order
    if node.vector:
        if type(node.expr) is MatSym:
            return rf"\frac{{\partial {_render(node.expr)}}}{{\partial {v}}}"
        return rf"\frac{{\partial}}{{\partial {v}}}\left({_render(node.expr)}\right)"
    if type(node.expr) is Member and node.var.partition("_")[0] == node.expr.family:
        return rf"\frac{{\partial {_render(node.expr)}}}{{\partial {v}}}"  # ∂x_L/∂x_l
    d = r"\partial " if _has_several_arguments(node.expr) else "d"
    op = (rf"\frac{{{d}}}{{{d}{v}}}" if order == 1
          else rf"\frac{{{d}^{{{order}}}}}{{{d}{v}^{{{order}}}}}")
    return rf"{op}\left({_render(node.expr)}\right)"


def _has_several_arguments(node: Node) -> bool:
    return any(type(n) is Apply and len(n.args) > 1 for n in walk(node))


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
    Transpose: _transpose,
    Factorial: lambda n: _wrap(n.arg, ATOM) + "!",
    Matrix: _matrix,
    Series: lambda n: _series(n),
    Member: lambda n: _member(n),
    Moment: lambda n: _moment(n),
}


_NON_COMMUTING = (MatSym, Ident)


def _series(node: Series) -> str:
    r"""`\sum_{i=1}^{n} i`; a product of matrices also shows its order written out,
    `\prod_{l=L}^{1} W_{l} \;[= W_{L} W_{L-1} \cdots W_{1}]` (the order the index runs)."""
    body = _wrap(node.body, MUL + 1)
    text = (rf"{SERIES_SIGNS[node.op]}_{{{name_latex(node.var)}={_render(node.lower)}}}"
            rf"^{{{_render(node.upper)}}} {body}")
    if node.op == "prod" and _non_commuting(node.body):
        step = -1 if node.descending else 1
        count = _factor_count(node, step)
        if count is not None and count <= 3:  # written out in full: no ⋯ past the last factor
            factors = [_at(node, _shifted(node.lower, k * step)) for k in range(count)]
            written = r" \, ".join(factors) or "I"  # an empty product is the identity
            text += rf" \;\left[= {written}\right]"
        else:
            first = _at(node, node.lower)
            second = _at(node, _shifted(node.lower, step))
            last = _at(node, node.upper)
            text += rf" \;\left[= {first} \, {second} \cdots {last}\right]"
    return text


def _factor_count(node: Series, step: int) -> int | None:
    """How many factors a range with numbers for bounds has (0 when it is empty), else None."""
    lower, upper = constant_value(node.lower), constant_value(node.upper)
    if lower is None or upper is None:
        return None
    return max(0, int(round((upper - lower) * step)) + 1)


def _non_commuting(node: Node) -> bool:
    return any(isinstance(n, _NON_COMMUTING) or (type(n) is Member and n.kind == "matrix")
               for n in walk(node))


def _shifted(bound: Node, step: int) -> Node:
    """bound + step, with a written number folded in (1 -> 2, L - 1 -> L - 2)."""
    if type(bound) is Num:
        value = int(bound.value) + step
        return Num(float(value), str(value))
    terms = bound.terms if type(bound) is Add else (bound,)
    last = terms[-1]
    number = last.arg if type(last) is Neg else last
    if len(terms) > 1 and type(number) is Num:
        value = (-number.value if type(last) is Neg else number.value) + step
        rest = terms[:-1]
        if value == 0:
            return rest[0] if len(rest) == 1 else Add(rest)
        folded = Num(abs(value), str(int(abs(value))))
        return Add((*rest, folded if value > 0 else Neg(folded)))
    one = Num(1.0, "1")
    return Add((*terms, one if step > 0 else Neg(one)))


def _at(node: Series, value: Node) -> str:
    """The product's factor at index `value`, rendered (the index replaced in the body)."""
    return _wrap(substitute(node.body, node.var, value), MUL + 1)


def substitute(node: Node, name: str, value: Node) -> Node:
    """`node` with the symbol `name` replaced by `value` (not under a range that binds it)."""
    if type(node) is Sym:
        return value if node.name == name else node
    if type(node) is Series and node.var == name:
        return node
    changes = {}
    for field in node.__slots__:
        current = getattr(node, field)
        if isinstance(current, tuple):
            changes[field] = tuple(
                tuple(substitute(x, name, value) for x in item) if isinstance(item, tuple)
                else substitute(item, name, value) if _is_node(item) else item
                for item in current)
        elif _is_node(current):
            changes[field] = substitute(current, name, value)
    return type(node)(**{f: changes.get(f, getattr(node, f)) for f in node.__slots__}) \
        if changes else node


def _is_node(value: object) -> bool:
    return hasattr(value, "__slots__") and type(value).__module__ == Num.__module__


def _moment(node: Moment) -> str:
    r"""`\mathbb{E}\left[X\right]`, `\operatorname{Var}\left(X\right)` (D(X) is shown as the
    variance it was read as), `\operatorname{Cov}\left(X, Y\right)`."""
    inner = ", ".join(_render(a) for a in node.args)
    if node.op == "E":
        return rf"\mathbb{{E}}\left[{inner}\right]"
    return rf"\operatorname{{{node.op}}}\left({inner}\right)"


def _member(node: Member) -> str:
    head = f"{name_latex(node.family)}_{{{_render(node.index)}}}"
    if node.kind != "function":
        return head
    inner = ", ".join(_render(a) for a in node.args)
    return rf"{head}{chr(39) * node.order}\left({inner}\right)"
