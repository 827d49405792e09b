"""Wrong answers derived mechanically from a key, for mutation tests of answer keys
(`quizbank test --mutations`): `mutants(text, symbols=, functions=, matrices=) -> [(kind, text)]`.

The key is parsed into the allowlisted tree, each mutation rewrites one place of the tree, and the
result is printed back as text the grader reads (`reading/printer.py`). Kinds:

- `drop_term`: one term of a sum left out; `drop_identity`: the identity left out of a sum
  (`(I + W)^T g` -> `W^T g`, i.e. `I + W` replaced by `W`);
- `flip_sign`: one term of a sum negated (the whole expression when it is not a sum);
- `swap_factors`: two neighbouring factors of a product swapped, when both involve a matrix;
- `drop_transpose` / `add_transpose`: a transpose removed, or added to a matrix symbol;
- `exponent_up` / `exponent_down`: a numeric exponent changed by one.

Mutants that print the same as the key or as an earlier mutant are left out.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields, replace

from .reading.names import Declarations
from .reading.nodes import Add, Ident, MatSym, Mul, Neg, Node, Num, Pow, Transpose, children, walk
from .reading.parser import parse
from .reading.printer import to_text


def _drop_terms(node: Node) -> Iterator[tuple[str, Node]]:
    if isinstance(node, Add) and len(node.terms) >= 2:
        for k, term in enumerate(node.terms):
            rest = node.terms[:k] + node.terms[k + 1:]
            kind = "drop_identity" if isinstance(term, Ident) else "drop_term"
            yield kind, rest[0] if len(rest) == 1 else Add(rest)


def _flip_signs(node: Node) -> Iterator[tuple[str, Node]]:
    if isinstance(node, Add):
        for k, term in enumerate(node.terms):
            flipped = term.arg if isinstance(term, Neg) else Neg(term)
            yield "flip_sign", Add(node.terms[:k] + (flipped,) + node.terms[k + 1:])


def _has_matrix(node: Node) -> bool:
    return any(isinstance(n, MatSym | Ident) for n in walk(node))


def _swap_factors(node: Node) -> Iterator[tuple[str, Node]]:
    if isinstance(node, Mul):
        f = node.factors
        for k in range(len(f) - 1):
            if _has_matrix(f[k]) and _has_matrix(f[k + 1]) and f[k] != f[k + 1]:
                yield "swap_factors", Mul(f[:k] + (f[k + 1], f[k]) + f[k + 2:])


def _transposes(node: Node) -> Iterator[tuple[str, Node]]:
    if isinstance(node, Transpose):
        yield "drop_transpose", node.arg
    elif isinstance(node, MatSym):
        yield "add_transpose", Transpose(node)


def _exponents(node: Node) -> Iterator[tuple[str, Node]]:
    if isinstance(node, Pow) and isinstance(node.exp, Num):
        for kind, step in (("exponent_up", 1), ("exponent_down", -1)):
            value = node.exp.value + step
            text = repr(int(value)) if value == int(value) else repr(value)
            yield kind, Pow(node.base, Num(value, text))


RULES = (_drop_terms, _flip_signs, _swap_factors, _transposes, _exponents)


def _with_child(node: Node, old: Node, new: Node) -> Node:
    """`node` with its direct child `old` (by identity) replaced by `new`."""
    changes = {}
    for f in fields(node):
        value = getattr(node, f.name)
        if value is old:
            changes[f.name] = new
        elif isinstance(value, tuple):
            if any(v is old for v in value):
                changes[f.name] = tuple(new if v is old else v for v in value)
            elif value and isinstance(value[0], tuple):  # matrix rows
                changes[f.name] = tuple(tuple(new if v is old else v for v in row)
                                        for row in value)
    return replace(node, **changes)


def _rewrites(node: Node) -> Iterator[tuple[str, Node]]:
    """Every one-place mutation of the tree rooted at `node`."""
    for rule in RULES:
        yield from rule(node)
    for child in children(node):
        for kind, mutated in _rewrites(child):
            yield kind, _with_child(node, child, mutated)


def mutants(text: str, *, symbols=(), functions=(), matrices=(), vectors=(), relations=(),
            families=(), integers=()) -> list[tuple[str, str]]:
    """(kind, text) for each distinct mutant of the formula `text`. Raises the parser's errors
    for a formula that cannot be read. `vectors`, `relations`, `families`, `integers` (issue 25):
    a formula with declared vectors reads `\\nabla_x L` by the vector a relation defines, and
    `F_l'(x_l)` as a member of a family of vector functions."""
    decls = Declarations.of(symbols, functions, matrices, vectors=vectors, relations=relations,
                            families=families, integers=integers)
    node, _ = parse(text, decls)
    seen = {to_text(node)}
    found = []
    whole = [("flip_sign", Neg(node))] if not isinstance(node, Add) else []
    for kind, mutated in [*_rewrites(node), *whole]:
        printed = to_text(mutated)
        if printed not in seen:
            seen.add(printed)
            found.append((kind, printed))
    return found
