"""Indexed families: `x_0`, `x_l`, `x_{l+1}`, `F_l(x_l)`, `W_i` as members of a declared family,
and the recursions a derivation declares (`x_{l+1} = x_l + F_l(x_l)`).

A family `x` (declared in `families`) makes every name `x_<index>` a member: the index is read
as a formula of integers (`l+1`, `L-1`, `2l`, `0`), so `x_{l+1}` with l = 2 and `x_3` are the same
member and `x_3`, `x_4` are distinct ones. A family's kind comes from the list that also names
it: a function family (`F_l(x_l)`, `F_l'(x_l)`) when also in `functions`, a matrix family when
also in `matrices`, else scalars.

A relation `x_{l+1} = x_l + F_l(x_l)` says how a member follows from the ones before it: its left
side is one member of a scalar or matrix family whose index is a name plus a whole number
(`x_{l+1}`, `x_l`); its right side any formula in which that name is an integer. Values of the
family are then computed by running the recursion from random first members (values/evaluate.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ParseError
from .constant import constant_value
from .nodes import Add, Member, Node, Sym, is_constant, walk


@dataclass(frozen=True, slots=True)
class Relation:
    """family_{var + offset} = rhs, which holds for var >= first_var."""

    family: str
    var: str
    offset: int
    rhs: Node
    first_var: int  # the smallest var whose right side needs no member below index 0

    @property
    def first_index(self) -> int:
        """The lowest index computed by the recursion; the members below it are random."""
        return self.first_var + self.offset


def index_offset(index: Node) -> tuple[str, int] | None:
    """(name, whole number) for an index `l`, `l+1`, `l-1`, `1+l`; None otherwise."""
    if type(index) is Sym:
        return index.name, 0
    if type(index) is not Add or len(index.terms) != 2:
        return None
    names = [t for t in index.terms if type(t) is Sym]
    numbers = [t for t in index.terms if t not in names]
    if len(names) != 1 or len(numbers) != 1:
        return None
    number = numbers[0]
    value = constant_value(number) if is_constant(number) else None
    if value is None or not value.is_integer():
        return None
    return names[0].name, int(value)


def relation_of(left: Node, right: Node, pos: int) -> Relation:
    """The Relation `left = right` states (left: one member), or ParseError("bad_relation")."""
    if type(left) is not Member or left.kind == "function":
        raise ParseError("bad_relation", pos)
    found = index_offset(left.index)
    if found is None:
        raise ParseError("bad_relation", pos)
    var, offset = found
    lags = [_lag(m.index, var) for m in walk(right) if type(m) is Member
            and m.family == left.family]
    if any(lag is None for lag in lags):
        raise ParseError("bad_relation", pos)
    # The right side uses members var + lag; each must come before the left side's member.
    if any(lag >= offset for lag in lags):
        raise ParseError("bad_relation", pos)
    first_var = max([0, *(-lag for lag in lags)])
    return Relation(left.family, var, offset, right, first_var)


def _lag(index: Node, var: str) -> int | None:
    found = index_offset(index)
    if found is not None and found[0] == var:
        return found[1]
    return None

