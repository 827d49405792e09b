"""The tree printed back as text the grader reads: `parse(to_text(tree))` is the same formula.

Plain ASCII (`*` for every product, `^` for powers, `^T` for transposes, `F'(x)`, `diff(e, x)`,
`[a, b]` / `[a; b]` / `[[a, b], [c, d]]`), with parentheses around every compound operand, so no
reading depends on precedence or on implicit products. Used to show mutants of a key
(`grader/mutants.py`); tests/grader/test_mutants.py checks the round trip on the answer corpus.
Like every walk over the tree, it dispatches on a table {node type: rule}.
"""

from __future__ import annotations

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
    by_member,
)

_ATOMS = (Const, Sym, MatSym, Ident, Func, FuncN, Apply, Diff, Matrix, Series, Member, Moment)
_POSTFIX = (Transpose, Factorial)  # bind tighter than any infix operator


def _operand(node: Node, *, postfix: bool = True) -> str:
    """A node as an operand of an operator: compound ones in parentheses. A postfix node (`A^T`,
    `n!`) needs none, except as the operand of a power or of another postfix operator."""
    text = to_text(node)
    if isinstance(node, _ATOMS) or (isinstance(node, Num) and node.value >= 0) or (
            postfix and isinstance(node, _POSTFIX)):
        return text
    return f"({text})"


def _num(n: Num) -> str:
    return n.text if n.text else repr(n.value)


def _add(n: Add) -> str:
    parts = [to_text(n.terms[0])]
    for term in n.terms[1:]:
        if isinstance(term, Neg):
            parts.append(f"- {_operand(term.arg)}")
        else:
            parts.append(f"+ {to_text(term)}")
    return " ".join(parts)


def _matrix(n: Matrix) -> str:
    if len(n.rows) == 1:
        return "[" + ", ".join(to_text(x) for x in n.rows[0]) + "]"
    if all(len(row) == 1 for row in n.rows):
        return "[" + "; ".join(to_text(row[0]) for row in n.rows) + "]"
    return "[" + ", ".join("[" + ", ".join(to_text(x) for x in row) + "]" for row in n.rows) + "]"


def _apply(n: Apply) -> str:
    """F'(x), F(x, W); a partial derivative by argument as diff of the call by that argument,
    which reads back to the same node when the argument is a symbol (as the chain rule's
    partials of a learner's `\\partial_x F(x, W)` are)."""
    text = f"{n.name}{chr(39) * n.order}({', '.join(to_text(a) for a in n.args)})"
    if not n.partials:
        return text
    call = f"{n.name}({', '.join(to_text(a) for a in n.args)})"
    for i in n.partials:
        call = f"diff({call}, {to_text(n.args[i])})"
    return call


def _diff(node: Diff) -> str:
    """diff(expr, x); by a declared vector or a family member (`x_{l+1}`), which diff() does
    not take, the operator ∂/∂x in LaTeX, which the parser reads the same way."""
    if node.vector or (by_member(node) and node.order == 1):
        family, sep, subscript = node.var.partition("_")
        var = f"{family}_{{{subscript}}}" if sep else node.var
        # bracketed whole: the operator takes the power after it (`(∂/∂y (L(y)))^T`)
        return rf"(\frac{{\partial}}{{\partial {var}}}({to_text(node.expr)}))"
    return f"diff({to_text(node.expr)}, {node.var}" + (f", {node.order})" if node.order != 1
                                                        else ")")


_PRINT = {
    Num: _num,
    Const: lambda n: n.name,
    Sym: lambda n: "∂" + n.name.replace("/", "/∂") if "/" in n.name else n.name,
    MatSym: lambda n: n.name,
    Ident: lambda n: "I",
    Neg: lambda n: f"-{_operand(n.arg)}",
    Add: _add,
    Mul: lambda n: " * ".join(_operand(f) for f in n.factors),
    Div: lambda n: f"{_operand(n.num)} / {_operand(n.den)}",
    Pow: lambda n: f"{_operand(n.base, postfix=False)}^{_operand(n.exp)}",
    Func: lambda n: f"{n.name}({to_text(n.arg)})",
    FuncN: lambda n: f"{n.name}({', '.join(to_text(a) for a in n.args)})",
    Apply: lambda n: _apply(n),
    Diff: lambda n: _diff(n),
    Transpose: lambda n: f"{_operand(n.arg, postfix=False)}^T",
    Factorial: lambda n: f"{_operand(n.arg, postfix=False)}!",
    Matrix: _matrix,
    # sum(body, i, a, b) reads back with the same direction (reading/series.py decides it from
    # the bounds); a member's index is printed in braces without spaces: x_{l+1}.
    Series: lambda n: (f"{n.op}({to_text(n.body)}, {n.var}, {to_text(n.lower)}, "
                       f"{to_text(n.upper)})"),
    Member: lambda n: (f"{n.family}_{{{_index_text(n.index)}}}"
                       + (f"{chr(39) * n.order}({', '.join(to_text(a) for a in n.args)})"
                          if n.kind == "function" else "")),
    # E[X], Var(X), Cov(X, Y): read back as moments where random variables are declared
    Moment: lambda n: (f"E[{to_text(n.args[0])}]" if n.op == "E"
                       else f"{n.op}({', '.join(to_text(a) for a in n.args)})"),
}


def _index_text(index: Node) -> str:
    """A member's index as the subscript the lexer reads (letters, digits, + and -: 2l, not
    2 * l)."""
    return to_text(index).replace(" ", "").replace("*", "").replace("(", "").replace(")", "")


def to_text(node: Node) -> str:
    """The node as text the grader reads back to the same formula."""
    return _PRINT[type(node)](node)
