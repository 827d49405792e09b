"""The allowlisted syntax tree: small frozen dataclasses, nothing else can appear in a parsed answer.

Every walk over the tree dispatches the same way: the node's type is looked up in a table
`{NodeType: rule}` written right below the rules, one entry per type in the order the types are
declared here (`_CHILDREN` below; latex.py, constant.py, evaluate.py, differentiate.py,
symbolic/build.py); a type missing from a table gets that walk's stated fallback. A lookup costs
the same for every type, where an isinstance chain or a `match` statement costs more the further
down a type sits, and these walks run over every node of every keystroke.
tests/grader/test_tree_walks.py checks that each walk handles every node type.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain

# Functions of one argument (Func), known in every question. Each has a rule in every walk.
BUILTIN_FUNCTIONS = (
    "sqrt", "cbrt", "exp", "log", "abs", "sign", "sigmoid",
    "sin", "cos", "tan", "sec", "csc", "cot",
    "arcsin", "arccos", "arctan", "arcsec", "arccsc", "arccot",
    "sinh", "cosh", "tanh", "sech", "csch", "coth",
    "asinh", "acosh", "atanh", "asech", "acsch", "acoth",
)
# Functions of one argument (Func) known only where a question declares them: their values jump,
# so random samples can miss where two formulas differ; the question's author decides.
DECLARABLE_FUNCTIONS = ("floor", "ceil")
# Functions of several arguments (FuncN): max(a, b, ...), min(a, b, ...), log(x, base),
# binomial(n, k) = Gamma(n+1) / (Gamma(k+1) Gamma(n-k+1)) (DLMF 1.2.6, 5.2.1), atan2(y, x) the
# angle of the point (x, y) in (-pi, pi], y first as in C, numpy and SymPy (undefined at (0, 0)).
MULTI_ARG_FUNCTIONS = ("max", "min", "log", "binomial", "atan2")


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
class FuncN:
    """A built-in function of several arguments: max/min of two or more, log(x, base)."""

    name: str  # one of MULTI_ARG_FUNCTIONS
    args: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Apply:
    """A declared undefined function; order = number of primes (F'(x) has order 1).

    A function of several arguments is differentiated by argument: `partials` lists, in
    ascending order, the argument positions (0-based) it is differentiated by, once per order
    (the partial derivative of F(x, W) by its first argument, evaluated at (x, W), has
    partials (0,); ∂²F/∂x∂W has (0, 1)). Learners write these as Leibniz derivatives of the
    call (`\\frac{\\partial F(x, W)}{\\partial x}`, `\\partial_x F(x, W)`); the chain rule makes
    them (values/differentiate.py)."""

    name: str
    args: tuple[Node, ...]
    order: int = 0
    partials: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Diff:
    """d/dvar of expr. `vector`: var is a declared vector, and this is the Jacobian of expr
    (rows: expr's entries, columns: var's; a scalar's is a row), evaluated numerically
    (values/evaluate.py) rather than expanded by rules; the gradient \\nabla_x L is its
    transpose."""

    expr: Node
    var: str
    order: int = 1
    vector: bool = False


@dataclass(frozen=True, slots=True)
class Transpose:
    arg: Node


@dataclass(frozen=True, slots=True)
class Factorial:
    """arg! = Gamma(arg + 1) (DLMF 5.4.1): a whole number's factorial, or the gamma function of
    a formula (n!, (2n)!). A constant argument is a whole number 0..MAX_FACTORIAL (limits.py)."""

    arg: Node


@dataclass(frozen=True, slots=True)
class Matrix:
    rows: tuple[tuple[Node, ...], ...]  # a vector [a, b] is one row; [a; b] is one column


@dataclass(frozen=True, slots=True)
class Series:
    """A sum or product over an integer range: op is "sum" or "prod"; `var` runs from `lower` to
    `upper` one step at a time, downwards when `descending` (decided once, from how the bounds
    are written: reading/series.py). Factors multiply in the order the index runs, so an
    ascending product of matrices is A_lower ... A_upper and a descending one A_lower ...
    A_upper too, with lower > upper. A range that runs past its end is empty (a sum of 0, a
    product of 1)."""

    op: str
    var: str
    lower: Node
    upper: Node
    body: Node
    descending: bool = False


@dataclass(frozen=True, slots=True)
class Member:
    """A member of a declared indexed family: `x_{l+1}` is Member("x", l + 1). kind is "symbol",
    "matrix" or "function" (then `args` and `order` as in Apply: F_l'(x_l)). Members with the
    same index value are the same value (or function); distinct index values, distinct ones."""

    family: str
    index: Node
    kind: str = "symbol"
    args: tuple[Node, ...] = ()
    order: int = 0


@dataclass(frozen=True, slots=True)
class Moment:
    """A moment of random variables (issue 25): op is "E" (the expectation of `args[0]`),
    "Var" (Var(X) = E[X^2] - E[X]^2) or "Cov" (Cov(X, Y) = E[XY] - E[X]E[Y], two args).
    Read only where a derivation declares random variables (reading/moments.py); decided over
    random discrete distributions (values/moments.py), never by sampling numbers."""

    op: str
    args: tuple[Node, ...]


Node = (Num | Const | Sym | MatSym | Ident | Neg | Add | Mul | Div | Pow | Func | FuncN | Apply
        | Diff | Transpose | Factorial | Matrix | Series | Member | Moment)


_CHILDREN = {
    Neg: lambda n: (n.arg,),
    Add: lambda n: n.terms,
    Mul: lambda n: n.factors,
    Div: lambda n: (n.num, n.den),
    Pow: lambda n: (n.base, n.exp),
    Func: lambda n: (n.arg,),
    FuncN: lambda n: n.args,
    Apply: lambda n: n.args,
    Diff: lambda n: (n.expr,),
    Transpose: lambda n: (n.arg,),
    Factorial: lambda n: (n.arg,),
    Matrix: lambda n: tuple(chain.from_iterable(n.rows)),
    Series: lambda n: (n.lower, n.upper, n.body),
    Member: lambda n: (n.index, *n.args),
    Moment: lambda n: n.args,
}


def children(node: Node) -> tuple[Node, ...]:
    get = _CHILDREN.get(type(node))
    return get(node) if get is not None else ()


def walk(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(children(current))


def count_nodes(node: Node) -> int:
    return sum(1 for _ in walk(node))


@dataclass(frozen=True, slots=True)
class Facts:
    """What one walk over a tree finds; computed once per tree and reused."""

    symbols: frozenset[str]  # plain symbols, including differentiation variables
    matrices: frozenset[str]
    functions: frozenset[str]  # undefined functions applied to one argument
    multi_arg: bool  # some undefined function takes several arguments
    has_diff: bool
    constant: bool
    indexed: bool = False  # a sum, a product or a family member: sampled at integer points


# Any of these makes a tree depend on something other than numbers (facts(...).constant).
_NOT_CONSTANT = frozenset((Sym, MatSym, Apply, Diff, Ident, Series, Member, Moment))


_NUMBERS_ONLY = Facts(frozenset(), frozenset(), frozenset(), False, False, constant=True)
_FACTS: dict[int, tuple[Node, Facts]] = {}


def facts(node: Node) -> Facts:
    hit = _FACTS.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    named = [n for n in walk(node) if type(n) in _NOT_CONSTANT]  # usually a handful
    result = _facts_of_named(named, node) if named else _NUMBERS_ONLY
    if len(_FACTS) > 4096:  # keeps the node alive while cached, so its id cannot be reused
        _FACTS.clear()
    _FACTS[id(node)] = (node, result)
    return result


def _facts_of_named(named: list[Node], root: Node) -> Facts:
    symbols = {n.name for n in named if type(n) is Sym} | {n.var for n in named if type(n) is Diff
                                                            and not n.vector}
    indexed = any(type(n) in (Series, Member) for n in named)
    if indexed:  # the index of a sum or product is bound: it is not one of the formula's names
        symbols = free_names(root) | {n.var for n in named if type(n) is Diff
                                      and not by_member(n) and not n.vector}
    applied = [n for n in named if type(n) is Apply]
    matrices = {n.name for n in named if type(n) is MatSym}
    functions = {n.name for n in applied if len(n.args) == 1}
    if indexed:  # W_l is a matrix, F_l a function: the family's name stands for its members
        members = [n for n in named if type(n) is Member]
        matrices |= {n.family for n in members if n.kind == "matrix"}
        functions |= {n.family for n in members if n.kind == "function"}
    return Facts(frozenset(symbols), frozenset(matrices), frozenset(functions),
                 any(len(n.args) != 1 for n in applied), any(type(n) is Diff for n in named),
                 constant=False, indexed=indexed)


def by_member(node: Diff) -> bool:
    """d/dx_l of a formula with members of the family x (∂x_L/∂x_l): x_l is a member, not a
    name, and x_L depends on it through the family's relation, which no rule of
    values/differentiate.py can see; values/evaluate.py differentiates the values."""
    family, sep, _ = node.var.partition("_")
    return bool(sep) and any(type(n) is Member and n.family == family for n in walk(node.expr))


def free_names(node: Node) -> set[str]:
    """Plain symbols used outside every sum or product that binds them (`n` in
    \\sum_{i=1}^{n} i, not `i`)."""
    free: set[str] = set()
    stack = [(node, frozenset())]
    while stack:
        current, bound = stack.pop()
        kind = type(current)
        if kind is Sym and current.name not in bound:
            free.add(current.name)
        elif kind is Series:
            stack.append((current.lower, bound))
            stack.append((current.upper, bound))
            stack.append((current.body, bound | {current.var}))
            continue
        get = _CHILDREN.get(kind)
        if get is not None:
            stack.extend((c, bound) for c in get(current))
    return free


def symbol_names(node: Node) -> set[str]:
    """Plain symbols used, including differentiation variables."""
    return set(facts(node).symbols)


def is_constant(node: Node) -> bool:
    """Same answer as facts(node).constant, without building the sets: the parser asks this of
    every exponent, and a numeric answer needs nothing else from the walk."""
    stack = [node]
    while stack:
        current = stack.pop()
        kind = type(current)
        if kind in _NOT_CONSTANT:
            return False
        get = _CHILDREN.get(kind)
        if get is not None:
            stack.extend(get(current))
    return True
