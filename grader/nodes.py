"""The allowlisted syntax tree: small frozen dataclasses, nothing else can appear in a parsed answer."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

BUILTIN_FUNCTIONS = ("sqrt", "exp", "log", "sin", "cos", "tan", "tanh", "sinh", "cosh", "sech",
                     "sigmoid", "abs")


@dataclass(frozen=True, slots=True)
class Num:
    value: float
    text: str  # as typed (after normalization): used for significant-figure counting


@dataclass(frozen=True, slots=True)
class Const:
    name: str  # "e" or "pi"


@dataclass(frozen=True, slots=True)
class Sym:
    name: str


@dataclass(frozen=True, slots=True)
class MatSym:
    name: str


@dataclass(frozen=True, slots=True)
class Ident:
    pass


@dataclass(frozen=True, slots=True)
class Neg:
    arg: Node


@dataclass(frozen=True, slots=True)
class Add:
    terms: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Mul:
    factors: tuple[Node, ...]  # kept in order: matrix products do not commute


@dataclass(frozen=True, slots=True)
class Div:
    num: Node
    den: Node


@dataclass(frozen=True, slots=True)
class Pow:
    base: Node
    exp: Node


@dataclass(frozen=True, slots=True)
class Func:
    name: str  # one of BUILTIN_FUNCTIONS
    arg: Node


@dataclass(frozen=True, slots=True)
class Apply:
    """A declared undefined function; order = number of primes (F'(x) has order 1)."""

    name: str
    args: tuple[Node, ...]
    order: int = 0


@dataclass(frozen=True, slots=True)
class Diff:
    expr: Node
    var: str
    order: int = 1


@dataclass(frozen=True, slots=True)
class Transpose:
    arg: Node


@dataclass(frozen=True, slots=True)
class Factorial:
    arg: Node


@dataclass(frozen=True, slots=True)
class Matrix:
    rows: tuple[tuple[Node, ...], ...]  # a vector [a, b] is one row; [a; b] is one column


Node = (Num | Const | Sym | MatSym | Ident | Neg | Add | Mul | Div | Pow | Func | Apply | Diff
        | Transpose | Factorial | Matrix)


def children(node: Node) -> tuple[Node, ...]:
    match node:
        case Neg(a) | Func(_, a) | Transpose(a) | Factorial(a) | Diff(a, _, _):
            return (a,)
        case Add(items) | Mul(items) | Apply(_, items, _):
            return items
        case Div(a, b) | Pow(a, b):
            return (a, b)
        case Matrix(rows):
            return tuple(entry for row in rows for entry in row)
    return ()


def walk(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(children(current))


def count_nodes(node: Node) -> int:
    return sum(1 for _ in walk(node))


def symbol_names(node: Node) -> set[str]:
    """Plain symbols used, including differentiation variables."""
    names = {n.name for n in walk(node) if isinstance(n, Sym)}
    names.update(n.var for n in walk(node) if isinstance(n, Diff))
    return names


def is_constant(node: Node) -> bool:
    return not any(isinstance(n, Sym | MatSym | Apply | Diff | Ident) for n in walk(node))
