"""A question's declarations as the values stage needs them: its integer names, the recursions
of its families (`relations`, read here once per declaration set) and the names declared
`positive` or `nonnegative` (values/domains.py: every check samples them in their domain)."""

from __future__ import annotations

from functools import lru_cache

from ..errors import ParseError
from ..reading.families import Relation, relation_of
from ..reading.names import Declarations
from ..reading.nodes import MatSym, Node, walk
from ..reading.parser import parse
from ..values.indexed import NO_INDEXING, Indexing


@lru_cache(maxsize=256)
def indexing_of(decls: Declarations) -> Indexing:
    """Raises ParseError for a relation that cannot be read or is not a recursion."""
    if not (decls.integers or decls.relations or decls.positive or decls.nonnegative
            or decls.vectors):
        return NO_INDEXING
    definitions = tuple(vector_definition(text, decls) for text in decls.relations
                        if defines_vector(text, decls))
    relations = tuple(relation_from_text(text, decls) for text in decls.relations
                      if not defines_vector(text, decls))
    names = set(decls.integers)
    for relation in relations:  # a relation's index is an integer wherever it is used
        names.add(relation.var)
    return Indexing(frozenset(names), relations, decls.positive, decls.nonnegative,
                    vectors=decls.vectors,
                    vector_functions=frozenset(n for n in decls.vectors if n in decls.functions),
                    matrices=decls.matrices, definitions=definitions)


def defines_vector(text: str, decls: Declarations) -> bool:
    """`y = x + Wx`: a relation whose left side is a declared vector (not a family member)."""
    return text.partition("=")[0].strip() in decls.vector_values


def vector_definition(text: str, decls: Declarations) -> tuple[str, Node]:
    """(name, formula) of `y = x + Wx`; the formula may use only vectors defined before it
    (or none): a definition is not a recursion."""
    left, _, right = text.partition("=")
    name = left.strip()
    node, _ = parse(right, decls)
    later = [t.partition("=")[0].strip() for t in decls.relations[decls.relations.index(text):]]
    if any(type(n) is MatSym and n.name in later for n in walk(node)):
        raise ParseError("bad_relation", 0)
    return name, node


def relation_from_text(text: str, decls: Declarations) -> Relation:
    """`x_{l+1} = x_l + F_l(x_l)`: one `=` between a member and a formula."""
    left, sep, right = text.partition("=")
    if not sep or "=" in right:
        raise ParseError("bad_relation", 0)
    left_node, _ = parse("(" + left + ")", decls)  # brackets: the left side is not a label
    right_node, _ = parse(right, decls)
    return relation_of(left_node, right_node, 0)
