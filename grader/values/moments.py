"""Moments decided over random discrete distributions, exactly (issue 25).

A moment identity (Var(x + f) = Var(x) + Var(f) + 2 Cov(x, f)) is true when it holds for every
distribution the declarations allow. We draw such distributions at random, small and discrete
(a few atoms with whole-number values and whole-number weights), and evaluate every moment in
exact rational arithmetic: a true identity holds exactly on every sample; a false one fails on
some sample, which is then a counterexample the learner can check by hand.

The distributions the declarations allow (`RandomModel`):
- Random variables that are not declared independent may depend on each other: each maximal
  group of them that may all depend on each other (a clique of the "may depend" graph) shares
  one factor of the outcome space, with 2 or 3 atoms, and each variable is an arbitrary table
  over the factors of its groups. Variables declared independent share no factor, so they are
  independent, and a declared group is mutually independent (functions of disjoint sets of
  independent factors).
- A zero-mean variable is centred exactly: v' = D v - sum(weights * v), D the total weight.
- A family in `random` (`w` with members `w_i`) is i.i.d. over its index: the members with
  index i of all the random families, (w_i, x_i), are the i-th independent copy of one joint law,
  the law of the bare names (w, x). So Var(w_i) = Var(w), w_1 and w_2 are independent, and w_i,
  x_i are independent exactly when w and x are declared so.
- A random variable that is not a family is a draw of that same law; a line that mixes one with
  family members must declare whether they are independent (else it cannot be decided).

Non-random names take small whole values (integer names 0..3, so sums over i = 1..n run over
concrete n); everything is exact (`int` and `Fraction`). Functions other than |x| and sign, e,
pi, matrices and declared functions are not moments of discrete laws here: "cannot decide".
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import combinations, product

import numpy as np

from ..errors import CannotDecide, EvalError
from ..reading.names import Declarations
from ..reading.nodes import (
    Add,
    Div,
    Factorial,
    Func,
    Matrix,
    Member,
    Moment,
    Mul,
    Neg,
    Node,
    Num,
    Pow,
    Series,
    Sym,
    walk,
)

SAMPLES = 8  # distributions per comparison; the first SMALL have 2 atoms per factor
SMALL = 3
MAX_OUTCOMES = 2048  # outcomes of one sample's space (copies x factors)
MAX_FACTORS = 11  # groups of dependent variables: 2^11 = MAX_OUTCOMES
MAX_TERMS = 200  # terms of the sums and products at one point
MAX_HINT_CANDIDATES = 6  # assumptions tried when a line does not follow
MAX_HINT_SIZE = 3
INTEGER_VALUES = (2, 3, 1, 0, 3, 2, 1, 3)  # an integer name's value in sample k

Value = int | Fraction | np.ndarray  # an array (dtype object: exact ints, Fractions): random


def has_moments(node: Node | None) -> bool:
    return node is not None and any(type(n) is Moment for n in walk(node))


# -- the allowed distributions -------------------------------------------------------------------

@dataclass(frozen=True)
class RandomModel:
    """What the declarations say about the random variables."""

    random: frozenset[str]
    families: frozenset[str]  # random families: i.i.d. over their index
    independent: frozenset[frozenset[str]]  # pairs declared independent
    zero_mean: frozenset[str]

    @classmethod
    def of(cls, decls: Declarations) -> RandomModel:
        pairs = frozenset(frozenset(p) for group in decls.independent
                          for p in combinations(sorted(group), 2))
        return cls(decls.random, decls.random & decls.families, pairs, decls.zero_mean)

    def are_independent(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.independent

    def assuming(self, extra: tuple[tuple[str, ...], ...]) -> RandomModel:
        """This model with more assumptions: ("independent", a, b) or ("zero_mean", a)."""
        pairs, zeros = set(self.independent), set(self.zero_mean)
        for item in extra:
            if item[0] == "independent":
                pairs.add(frozenset(item[1:]))
            else:
                zeros.add(item[1])
        return replace(self, independent=frozenset(pairs), zero_mean=frozenset(zeros))


@dataclass
class Law:
    """One joint law of some base names: factors (weights per atom) and, per name, the factors
    it depends on and its table of whole values over their atoms."""

    weights: list[list[int]]
    depends: dict[str, tuple[int, ...]]
    tables: dict[str, dict[tuple[int, ...], int]]


def _cliques(names: list[str], model: RandomModel) -> list[list[str]]:
    """Maximal groups of names that may all depend on each other (Bron-Kerbosch with a pivot:
    linear for the common cases, all dependent or all independent)."""
    neighbours = {n: {m for m in names if m != n and not model.are_independent(n, m)}
                  for n in names}
    found: list[list[str]] = []

    def extend(clique: list[str], candidates: set[str], excluded: set[str]) -> None:
        if not candidates and not excluded:
            found.append(sorted(clique))
            if len(found) > MAX_FACTORS:  # 2^12 outcomes at least: refused before it is built
                raise CannotDecide("moment_too_large", limit=MAX_OUTCOMES)
            return
        pivot = max(candidates | excluded, key=lambda u: (len(candidates & neighbours[u]), u))
        for name in sorted(candidates - neighbours[pivot]):
            extend(clique + [name], candidates & neighbours[name], excluded & neighbours[name])
            candidates = candidates - {name}
            excluded = excluded | {name}

    extend([], set(names), set())
    return sorted(found)


def draw_law(names: list[str], model: RandomModel, rng: _random.Random, atoms: int) -> Law:
    cliques = _cliques(sorted(names), model)
    weights = [[rng.randint(1, 3) for _ in range(atoms)] for _ in cliques]
    depends = {n: tuple(i for i, c in enumerate(cliques) if n in c) for n in names}
    tables: dict[str, dict[tuple[int, ...], int]] = {}
    for name in sorted(names):
        cells = list(product(*(range(atoms) for _ in depends[name])))
        table = {cell: rng.randint(-3, 3) for cell in cells}
        if len(set(table.values())) == 1:  # never a constant: a variable that varies
            table[cells[0]] += 1
        if name in model.zero_mean:
            cell_weight = {cell: _product(weights[f][a] for f, a in zip(depends[name], cell,
                                                                         strict=True))
                           for cell in cells}
            total = sum(cell_weight.values())
            mean = sum(cell_weight[c] * v for c, v in table.items())
            table = {c: total * v - mean for c, v in table.items()}
        tables[name] = table
    return Law(weights, depends, tables)


def _product(values) -> int:
    out = 1
    for v in values:
        out *= v
    return out


@dataclass
class Space:
    """One sample: the outcomes (a weight each, over a common total) and the values."""

    weights: np.ndarray  # dtype object: exact
    total: int
    slots: dict[tuple[str, int | None], np.ndarray]
    law: Law
    constants: dict[str, Value] = field(default_factory=dict)

    def expectation(self, value: Value) -> Value:
        if type(value) is not np.ndarray:
            return value
        return _normal(Fraction(self.weights.dot(value)) / self.total)


def build_space(slots: set[tuple[str, int | None]], model: RandomModel, rng: _random.Random,
                atoms: int) -> Space:
    """The product space of the copies the slots read: copy None (the bare names and the
    random variables that are not families) and one i.i.d. copy per index used."""
    bases = sorted({base for base, _ in slots})
    coordinates = []  # (copy, factor) pairs the slots read
    law = draw_law(bases, model, rng, atoms)
    for base, copy in sorted(slots, key=lambda s: (str(s[1]), s[0])):
        for f in law.depends[base]:
            if (copy, f) not in coordinates:
                coordinates.append((copy, f))
    if atoms > 2 and atoms ** len(coordinates) > MAX_OUTCOMES:  # many copies: 2 atoms each
        return build_space(slots, model, rng, 2)
    if 2 ** len(coordinates) > MAX_OUTCOMES:
        raise CannotDecide("moment_too_large", limit=MAX_OUTCOMES)
    # outcome j has atom index[c][j] in coordinate c (all combinations, flattened)
    index = np.indices((atoms,) * len(coordinates)).reshape(len(coordinates),
                                                              atoms ** len(coordinates))
    weights = np.ones(index.shape[1], dtype=np.int64)
    for c, (_, f) in enumerate(coordinates):
        weights = weights * np.asarray(law.weights[f], dtype=np.int64)[index[c]]
    total = _product(sum(law.weights[f]) for _, f in coordinates)
    position = {c: i for i, c in enumerate(coordinates)}
    values = {}
    for base, copy in slots:
        at = tuple(index[position[(copy, f)]] for f in law.depends[base])
        table = np.zeros((atoms,) * len(at), dtype=np.int64)
        for cell, v in law.tables[base].items():
            table[cell] = v
        values[(base, copy)] = table[at].astype(object)
    return Space(weights.astype(object), total, values, law)


# -- exact evaluation over a space ---------------------------------------------------------------

def _normal(x: Fraction | int) -> int | Fraction:
    return x.numerator if type(x) is Fraction and x.denominator == 1 else x


def _lift(op: Callable, a: Value, b: Value) -> Value:
    """op on two values, element by element where one is random (an array)."""
    if type(a) is np.ndarray or type(b) is np.ndarray:
        return _ELEMENTWISE[op](a, b)
    return op(a, b)


def _plus(a, b):
    return a + b


def _times(a, b):
    return a * b


def _divide(a, b):
    if b == 0:
        raise EvalError("moment_division_by_zero")
    return _normal(Fraction(a) / b)


def _power(a, k: int):
    if k < 0:
        return _divide(1, a ** -k) if a != 0 else _divide(1, 0)
    return a ** k


class Evaluator:
    """Values of a tree at one sample: random names read the space's slots, integer names and
    sum indices their whole values, other names the sample's constants."""

    def __init__(self, space: Space | None, model: RandomModel, integers: dict[str, int],
                 constants: dict[str, Value], slots: set | None = None) -> None:
        self.space, self.model, self.integers = space, model, integers
        self.constants = constants
        self.slots = slots  # collecting the slots a tree reads (space is None)
        self.terms = 0

    def value(self, node: Node) -> Value:
        rule = _RULES.get(type(node))
        if rule is None:
            raise CannotDecide("moment_not_exact")
        return rule(self, node)

    def slot(self, base: str, copy: int | None) -> Value:
        if self.space is None:
            self.slots.add((base, copy))
            return _ONE
        return self.space.slots[(base, copy)]

    def sym(self, node: Sym) -> Value:
        name = node.name
        if name in self.integers:
            return self.integers[name]
        if name in self.model.random:
            return self.slot(name, None)
        if name not in self.constants:
            raise CannotDecide("moment_not_exact")
        return self.constants[name]

    def whole(self, node: Node) -> int:
        value = self.value(node)
        if type(value) is not int:
            if type(value) is Fraction or type(value) is np.ndarray:
                raise CannotDecide("moment_not_exact")
        return value

    def member(self, node: Member) -> Value:
        index = self.whole(node.index)
        if node.kind != "symbol":
            raise CannotDecide("moment_not_exact")
        if node.family in self.model.random:
            return self.slot(node.family, index)
        key = f"{node.family}_{index}"
        if key not in self.constants:
            raise CannotDecide("moment_not_exact")
        return self.constants[key]

    def series(self, node: Series) -> Value:
        lower, upper = self.whole(node.lower), self.whole(node.upper)
        indices = range(lower, upper - 1, -1) if node.descending else range(lower, upper + 1)
        self.terms += len(indices)
        if self.terms > MAX_TERMS:
            raise CannotDecide("series_terms_exceeded", limit=MAX_TERMS)
        total: Value = 0 if node.op == "sum" else 1
        saved = self.integers.get(node.var)
        for i in indices:
            self.integers[node.var] = i
            term = self.value(node.body)
            total = _lift(_plus if node.op == "sum" else _times, total, term)
        if saved is None:
            self.integers.pop(node.var, None)
        else:
            self.integers[node.var] = saved
        return total

    def moment(self, node: Moment) -> Value:
        args = [self.value(a) for a in node.args]
        if self.space is None:
            return 1
        e = self.space.expectation
        if node.op == "E":
            return e(args[0])
        if node.op == "Var":
            a = args[0]
            return e(_lift(_times, a, a)) - e(a) ** 2
        a, b = args
        return e(_lift(_times, a, b)) - e(a) * e(b)

    def power(self, node: Pow) -> Value:
        exponent = self.value(node.exp)
        if type(exponent) is not int:
            raise CannotDecide("moment_not_exact")
        return _lift(_power, self.value(node.base), exponent)


def _minus(a, _):
    return -a


def _absolute(a, _):
    return abs(a)


def _sign(a, _):
    return (a > 0) - (a < 0)


_ONE = np.ones(1, dtype=object)  # what a random name reads while the slots are collected
# Exact element-wise rules over object arrays (numpy loops, Python numbers).
_ELEMENTWISE = {
    _plus: lambda a, b: a + b,
    _times: lambda a, b: a * b,
    _minus: lambda a, _: -a,
    _divide: np.frompyfunc(_divide, 2, 1),
    _power: np.frompyfunc(_power, 2, 1),
    _absolute: np.frompyfunc(_absolute, 2, 1),
    _sign: np.frompyfunc(_sign, 2, 1),
}


def _number(node: Num) -> int | Fraction:
    try:
        return _normal(Fraction(node.text))
    except (ValueError, ZeroDivisionError) as err:
        raise CannotDecide("moment_not_exact") from err


def _add(ev: Evaluator, node: Add) -> Value:
    total: Value = 0
    for t in node.terms:
        total = _lift(_plus, total, ev.value(t))
    return total


def _mul(ev: Evaluator, node: Mul) -> Value:
    total: Value = 1
    for f in node.factors:
        total = _lift(_times, total, ev.value(f))
    return total


def _func(ev: Evaluator, node: Func) -> Value:
    if node.name == "abs":
        return _lift(_absolute, ev.value(node.arg), 0)
    if node.name == "sign":
        return _lift(_sign, ev.value(node.arg), 0)
    raise CannotDecide("moment_not_exact")


def _matrix(ev: Evaluator, node: Matrix) -> Value:
    """[E(X)]^2: square brackets around one entry are a bracket, as on paper."""
    if len(node.rows) == 1 and len(node.rows[0]) == 1:
        return ev.value(node.rows[0][0])
    raise CannotDecide("moment_not_exact")


def _factorial(ev: Evaluator, node: Factorial) -> Value:
    n = ev.whole(node.arg)
    if n < 0 or n > 20:
        raise CannotDecide("moment_not_exact")
    return _product(range(1, n + 1))


_RULES: dict[type, Callable] = {
    Num: lambda ev, n: _number(n),
    Sym: Evaluator.sym,
    Neg: lambda ev, n: _lift(_minus, ev.value(n.arg), 0),
    Add: _add,
    Mul: _mul,
    Div: lambda ev, n: _lift(_divide, ev.value(n.num), ev.value(n.den)),
    Pow: Evaluator.power,
    Func: _func,
    Factorial: _factorial,
    Matrix: _matrix,
    Series: Evaluator.series,
    Member: Evaluator.member,
    Moment: Evaluator.moment,
}


# -- deciding --------------------------------------------------------------------------------

@dataclass(frozen=True)
class MomentVerdict:
    status: str  # "equal" | "different" | "undecided"
    example: Example | None = None


@dataclass(frozen=True)
class Example:
    """A sample where two lines differ, for the learner: the laws, the other names' values and
    both values (exact)."""

    laws: tuple[str, ...]  # "P(w = -1) = 1/3, P(w = 2) = 2/3", one per independent block
    point: str  # "n = 2, a = 3" or ""
    this: str
    before: str
    iid: tuple[str, ...]  # families shown by their bare name: w_i i.i.d. as w


def _integer_names(nodes: tuple[Node, ...], decls: Declarations) -> list[str]:
    names = set(decls.integers)
    for node in nodes:
        for n in walk(node):
            if type(n) is Series:
                for bound in (n.lower, n.upper):
                    names |= {s.name for s in walk(bound) if type(s) is Sym}
            elif type(n) is Member:
                names |= {s.name for s in walk(n.index) if type(s) is Sym}
    bound = {n.var for node in nodes for n in walk(node) if type(n) is Series}
    return sorted(names - bound)


def _constant_names(nodes: tuple[Node, ...], decls: Declarations, integers: list[str]) -> list[str]:
    names = set()
    for node in nodes:
        for n in walk(node):
            if type(n) is Sym and n.name not in decls.random:
                names.add(n.name)
            elif type(n) is Member and n.family not in decls.random:
                names.add(n.family)
    bound = {n.var for node in nodes for n in walk(node) if type(n) is Series}
    return sorted(names - set(integers) - bound)


class _Sample:
    """Sample k of a comparison: its integer point, constants and seed."""

    def __init__(self, k: int, integers: list[str], constants: list[str],
                 positive: frozenset[str] = frozenset(),
                 nonnegative: frozenset[str] = frozenset()) -> None:
        rng = _random.Random(1000 + k)
        self.seed = 7919 * (k + 1)
        self.atoms = 2 if k < SMALL else 3
        # declared domains hold at every point: a positive n is never 0 (an empty sum)
        self.integers = {n: max(INTEGER_VALUES[(k + j) % len(INTEGER_VALUES)],
                                1 if n in positive else 0)
                         for j, n in enumerate(integers)}
        self.constants: dict[str, Value] = {}
        for name in constants:  # a family's members get values per index when read
            signed = name not in positive and name not in nonnegative
            choices = (2, 3, -1, 5, -2, 4) if signed else (2, 3, 1, 5, 4)
            self.constants[name] = rng.choice(choices[:5])
            for i in range(0, 10):
                self.constants[f"{name}_{i}"] = rng.choice(choices)


def _values(nodes: tuple[Node, ...], sample: _Sample, model: RandomModel,
            ) -> tuple[list[Value], Space]:
    slots: set = set()
    collector = Evaluator(None, model, dict(sample.integers), sample.constants, slots)
    for node in nodes:
        collector.value(node)
    _check_mixing(slots, model)
    space = build_space(slots, model, _random.Random(sample.seed), sample.atoms)
    values = [Evaluator(space, model, dict(sample.integers), sample.constants).value(n)
              for n in nodes]
    return values, space


def _check_mixing(slots: set, model: RandomModel) -> None:
    """A random variable that is not a family, read with indexed members: their dependence is
    not written anywhere unless declared (see the module docstring)."""
    indexed = {base for base, copy in slots if copy is not None}
    plain = {base for base, copy in slots if copy is None and base not in model.families}
    for a in plain:
        for b in indexed:
            if not model.are_independent(a, b):
                raise CannotDecide("moment_mixed_families", name=a, family=b)


def _same(a: Value, b: Value) -> bool:
    if type(a) is np.ndarray or type(b) is np.ndarray:
        return bool(np.all(np.asarray(a == b, dtype=bool)))
    return a == b


def compare(a: Node, b: Node, decls: Declarations, model: RandomModel | None = None,
            ) -> MomentVerdict:
    """Whether a and b are equal for every distribution the model allows."""
    model = model or RandomModel.of(decls)
    integers = _integer_names((a, b), decls)
    constants = _constant_names((a, b), decls, integers)
    decided = 0
    for k in range(SAMPLES):
        sample = _Sample(k, integers, constants, decls.positive, decls.nonnegative)
        try:
            (va, vb), space = _values((a, b), sample, model)
        except EvalError:  # a division by 0 on this sample: another sample decides
            continue
        decided += 1
        if not _same(va, vb):
            return MomentVerdict("different", _example(space, sample, va, vb, decls, integers,
                                                       constants, (a, b)))
    return MomentVerdict("equal" if decided >= SAMPLES // 2 else "undecided")


def missing_assumptions(a: Node, b: Node, decls: Declarations,
                        ) -> list[tuple[tuple[str, ...], ...]]:
    """The smallest sets of extra assumptions (independence of two random names, a zero mean)
    under which a = b holds, tried from one assumption up to MAX_HINT_SIZE; [] when none."""
    model = RandomModel.of(decls)
    bases = sorted({n.name for node in (a, b) for n in walk(node)
                    if type(n) is Sym and n.name in model.random}
                   | {n.family for node in (a, b) for n in walk(node)
                      if type(n) is Member and n.family in model.random})
    candidates = [("independent", x, y) for x, y in combinations(bases, 2)
                  if not model.are_independent(x, y)]
    candidates += [("zero_mean", x) for x in bases if x not in model.zero_mean]
    if not candidates or len(candidates) > MAX_HINT_CANDIDATES:
        return []
    for size in range(1, min(MAX_HINT_SIZE, len(candidates)) + 1):
        found = []
        for extra in combinations(candidates, size):
            try:
                if compare(a, b, decls, model.assuming(extra)).status == "equal":
                    found.append(extra)
            except CannotDecide:
                continue
        if found:
            return found
    return []


# -- the counterexample, as the learner reads it ---------------------------------------------

def fraction_text(x: Value) -> str:
    if type(x) is np.ndarray:
        return "?"
    x = Fraction(x)
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _example(space: Space, sample: _Sample, va: Value, vb: Value, decls: Declarations,
             integers: list[str], constants: list[str], nodes: tuple[Node, ...]) -> Example:
    law = space.law
    bases = sorted(law.depends)
    # independent blocks: names linked by a shared factor
    blocks: list[set[str]] = []
    for name in bases:
        linked = [b for b in blocks if any(set(law.depends[name]) & set(law.depends[m])
                                           for m in b)]
        merged = {name}.union(*linked)
        blocks = [b for b in blocks if b not in linked] + [merged]
    laws = tuple(_block_law(sorted(block), law) for block in sorted(blocks, key=min))
    used = {n.name for node in nodes for n in walk(node) if type(n) is Sym}
    point = [f"{n} = {sample.integers[n]}" for n in integers]
    point += [f"{n} = {fraction_text(sample.constants[n])}" for n in constants if n in used]
    iid = tuple(sorted(decls.random & decls.families & set(bases)))
    if type(va) is np.ndarray or type(vb) is np.ndarray:
        this, before = _random_values(space, va, vb)
    else:
        this, before = fraction_text(va), fraction_text(vb)
    return Example(laws, ", ".join(point), this, before, iid)


def _block_law(names: list[str], law: Law) -> str:
    factors = sorted({f for n in names for f in law.depends[n]})
    totals = _product(sum(law.weights[f]) for f in factors)
    masses: dict[tuple[int, ...], int] = {}
    for cell in product(*(range(len(law.weights[f])) for f in factors)):
        atom = dict(zip(factors, cell, strict=True))
        weight = _product(law.weights[f][atom[f]] for f in factors)
        key = tuple(law.tables[n][tuple(atom[f] for f in law.depends[n])] for n in names)
        masses[key] = masses.get(key, 0) + weight
    label = names[0] if len(names) == 1 else "(" + ", ".join(names) + ")"
    parts = []
    for key in sorted(masses):
        shown = str(key[0]) if len(key) == 1 else "(" + ", ".join(map(str, key)) + ")"
        parts.append(f"P({label} = {shown}) = {fraction_text(Fraction(masses[key], totals))}")
    return ", ".join(parts)


def _random_values(space: Space, va: Value, vb: Value) -> tuple[str, str]:
    """Two random variables that differ: their values at the first outcome where they do."""
    n = len(space.weights)
    left = va if type(va) is np.ndarray else [va] * n
    right = vb if type(vb) is np.ndarray else [vb] * n
    for x, y in zip(left, right, strict=True):
        if x != y:
            return fraction_text(x), fraction_text(y)
    return "?", "?"
