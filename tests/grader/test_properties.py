"""Hypothesis laws: equivalent rewrites grade correct, perturbations grade wrong, no text raises."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader import preview
from grader.kinds.request import grade_request

coef = st.integers(min_value=-9, max_value=9)
nonzero = coef.filter(lambda c: c != 0)
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def grade(expected, answer, **decls):
    return grade_request({"kind": "expression", "expected": expected, "answer": answer, **decls})


def term_text(c, var, power):
    return f"({c})*{var}^{power}"


@FAST
@given(st.lists(st.tuples(coef, st.sampled_from(["x", "y", "F(x)"]), st.integers(0, 3)),
                min_size=1, max_size=6), st.randoms(use_true_random=False))
def test_commuted_sums_grade_correct(terms, rnd):
    texts = [term_text(*t) for t in terms]
    shuffled = texts[:]
    rnd.shuffle(shuffled)
    r = grade(" + ".join(texts), " + ".join(shuffled), functions=["F"])
    assert r.correct, (texts, shuffled, r.feedback)


@FAST
@given(st.lists(st.sampled_from(["x", "y", "(x+1)", "F(y)", "2", "(3-y)"]), min_size=1,
                max_size=5), st.randoms(use_true_random=False))
def test_commuted_scalar_products_grade_correct(factors, rnd):
    shuffled = factors[:]
    rnd.shuffle(shuffled)
    assert grade("*".join(factors), juxtaposed(shuffled), functions=["F"]).correct


def juxtaposed(factors):
    """Factors written side by side, as on paper: a space between them, but `*` between two
    numbers (`2 2` is a typing slip, refused: issue 29)."""
    text = factors[0]
    for before, after in zip(factors, factors[1:], strict=False):
        text += ("*" if before.isdigit() and after.isdigit() else " ") + after
    return text


@FAST
@given(nonzero, coef, nonzero, coef)
def test_expanded_and_factored_polynomials_agree(a, b, c, d):
    factored = f"({a}x + ({b}))({c}x + ({d}))"
    expanded = f"{a * c}x^2 + ({a * d + b * c})x + ({b * d})"
    assert grade(factored, expanded).correct


@FAST
@given(nonzero, coef)
def test_residual_forms_agree(a, b):
    # a(x + F(x)) + b = a x + a F(x) + b, and its derivative is a(1 + F'(x)).
    assert grade(f"{a}(x + F(x)) + ({b})", f"{a}F(x) + {a}x + ({b})", functions=["F"]).correct
    assert grade(f"diff({a}(x + F(x)), x)", f"{a} + {a}F'(x)", functions=["F"]).correct


@FAST
@given(st.lists(st.tuples(coef, st.sampled_from(["x", "y", "F(x)"]), st.integers(0, 3)),
                min_size=1, max_size=5), nonzero, st.sampled_from(["", "*x", "*y^2", "*F(x)"]))
def test_perturbed_answer_grades_wrong(terms, k, extra):
    expected = " + ".join(term_text(*t) for t in terms)
    r = grade(expected, f"{expected} + ({k}){extra}", functions=["F"], symbols=["x", "y"])
    assert not r.correct and r.error is None


@FAST
@given(nonzero)
def test_perturbed_matrix_answer_grades_wrong(k):
    r = grade("(I + W)^T g", f"(I + W)^T g + ({k}) g", matrices=["W", "g"])
    assert not r.correct


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60), st.sampled_from(["expression", "numeric", "derivation"]))
def test_arbitrary_text_never_raises(text, kind):
    expected = {"expression": "x + F(x)", "numeric": 1.0, "derivation": "x"}[kind]
    r = grade_request({"kind": kind, "expected": expected, "answer": text if kind != "derivation"
                       else [text], "functions": ["F"], "matrices": ["W"]})
    assert isinstance(r.correct, bool) and isinstance(r.feedback, str)
    p = preview(text, functions=["F"], matrices=["W"])
    assert set(p) >= {"interpreted", "error"}
    assert (p["interpreted"] is None) != (p["error"] is None)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="()[]{}|^*+-/,;'!0123456789.exWIFg \\", max_size=80))
def test_formula_like_noise_never_raises(text):
    r = grade_request({"kind": "expression", "expected": "x", "answer": text,
                       "functions": ["F"], "matrices": ["W", "g"]})
    assert isinstance(r.correct, bool)


@FAST
@given(st.text(alphabet="()[]^*+-/,'!0123456789.exyWIFg \\", max_size=40))
def test_is_constant_agrees_with_facts(text):
    from grader.errors import GraderError
    from grader.reading.names import Declarations
    from grader.reading.nodes import facts, is_constant, walk
    from grader.reading.parser import parse

    try:
        tree, _ = parse(text, Declarations.of(functions=["F"], matrices=["W"]))
    except (GraderError, RecursionError):
        return
    for node in walk(tree):
        assert is_constant(node) == facts(node).constant, text
