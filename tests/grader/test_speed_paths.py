"""The per-answer shortcuts of the common path give what the general code gives.

- compare_values of two scalar formulas (its own, shorter path) decides exactly as the general
  path does on the same values as one-entry columns, masks and all.
- Declarations and tolerances are read once per question (bounded caches of pure functions): a
  bad one is refused again on every request, never remembered as good.
- A random function's value and derivatives (FunctionModel.value, which computes only the terms a
  derivative keeps) are bit for bit the formula written out term by term.
- The one-sided check of a domain note (precise.undefined_on_one_side, which stops after the
  30-digit values when both are real) says what difference_at says.
- A derivation's start and target are read and sampled once per question, as an expected answer
  is; the values kept for the next answer are read-only.
- A verdict asked for its status only (a derivation's last line against the target) has the
  status of the full verdict, counterexample search and all.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.kinds.expression import full_verdict, prepare, sampled
from grader.kinds.request import SCHEMA_FIELDS, BadRequest, declarations, grade_request, tolerance
from grader.reading.names import Declarations
from grader.reading.parser import NO_DECLARATIONS, parse
from grader.values.decide import compare_values
from grader.values.evaluate import Env
from grader.values.precise import difference_at, undefined_on_one_side

K = 24

# Values a formula takes at the sample points: ordinary numbers, some within rounding of each
# other, zeros, infinities, NaN (undefined) and non-real values (outside the real domain).
special = st.sampled_from([0.0, -0.0, 1.0, 1.0 + 1e-15, 1.0 + 1e-9, 1.0 + 1e-5, np.inf, -np.inf,
                           np.nan, 1e300, 1e-300])
real = st.one_of(st.floats(-1e6, 1e6), special)
value = st.one_of(real, st.builds(complex, real, st.sampled_from([0.0, 1e-12, 0.5, np.nan])))


def column(values: list) -> np.ndarray:
    return np.array(values, dtype=complex)


@settings(max_examples=300, deadline=None)
@given(st.lists(value, min_size=K, max_size=K), st.lists(value, min_size=K, max_size=K),
       st.booleans())
def test_scalar_path_decides_as_the_general_path(answer, expected, same_as_expected):
    a = column(expected if same_as_expected else answer)
    e = column(expected)
    fast = compare_values(a, e)
    general = compare_values(a.reshape(K, 1, 1), e.reshape(K, 1, 1))  # a 1x1 "matrix"
    assert (fast.status, fast.sample) == (general.status, general.sample)
    if fast.points is not None:
        for mask in ("valid", "clear", "tight", "undefined"):
            assert np.array_equal(getattr(fast.points, mask), getattr(general.points, mask))
        assert np.array_equal(fast.points.rounding, general.points.rounding)
        assert np.array_equal(fast.points.relative, general.points.relative)
        assert fast.points.rounding_level(8) == general.points.rounding_level(8)
        for near in (8, K):
            assert fast.points.rounding_level(near) == rounding_level_as_written(fast.points, near)


def rounding_level_as_written(points, near: int) -> bool:
    """At least two of the first `near` points valid, and every valid one at rounding level."""
    valid = points.valid[:near]
    return int(valid.sum()) >= 2 and bool(points.rounding[:near][valid].all())


finite = st.one_of(st.floats(-1e6, 1e6), st.sampled_from([0.0, -0.0, 1.0, 1.0 + 1e-15,
                                                            1.0 + 1e-9, 1.0 + 1e-5, 1e300,
                                                            -1e300, 1e-300]))


@settings(max_examples=300, deadline=None)
@given(st.lists(finite, min_size=K, max_size=K), st.lists(finite, min_size=K, max_size=K),
       st.lists(st.booleans(), min_size=K, max_size=K))
def test_finite_real_values_decide_as_the_general_path(answer, expected, same_at):
    """The commonest case (every value a finite real number) has a path of its own."""
    e = column(expected)
    a = column([x if same else y for x, y, same in zip(expected, answer, same_at, strict=True)])
    fast = compare_values(a, e)
    general = compare_values(a.reshape(K, 1, 1), e.reshape(K, 1, 1))
    assert (fast.status, fast.sample) == (general.status, general.sample)
    for mask in ("valid", "clear", "tight", "undefined"):
        assert np.array_equal(getattr(fast.points, mask), getattr(general.points, mask))
    assert np.array_equal(fast.points.rounding, general.points.rounding)
    assert np.array_equal(fast.points.relative, general.points.relative)
    assert fast.points.rounding_level(8) == general.points.rounding_level(8)


def rule_as_written(answer: np.ndarray, expected: np.ndarray) -> dict:
    """The masks of values/decide.py's docstring, from the complex values, entry by entry: valid
    (every entry of both finite and real), clear (some entry differs by more than 1e-4 of the
    larger magnitude + 1e-8), tight (every entry within 1e-7 of it + 1e-10)."""
    k = answer.shape[0]
    a, b = answer.reshape(k, -1), expected.reshape(k, -1)
    real = (np.isfinite(a) & (a.imag == 0)).all(axis=1) & (np.isfinite(b) & (b.imag == 0)).all(
        axis=1)
    diff, scale = np.abs(a - b), np.maximum(np.abs(a), np.abs(b))
    return {"valid": real,
            "clear": (diff > 1e-4 * scale + 1e-8).any(axis=1) & real,
            "tight": (diff <= 1e-7 * scale + 1e-10).all(axis=1) & real,
            "rounding": (diff <= 2e-14 * scale).all(axis=1) & real}


@settings(max_examples=300, deadline=None)
@given(st.lists(finite, min_size=3 * K, max_size=3 * K),
       st.lists(finite, min_size=3 * K, max_size=3 * K),
       st.lists(st.booleans(), min_size=3 * K, max_size=3 * K), st.booleans())
def test_finite_real_values_give_the_masks_of_the_rule(answer, expected, same_at, vectors):
    e = column(expected)
    a = column([x if same else y for x, y, same in zip(expected, answer, same_at, strict=True)])
    shape = (K, 3, 1) if vectors else (3 * K,)  # columns of 3 entries, or scalars at 3K points
    with np.errstate(all="ignore"):  # 1e300 - (-1e300) overflows: the general path's case
        verdict = compare_values(a.reshape(shape), e.reshape(shape))
        want = rule_as_written(a.reshape(shape), e.reshape(shape))
    for mask in ("valid", "clear", "tight", "rounding"):
        assert np.array_equal(getattr(verdict.points, mask), want[mask])
    assert not verdict.points.undefined.any()


def test_a_bad_declaration_is_refused_every_time():
    request = {"kind": "expression", "expected": "x", "answer": "x", "symbols": ["x", "1x"]}
    for _ in range(3):  # not remembered as good after the first refusal
        assert grade_request(request).unreadable
    assert grade_request({**request, "symbols": ["x"]}).correct


def test_declarations_are_the_same_whatever_the_cache_holds():
    first = grade_request({"kind": "expression", "expected": "x_{l+1}", "answer": "x_{l+1}",
                           "symbols": ["x_{l+1}"]})
    again = grade_request({"kind": "expression", "expected": "x_{l+1}", "answer": "x_{l+1}",
                           "symbols": ["x_{l+1}"]})
    assert first.correct and again.correct and first.interpreted == again.interpreted


@pytest.mark.parametrize("field", sorted(SCHEMA_FIELDS))
def test_a_request_declares_nothing_only_when_every_schema_field_is_empty(field):
    """The shortcut for requests without declarations (most numeric questions) looks only at
    the fields present: an empty one still declares nothing, a filled one is read."""
    for empty in (None, [], ""):
        assert declarations({"kind": "numeric", field: empty}) is NO_DECLARATIONS
    assert declarations({"kind": "numeric", "answer": "1", "lang": "zh"}) is NO_DECLARATIONS
    filled = {"relations": ["x_{l+1} = x_l + F_l(x_l)"], "independent": [["a", "b"]]}.get(
        field, ["x"])
    empty = "symbols" if field != "symbols" else "matrices"
    try:  # one field filled beside an empty one
        read = declarations({"kind": "expression", field: filled, empty: []})
    except BadRequest:  # refused (`positive` names nobody declared): read, not skipped
        return
    assert read is not NO_DECLARATIONS


def test_a_declared_name_that_is_not_a_string_is_refused():
    result = grade_request({"kind": "expression", "expected": "x", "answer": "x",
                            "symbols": ["x", 5]})
    assert result.unreadable and "must be strings" in result.error


def test_tolerances_are_not_mixed_up_by_the_cache():
    assert tolerance({"sigfigs": 3}).sigfigs == 3
    assert tolerance({"rtol": 1}).rtol == 1.0
    for bad in ({"sigfigs": True}, {"rtol": -1.0}, {"rtol": float("nan")}, {"sigfigs": 2.5},
                {"rtol": [0.1]}):
        for _ in range(2):
            result = grade_request({"kind": "numeric", "expected": 1.0, "answer": "1", **bad})
            assert result.unreadable, bad
    # 0.0 and -0.0 are one cache key but not one description ("0" / "-0"): zeros are not cached
    assert str(tolerance({"atol": 0.0}).atol) == "0.0"
    assert str(tolerance({"atol": -0.0}).atol) == "-0.0"


def written_out(coef: dict, t: np.ndarray, order: int) -> np.ndarray:
    """F^(order)(t) for F(t) = a sin(bt + c) + h exp(gt) + p2 t^2 + p3 t^3, every term written
    out (the derivatives of t^2 and t^3 as a table), in the order FunctionModel adds them."""
    c = {k: v.reshape(v.shape + (1,) * (t.ndim - 1)) for k, v in coef.items()}
    result = c["a"] * c["b"] ** order * np.sin(c["b"] * t + c["c"] + order * np.pi / 2)
    result = result + c["h"] * c["g"] ** order * np.exp(c["g"] * t)
    square = (t * t, 2 * t, 2 + 0 * t)
    cube = (t ** 3, 3 * t * t, 6 * t, 6 + 0 * t)
    if order < 3:
        result = result + c["p2"] * square[order]
    if order < 4:
        result = result + c["p3"] * cube[order]
    return result


points = st.lists(st.one_of(st.floats(-1e6, 1e6), special), min_size=K, max_size=K)


@settings(max_examples=100, deadline=None)
@given(points, st.integers(0, 5), st.booleans())
def test_a_random_function_is_its_formula_bit_for_bit(values, order, as_matrices):
    env = Env(k=K, n=2, seed=3)
    model = env.function("F")
    t = column(values)
    if as_matrices:  # a function applied entrywise to a 2x2 matrix per point
        t = np.stack([t, -t, 2 * t, t + 1], axis=1).reshape(K, 2, 2)
    with np.errstate(all="ignore"):  # as in evaluate(): inf and NaN are values here
        got, want = model.value(t, order), written_out(model.coef, t, order)
    assert got.shape == want.shape
    # the same bits, infinities and NaN in the same places (NaN == NaN here)
    assert np.array_equal(got.view(np.float64), want.view(np.float64), equal_nan=True)


@pytest.mark.parametrize("answer, expected, point", [
    ("exp(-z)/(1+exp(-z))^2", "sigmoid(z)(1-sigmoid(z))", {"z": -1e5}),  # floats overflow
    ("1/cosh(z)^2", "1 - tanh(z)^2", {"z": 1e5}),
    ("sqrt(z)^2", "z", {"z": -2}),  # answer undefined, on both sides
    ("z", "sqrt(z)^2", {"z": -2}),  # expected undefined
    ("(z^2 - 1)/(z - 1)", "z + 1", {"z": 1}),  # removable
    ("1/(z - 1)", "1", {"z": 1}),  # a pole
    ("log(z)", "log(-z)", {"z": 1}),
    ("log(z)", "log(z)", {"z": -1}),  # both undefined
    ("z + 1", "z", {"z": 3}),  # both real, different
])
def test_the_one_sided_check_says_what_difference_at_says(answer, expected, point):
    env = Env(k=1, n=1, seed=0)
    env.symbols["z"] = np.array([complex(point["z"])])
    a, e = (parse(text, Declarations.of(("z",)))[0] for text in (answer, expected))
    found = difference_at(a, e, env, 0)
    one_sided = found if found in ("answer_undefined", "expected_undefined") else None
    assert undefined_on_one_side(a, e, env, 0) == one_sided


DERIVATION = {"kind": "derivation", "start": "d/dx (x + F(x))", "expected": "1 + F'(x)",
              "symbols": ["x"], "functions": ["F"], "lang": "en"}


@pytest.mark.parametrize("lines", [
    ["diff(x,x) + diff(F(x),x)", "F'(x)"],  # the last line is not the target
    ["1 + F(x)", "1 + F'(x)"],  # a line that does not follow, then the target
    ["1 + F'(x)"],
])
def test_a_derivation_grades_the_same_once_its_start_and_target_are_cached(lines):
    request = {**DERIVATION, "answer": lines}
    first = grade_request(request)
    # the question's start and target now carry their sampled values for the next answer
    decls = declarations(request)
    assert prepare(DERIVATION["start"], decls).values
    assert prepare(DERIVATION["expected"], decls).values
    assert grade_request(request) == first


def test_the_cached_values_of_an_expected_answer_cannot_be_changed_by_a_caller():
    request = {"kind": "expression", "expected": "x^2 + 1", "answer": "x^2+1", "symbols": ["x"]}
    assert grade_request(request).correct
    _, values = sampled(prepare("x^2 + 1", declarations(request)), False)
    with pytest.raises(ValueError):
        values[0] = 0


@pytest.mark.parametrize("answer, expected, names", [
    ("F'(x)", "1 + F'(x)", ("x",)),  # a clear difference, certified at a nice point
    ("1 + F(x)", "1 + F'(x)", ("x",)),
    ("x^2 + 1", "(x + 1)^2", ("x",)),  # rational: the modular test decides
    ("x^2 + 2x + 1", "(x + 1)^2", ("x",)),
    ("ln(2^50 + 1)/ln(2)", "50", ()),  # below double precision: certified at 60 digits
    ("e^x e^{-x}", "1", ("x",)),  # floats overflow at the wide points: no difference
    ("sqrt(x - 1000)", "sqrt(x) - sqrt(1000)", ("x",)),
    ("sqrt(-1 - x^2)", "1", ("x",)),  # real on different sets
    ("sin(x)^2", "1 - cos(x)^2", ("x",)),
    ("x + 10^{-20}", "x", ("x",)),
])
def test_a_status_only_verdict_has_the_status_of_the_full_one(answer, expected, names):
    decls = Declarations.of(names, ("F",))
    a, e = parse(answer, decls)[0], parse(expected, decls)[0]
    full = full_verdict(a, e, None)
    assert full_verdict(a, e, None, example=False).status == full.status
