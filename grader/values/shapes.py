"""Sizes of a derivation's vectors and matrices (issue 25), inferred from how the lines use them.

Declarations say which names are vectors and matrices, never their sizes: the checker picks
them. Every dimension a formula mentions (a vector's length, a matrix's rows and columns, a
vector function's input and output) is a variable; products (`W x`: W's columns are x's
length), sums (`x + F(x)`: F's output is x's length), transposes, Jacobians and gradients make
variables equal. The classes that remain get distinct sizes (3, 2, 4, 5, ...), so a matrix
nothing forces to be square is not square, and a missing transpose is a shape error or a
wrong value, never silently right (`W` for `W^T` in `W^T(Wx - y)` multiplies a 2×3 matrix by
a 2×1 vector).

The reference fixes the sizes: lines are read in order (the relations first, then the start,
then each line), and once a line has been read its classes are settled. A later line may tie a
new name to them, but it cannot make two settled classes one (a learner's `W(Wx - y)` does not
make W square): such a tie is skipped and the evaluation reports the shape error.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..reading.nodes import (
    Add,
    Apply,
    Diff,
    Div,
    Func,
    Ident,
    Matrix,
    MatSym,
    Member,
    Mul,
    Neg,
    Node,
    Pow,
    Series,
    Transpose,
    by_member,
)

SIZES = (3, 2, 4, 5, 6, 7)  # one per class of dimensions, in order of first use
ONE = "1"  # the dimension of a scalar, and of a vector's single column


@dataclass(frozen=True, slots=True)
class VectorSpace:
    """What the values stage needs to sample vectors: each name's (rows, cols) (a vector
    function's (output, input)), and the vectors defined by a relation (`y = x + Wx`), whose
    values are computed from their definition (so a Jacobian by x sees y move)."""

    sizes: tuple[tuple[str, tuple[int, int]], ...]
    definitions: tuple[tuple[str, Node], ...] = ()

    def size_of(self) -> dict[str, tuple[int, int]]:
        return dict(self.sizes)


class _Dimensions:
    """Union-find over dimension variables; `settled` roots are fixed by earlier lines."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}
        self.settled: set[str] = set()
        self.fresh = 0

    def find(self, d: str) -> str:
        self.parent.setdefault(d, d)
        while self.parent[d] != d:
            self.parent[d] = self.parent[self.parent[d]]
            d = self.parent[d]
        return d

    def new(self) -> str:
        self.fresh += 1
        return f"#{self.fresh}"

    def tie(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra == rb or ONE in (ra, rb):
            return  # a named dimension is never forced to 1 (that is a shape mistake)
        if ra in self.settled and rb in self.settled:
            return  # a later line cannot merge what the reference keeps apart
        if ra in self.settled:
            ra, rb = rb, ra
        self.parent[ra] = rb

    def settle(self) -> None:
        self.settled = {self.find(d) for d in list(self.parent)}


Shape = tuple[str, str] | None  # None: a scalar


class _Reader:
    def __init__(self, vectors: frozenset[str], vector_functions: frozenset[str],
                 matrices: frozenset[str]) -> None:
        self.vectors, self.vector_functions, self.matrices = vectors, vector_functions, matrices
        self.dims = _Dimensions()

    def shape(self, node: Node) -> Shape:
        rule = _RULES.get(type(node))
        return rule(self, node) if rule is not None else None

    def scalar_like(self, s: Shape) -> bool:
        return s is None or (self.dims.find(s[0]) == ONE and self.dims.find(s[1]) == ONE)

    def name_shape(self, name: str) -> Shape:
        if name in self.vectors:
            return (f"{name}.rows", ONE)
        if name in self.matrices:
            return (f"{name}.rows", f"{name}.cols")
        return None

    def product(self, shapes: list[Shape]) -> Shape:
        result: Shape = None
        for s in shapes:
            if self.scalar_like(s):
                continue
            if self.scalar_like(result):
                result = s
                continue
            self.dims.tie(result[1], s[0])
            result = (result[0], s[1])
        return result

    def apply(self, name: str, args: tuple[Node, ...], order: int) -> Shape:
        shapes = [self.shape(a) for a in args]
        if name in self.vector_functions and len(args) == 1:
            arg = shapes[0]
            if arg is not None:
                self.dims.tie(arg[0], f"{name}.cols")
            return (f"{name}.rows", ONE if order == 0 else f"{name}.cols")
        if order == 1 and len(args) == 1 and not self.scalar_like(shapes[0]):
            return (ONE, shapes[0][0])  # L'(y): the gradient of a scalar function, as a row
        return None


def _add(r: _Reader, node: Add) -> Shape:
    shapes = [s for s in (r.shape(t) for t in node.terms) if not r.scalar_like(s)]
    for s in shapes[1:]:
        r.dims.tie(shapes[0][0], s[0])
        r.dims.tie(shapes[0][1], s[1])
    return shapes[0] if shapes else None


def _ident(r: _Reader, node: Ident) -> Shape:
    d = r.dims.new()  # the identity of whatever size it meets
    return (d, d)


def _pow(r: _Reader, node: Pow) -> Shape:
    base = r.shape(node.base)
    if r.scalar_like(base):
        return None
    r.dims.tie(base[0], base[1])
    return base


def _transpose(r: _Reader, node: Transpose) -> Shape:
    s = r.shape(node.arg)
    return None if s is None else (s[1], s[0])


def _diff(r: _Reader, node: Diff) -> Shape:
    s = r.shape(node.expr)
    family = node.var.partition("_")[0]
    if not node.vector and not (by_member(node) and family in r.vectors):
        return s
    var = node.var if node.vector else family  # ∂x_L/∂x_l: by a member of a family of vectors
    rows = ONE if r.scalar_like(s) else (s[0] if r.dims.find(s[1]) == ONE else s[1])
    return (rows, f"{var}.rows")


def _member(r: _Reader, node: Member) -> Shape:
    if node.kind == "function":
        return r.apply(node.family, node.args, node.order)
    return r.name_shape(node.family)


def _matrix(r: _Reader, node: Matrix) -> Shape:
    for row in node.rows:
        for entry in row:
            r.shape(entry)
    return None  # typed entries: its own sizes, checked when evaluated


_RULES = {
    MatSym: lambda r, n: r.name_shape(n.name),
    Ident: _ident,
    Neg: lambda r, n: r.shape(n.arg),
    Add: _add,
    Mul: lambda r, n: r.product([r.shape(f) for f in n.factors]),
    Div: lambda r, n: (r.shape(n.den), r.shape(n.num))[1],
    Pow: _pow,
    Func: lambda r, n: r.shape(n.arg),
    Apply: lambda r, n: r.apply(n.name, n.args, n.order),
    Diff: _diff,
    Transpose: _transpose,
    Matrix: _matrix,
    Series: lambda r, n: (r.shape(n.lower), r.shape(n.upper), r.shape(n.body))[2],
    Member: _member,
}


@lru_cache(maxsize=256)
def infer_space(nodes: tuple[Node, ...], vectors: frozenset[str],
                vector_functions: frozenset[str], matrices: frozenset[str],
                definitions: tuple[tuple[str, Node], ...] = ()) -> VectorSpace:
    """Sizes for every vector, matrix and vector function, from `nodes` read in order (see
    the module docstring); `definitions` (`y = x + Wx`) are read first."""
    reader = _Reader(vectors, vector_functions, matrices)
    for name, definition in definitions:
        _add(reader, Add((MatSym(name), definition)))
        reader.dims.settle()
    for node in nodes:
        reader.shape(node)
        reader.dims.settle()
    classes: dict[str, int] = {}

    def size(d: str) -> int:
        root = reader.dims.find(d)
        if root == ONE:
            return 1
        if root not in classes:
            classes[root] = SIZES[len(classes) % len(SIZES)]
        return classes[root]

    sizes = []
    for name in sorted(vectors | vector_functions | matrices):
        rows = size(f"{name}.rows")
        cols = 1 if name in vectors and name not in vector_functions else size(f"{name}.cols")
        sizes.append((name, (rows, cols)))
    return VectorSpace(tuple(sizes), definitions)
