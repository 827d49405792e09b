"""A question's declarations as the values stage needs them: its integer names, the recursions
of its families (`relations`, read here once per declaration set) and the names declared
`positive` or `nonnegative` (values/indexed.py samples them at their magnitudes)."""

from __future__ import annotations

from functools import lru_cache

from ..errors import ParseError
from ..reading.families import Relation, relation_of
from ..reading.names import Declarations
from ..reading.parser import parse
from ..values.indexed import NO_INDEXING, Indexing


@lru_cache(maxsize=256)
def indexing_of(decls: Declarations) -> Indexing:
    """Raises ParseError for a relation that cannot be read or is not a recursion."""
    if not (decls.integers or decls.relations or decls.positive or decls.nonnegative):
        return NO_INDEXING
    relations = tuple(relation_from_text(text, decls) for text in decls.relations)
    names = set(decls.integers)
    for relation in relations:  # a relation's index is an integer wherever it is used
        names.add(relation.var)
    # Sampled magnitudes are never 0, so nonnegative names are sampled like positive ones.
    return Indexing(frozenset(names), relations, decls.positive | decls.nonnegative)


def relation_from_text(text: str, decls: Declarations) -> Relation:
    """`x_{l+1} = x_l + F_l(x_l)`: one `=` between a member and a formula."""
    left, sep, right = text.partition("=")
    if not sep or "=" in right:
        raise ParseError("bad_relation", 0)
    left_node, _ = parse("(" + left + ")", decls)  # brackets: the left side is not a label
    right_node, _ = parse(right, decls)
    return relation_of(left_node, right_node, 0)
