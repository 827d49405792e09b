"""Sums and products written with an ellipsis, `a_1 + a_2 + \\cdots + a_n` and
`(1+F_1'(x_1))(1+F_2'(x_2))\\cdots(1+F_L'(x_L))`, read as the `\\sum`/`\\prod` they stand for
(issue 25, item 5).

The general term is inferred from the terms written: the terms right before the dots that have
the last term's form, which differ from it only in whole-number indices (a family member's
index, a Leibniz derivative's member, a power's exponent, a term that is itself an index). One
position is the index i (the first that varies); every other varying position must move with it
by a whole multiple. The step is the difference between the two terms written last before the
dots, or, with one term, ±1 in the direction the bounds are written (reading/series.py). The
last term must be the general term at some i, so `x_1 + x_2 + \\cdots + x_n` is
\\sum_{i=1}^{n} x_i, `\\frac{\\partial x_L}{\\partial x_{L-1}} \\frac{\\partial x_{L-1}}{\\partial
x_{L-2}} \\cdots \\frac{\\partial x_{l+1}}{\\partial x_l}` is \\prod_{i=L}^{l+1} \\frac{\\partial
x_{i}}{\\partial x_{i-1}} (downwards, as written), and `1 + 2 + \\cdots + n` is \\sum_{i=1}^{n} i.
Anything else is refused with a message asking for the `\\sum`/`\\prod` (`x_1 + y_2 + \\cdots`,
a step that is not a whole number, a last term of another form). A name with a subscript that
varies but is not a declared family (`a_1 + a_2 + \\cdots + a_n` without `families: [a]`) is
refused with a message asking to declare it.
"""

from __future__ import annotations

from dataclasses import fields, replace
from fractions import Fraction

from ..errors import ParseError
from .nodes import Add, Diff, Mul, Neg, Node, Num, Sym, walk
from .series import make_series, runs_downward

INDEX_NAMES = ("i", "j", "k", "m", "p", "q")
Form = dict  # a linear form of integer names: {name: coefficient, "": constant}


def linear_form(node: Node) -> Form | None:
    """`L - 1` -> {"L": 1, "": -1}; None when the node is not a whole-number linear form."""
    kind = type(node)
    if kind is Num:
        value = Fraction(node.value) if node.value == node.value and abs(node.value) < 1e15 \
            else None
        return {"": value} if value is not None and value.denominator == 1 else None
    if kind is Sym:
        return {node.name: Fraction(1)}
    if kind is Neg:
        inner = linear_form(node.arg)
        return None if inner is None else {k: -v for k, v in inner.items()}
    if kind is Add:
        total: Form = {}
        for term in node.terms:
            part = linear_form(term)
            if part is None:
                return None
            for k, v in part.items():
                total[k] = total.get(k, 0) + v
        return _clean(total)
    if kind is Mul and len(node.factors) == 2 and type(node.factors[0]) is Num:
        scale, inner = linear_form(node.factors[0]), linear_form(node.factors[1])
        if scale is None or inner is None or set(scale) != {""}:
            return None
        return _clean({k: scale[""] * v for k, v in inner.items()})
    return None


def _clean(form: Form) -> Form:
    return {k: v for k, v in form.items() if v != 0}


def _minus(a: Form, b: Form) -> Form:
    return _clean({k: a.get(k, 0) - b.get(k, 0) for k in set(a) | set(b)})


def _plus(a: Form, b: Form, times: Fraction = Fraction(1)) -> Form:
    return _clean({k: a.get(k, 0) + times * b.get(k, 0) for k in set(a) | set(b)})


def form_node(form: Form) -> Node:
    """The node of a linear form: names first, the constant last (`i + 1`, `i - 1`, `2 i`)."""
    terms: list[Node] = []
    for name in sorted(k for k in form if k):
        c = form[name]
        term = Sym(name) if abs(c) == 1 else Mul((_number(abs(c)), Sym(name)))
        terms.append(Neg(term) if c < 0 else term)
    constant = form.get("", 0)
    if constant or not terms:
        terms.append(Neg(_number(-constant)) if constant < 0 else _number(constant))
    return terms[0] if len(terms) == 1 else Add(tuple(terms))


def _number(value: Fraction) -> Num:
    return Num(float(value), str(value))


def _form_text(form: Form) -> str:
    """A linear form as a subscript the lexer reads (`i+1`, `i-1`, `2i`)."""
    text = ""
    for name in sorted(k for k in form if k):
        c = form[name]
        sign = "-" if c < 0 else ("+" if text else "")
        text += sign + ("" if abs(c) == 1 else str(abs(c))) + name
    constant = form.get("", 0)
    if constant or not text:
        text += ("-" if constant < 0 else ("+" if text else "")) + str(abs(constant))
    return text


# -- aligning terms: the positions where they differ -------------------------------------------

class _Mismatch(Exception):
    pass


def _slots(a: Node, b: Node, path: tuple = ()) -> dict[tuple, tuple[Form, Form]]:
    """{position: (form in a, form in b)} where two terms of the same form differ; raises
    _Mismatch where they differ otherwise."""
    if a == b:
        return {}
    form_a, form_b = linear_form(a), linear_form(b)
    if form_a is not None and form_b is not None and not (type(a) is Sym and type(b) is Sym
                                                         and "_" in a.name + b.name):
        return {path: (form_a, form_b)}
    if type(a) is not type(b):
        raise _Mismatch
    if type(a) is Sym:  # x_1 and x_2 of a family that is not declared
        raise _Unfamily(a.name.partition("_")[0])
    found: dict[tuple, tuple[Form, Form]] = {}
    for f in fields(a):
        va, vb = getattr(a, f.name), getattr(b, f.name)
        if va == vb:
            continue
        if type(a) is Diff and f.name == "var":
            found.update(_var_slot(va, vb, path))
        elif isinstance(va, tuple) and isinstance(vb, tuple) and len(va) == len(vb):
            for k, (x, y) in enumerate(zip(va, vb, strict=True)):
                if isinstance(x, tuple) or not _is_node(x):
                    raise _Mismatch
                found.update(_slots(x, y, (*path, f.name, k)))
        elif _is_node(va) and _is_node(vb):
            found.update(_slots(va, vb, (*path, f.name)))
        else:
            raise _Mismatch
    return found


class _Unfamily(_Mismatch):
    def __init__(self, family: str) -> None:
        super().__init__(family)
        self.family = family


def _var_slot(va: str, vb: str, path: tuple) -> dict[tuple, tuple[Form, Form]]:
    """The variable of ∂x_{L}/∂x_{L-1} is text: its member's index, as a position of its own."""
    fa, _, ia = va.partition("_")
    fb, _, ib = vb.partition("_")
    if fa != fb or not ia or not ib:
        raise _Mismatch
    forms = _subscript_form(ia), _subscript_form(ib)
    if forms[0] is None or forms[1] is None:
        raise _Mismatch
    return {(*path, "var"): forms}


def _subscript_form(text: str) -> Form | None:
    """`L-1`, `l+1`, `2i`, `3` -> a linear form (no parser: the subscript is letters, digits, +
    and -)."""
    form: Form = {}
    for piece in text.replace("-", "+-").split("+"):
        if not piece:
            continue
        sign = -1 if piece.startswith("-") else 1
        piece = piece.lstrip("-")
        digits = "".join(ch for ch in piece if ch.isdigit())
        name = piece[len(digits):]
        if not piece or (name and not name.isalpha()) or (digits and not piece.startswith(digits)):
            return None
        form[name] = form.get(name, 0) + sign * Fraction(int(digits) if digits else 1)
    return _clean(form)


def _is_node(value: object) -> bool:
    return hasattr(value, "__slots__") and type(value).__module__ == Num.__module__


def _put(node: Node, path: tuple, form: Form) -> Node:
    """`node` with the linear form at `path` (a Diff's variable keeps its family name)."""
    if not path:
        return form_node(form)
    name, rest = path[0], path[1:]
    if type(node) is Diff and name == "var" and not rest:
        return replace(node, var=f"{node.var.partition('_')[0]}_{_form_text(form)}")
    value = getattr(node, name)
    if isinstance(value, tuple):
        k = rest[0]
        items = list(value)
        items[k] = _put(items[k], rest[1:], form)
        return replace(node, **{name: tuple(items)})
    return replace(node, **{name: _put(value, rest, form)})


# -- inferring the series ------------------------------------------------------------------------

def infer_series(op: str, before: list[Node], last: Node, pos: int) -> tuple[list[Node], Node]:
    """(the terms before the pattern, the Series) for `before[0] ∘ … ∘ before[-1] ∘ ⋯ ∘ last`,
    where ∘ is + (op "sum") or × ("prod"). Raises ParseError when no general term fits."""
    try:
        run = _pattern_run(before, last)
        return before[:len(before) - len(run)], _series(op, run, last, pos)
    except _Unfamily as err:
        raise ParseError("dots_needs_family", pos, family=err.family) from None
    except _Mismatch:
        raise ParseError("dots_cannot_infer", pos) from None


def _pattern_run(before: list[Node], last: Node) -> list[Node]:
    """The terms at the end of `before` that have the last term's form (at least one)."""
    run: list[Node] = []
    for term in reversed(before):
        try:
            _slots(term, last)
        except _Unfamily:
            if run:
                break
            raise
        except _Mismatch:
            break
        run.insert(0, term)
    if not run:
        raise _Mismatch
    return run


def _series(op: str, run: list[Node], last: Node, pos: int) -> Node:
    first = run[0]
    to_last = _slots(first, last)
    if not to_last:  # the same term throughout: its count cannot be known
        raise _Mismatch
    positions = sorted(to_last, key=str)
    key = positions[0]
    lower_form, upper_form = to_last[key]
    if len(run) >= 2:
        steps = _slots(run[0], run[1])
        step_form = _minus(steps.get(key, (lower_form, lower_form))[1], lower_form)
        if set(step_form) - {""} or step_form.get("", 0) == 0:
            raise _Mismatch  # the step is not a whole number
        step = step_form[""]
    else:
        step = Fraction(-1 if runs_downward(form_node(lower_form), form_node(upper_form)) else 1)
    if abs(step) != 1:
        raise _Mismatch  # every other index (x_1 + x_3 + ⋯): write it with \sum
    scale = {}  # each position moves k times as fast as the key position
    for p in positions:
        a, b = to_last[p]
        if len(run) >= 2:
            moved = _minus(_slots(run[0], run[1]).get(p, (a, a))[1], a)
        else:
            moved = {"": step}
        if set(moved) - {""} or moved.get("", 0) % step:
            raise _Mismatch
        scale[p] = moved.get("", 0) / step
        # the last term is the general term at i = upper: b = a + k (upper - lower)
        if _plus(a, _minus(upper_form, lower_form), scale[p]) != b:
            raise _Mismatch
    for k, term in enumerate(run[1:], start=1):  # the terms written are the general term too
        expected = {p: (to_last[p][0], _plus(to_last[p][0], {"": step * k}, scale[p]))
                    for p in positions if scale[p] != 0}
        if _slots(first, term) != expected:
            raise _Mismatch
    used = {n.name for t in (*run, last) for n in walk(t) if type(n) is Sym}
    index = next(n for n in INDEX_NAMES if n not in used and n not in lower_form
                 and n not in upper_form)
    body = first
    for p in positions:  # position p holds a + k (i - lower)
        a = to_last[p][0]
        body = _put(body, p, _plus(a, _minus({index: Fraction(1)}, lower_form), scale[p]))
    series = make_series(op, index, form_node(lower_form), form_node(upper_form), body, pos)
    if series.descending != (step < 0):
        raise _Mismatch  # written one way, running the other
    return series

