"""Sums and products over integer ranges (issue 24, item 1): read, evaluated, decided.

Values are checked against Python's `fractions` and `math.comb`, computed here independently of
the grader; closed forms against the sums they close, at every integer bound (Hypothesis)."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grader
from grader.errors import LimitError, ParseError
from grader.reading.names import Declarations
from grader.reading.parser import parse
from grader.values.evaluate import Env, evaluate
from grader.values.exact import exact_value


def value_at(text: str, **names: int) -> float:
    """The formula's float value with integer names set."""
    node, _ = parse(text, Declarations.of(integers=names))
    env = Env(k=1, n=1, seed=0)
    for name, v in names.items():
        env.symbols[name] = np.array([v], dtype=complex)
    return complex(evaluate(node, env)[0]).real


def exact_at(text: str, **names: int) -> Fraction:
    node, _ = parse(text, Declarations.of(integers=names))
    return exact_value(node, {k: Fraction(v) for k, v in names.items()})


# (text, names, the value computed independently with fractions / math.comb)
VALUES = [
    (r"\sum_{i=1}^{n} i", {"n": 10}, Fraction(55)),
    (r"\sum_{i=1}^{n} i", {"n": 0}, Fraction(0)),  # empty: 0
    (r"\prod_{i=1}^{n} i", {"n": 0}, Fraction(1)),  # empty: 1
    (r"\prod_{i=1}^{n} i", {"n": 7}, Fraction(math.factorial(7))),
    ("∑_{i=1}^{n} i^2", {"n": 6}, Fraction(sum(i * i for i in range(1, 7)))),
    ("∏_{k=1}^{n} (1 + 1/k)", {"n": 9}, Fraction(10)),
    ("sum(1/k, k, 1, n)", {"n": 6}, sum(Fraction(1, k) for k in range(1, 7))),
    ("prod(2, l, 1, L)", {"L": 12}, Fraction(2 ** 12)),
    (r"\sum_{k=0}^{L}\binom{L}{k}", {"L": 9}, Fraction(sum(math.comb(9, k) for k in range(10)))),
    (r"\sum_{k=0}^{L} k \binom{L}{k}", {"L": 8},
     Fraction(sum(k * math.comb(8, k) for k in range(9)))),
    (r"\sum_{i=1}^{n}\sum_{j=1}^{i} j", {"n": 5},
     Fraction(sum(j for i in range(1, 6) for j in range(1, i + 1)))),
    (r"\prod_{l=1}^{20} 0.5", {}, Fraction(1, 2 ** 20)),
    (r"\sum_{i=l}^{L-1} 1", {"l": 3, "L": 3}, Fraction(0)),  # ends one below its start: empty
    (r"\sum_{i=n}^{1} i", {"n": 4}, Fraction(10)),  # written downwards: 4 + 3 + 2 + 1
    (r"\sum_{i=3}^{1} i", {}, Fraction(6)),
    (r"\sum_{i=1}^{0} i", {}, Fraction(0)),  # one below: empty, not 1 + 0
    (r"2 \sum_{i=1}^{n} i + 1", {"n": 3}, Fraction(13)),  # the body is the term after the sign
]


@pytest.mark.parametrize("text, names, expected", VALUES)
def test_values_match_fractions(text, names, expected):
    assert exact_at(text, **names) == expected
    assert value_at(text, **names) == pytest.approx(float(expected), rel=1e-12, abs=1e-12)


def derivation(lines, start, **declared):
    result = grader.check({"kind": "derivation", "answer": lines, "start": start, **declared})
    return [s.status.value for s in result.steps]


# (the sum, its closed form, a wrong closed form a student writes)
CLOSED_FORMS = [
    (r"\sum_{i=1}^{n} i", r"\frac{n(n+1)}{2}", r"\frac{n(n-1)}{2}"),
    (r"\sum_{i=0}^{n-1} i", r"\frac{n(n-1)}{2}", r"\frac{n(n+1)}{2}"),
    (r"\sum_{i=1}^{n} i^2", r"\frac{n(n+1)(2n+1)}{6}", r"\frac{n(n+1)(2n-1)}{6}"),
    (r"\sum_{k=0}^{L}\binom{L}{k}", "2^L", "2^{L-1}"),
    (r"\sum_{k=0}^{L} k\binom{L}{k}", "L 2^{L-1}", "L 2^L"),
    (r"\sum_{k=0}^{n}\binom{n}{k} a^k", "(1+a)^n", "(1+a)^{n-1}"),
    (r"\prod_{l=1}^{L} 2", "2^L", "2^{L+1}"),
    (r"\prod_{l=1}^{20} 0.5", "0.5^{20}", "0.5^{19}"),
    (r"\sum_{i=0}^{n-1} a^i", r"\frac{a^n - 1}{a - 1}", r"\frac{a^{n+1} - 1}{a - 1}"),
    (r"\prod_{k=1}^{n} \frac{k+1}{k}", "n + 1", "n"),
    (r"\sum_{i=1}^{n}\sum_{j=1}^{n} 1", "n^2", "n(n+1)"),
]


@pytest.mark.parametrize("sum_text, closed, wrong", CLOSED_FORMS)
def test_closed_forms_follow_and_wrong_ones_do_not(sum_text, closed, wrong):
    assert derivation([closed], sum_text, symbols=["a"]) == ["verified"]
    assert derivation([wrong], sum_text, symbols=["a"]) == ["does_not_follow"]
    assert derivation([sum_text], closed, symbols=["a"]) == ["verified"]


def test_a_broken_line_is_skipped_and_the_next_compared_with_the_last_verified():
    lines = [r"\frac{n(n-1)}{2}", r"\frac{n^2 + n}{2}"]
    assert derivation(lines, r"\sum_{i=1}^{n} i") == ["does_not_follow", "verified"]


def test_a_wrong_closed_form_has_an_integer_counterexample():
    result = grader.check({"kind": "derivation", "answer": [r"\frac{n(n-1)}{2}"],
                           "start": r"\sum_{i=1}^{n} i"})
    feedback = result.steps[0].feedback
    assert "n = " in feedback
    # a derivation shows its counterexample in the step (result.counterexample stays None)
    point = feedback.split("with ", 1)[1].split(":", 1)[0]
    assert point.startswith("n = ") and "." not in point, point


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 40))
def test_gauss_sum_equals_its_closed_form_at_every_bound(n):
    assert exact_at(r"\sum_{i=1}^{n} i", n=n) == Fraction(n * (n + 1), 2)
    assert exact_at(r"\sum_{k=0}^{n}\binom{n}{k}", n=n) == 2 ** n


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 25), st.integers(-3, 3).filter(lambda c: c != 0))
def test_a_closed_form_off_by_a_constant_is_caught(n, c):
    wrong = f"\\frac{{n(n+1)}}{{2}} + {c}" if c > 0 else f"\\frac{{n(n+1)}}{{2}} - {-c}"
    assert exact_at(wrong, n=n) != exact_at(r"\sum_{i=1}^{n} i", n=n)
    assert derivation([wrong], r"\sum_{i=1}^{n} i") == ["does_not_follow"]


# -- products of non-commuting factors ------------------------------------------------------------

MATRICES = {"matrices": ["A"], "families": ["A"]}


@pytest.mark.parametrize("product, written_out", [
    (r"\prod_{l=1}^{3} A_l", "A_1 A_2 A_3"),
    (r"\prod_{l=3}^{1} A_l", "A_3 A_2 A_1"),
    # a symbolic range: its first factor taken out in front (the reverse puts it behind)
    (r"\prod_{l=1}^{L} A_l", r"A_1 \left(\prod_{l=2}^{L}A_l\right)"),
])
def test_products_multiply_in_the_order_the_index_runs(product, written_out):
    assert derivation([written_out], product, **MATRICES) == ["verified"]
    reversed_ = " ".join(reversed(written_out.split()))
    assert derivation([reversed_], product, **MATRICES) == ["does_not_follow"]


def test_a_descending_range_is_the_reverse_product():
    lines = [r"A_L \prod_{l=L-1}^{1} A_l"]
    assert derivation(lines, r"\prod_{l=L}^{1} A_l", integers=["L"], **MATRICES) == ["verified"]
    lines = [r"\left(\prod_{l=1}^{L-1} A_l\right) A_L"]  # the body runs to the end of the term
    assert derivation(lines, r"\prod_{l=1}^{L} A_l", integers=["L"], **MATRICES) == ["verified"]
    assert derivation([r"\prod_{l=1}^{L} A_l"], r"\prod_{l=L}^{1} A_l", integers=["L"],
                      **MATRICES) == ["does_not_follow"]


@pytest.mark.parametrize("text, shown", [
    (r"\prod_{l=L}^{1} A_l", r"A_{L} \, A_{L - 1} \cdots A_{1}"),
    (r"\prod_{l=1}^{L} A_l", r"A_{1} \, A_{2} \cdots A_{L}"),
    (r"\prod_{l=3}^{1} A_l", r"\left[= A_{3} \, A_{2} \, A_{1}\right]"),  # all three written
    (r"\prod_{l=1}^{5} A_l", r"A_{1} \, A_{2} \cdots A_{5}"),
    (r"\prod_{l=1}^{2} A_l", r"\left[= A_{1} \, A_{2}\right]"),
    # Regression (held-out corpus, issue 25): one below its start is the empty range, shown as
    # what it is (I), not as "A_2 A_3 ⋯ A_1", which read as the two factors in reverse.
    (r"\prod_{l=2}^{1} A_l", r"\left[= I\right]"),
])
def test_the_preview_shows_the_order(text, shown):
    assert shown in grader.preview(text, integers=["L"], **MATRICES)["interpreted"]


@pytest.mark.parametrize("lang, words", [("en", "write the range"), ("zh", "请写出")])
def test_a_bare_product_asks_for_its_range(lang, words):
    out = grader.preview(r"\prod_l A_l", lang=lang, **MATRICES)
    assert out["interpreted"] is None and words in out["error"]


# -- hostile input ----------------------------------------------------------------------------------

HOSTILE = [
    (r"\sum_{i=1}^{10^{9}} i", "series_too_long"),
    (r"\prod_{i=1}^{100000} 2", "series_too_long"),
    (r"\sum_{i=1}^{9}\sum_{j=1}^{9}\sum_{k=1}^{9}\sum_{m=1}^{9} i", "series_too_long"),  # 6561
    ("sum(i, i, 1, 10^9)", "series_too_long"),
    (r"\sum_{i=1}^{n}" * 5 + " i", "series_too_deep"),
    (r"\sum_{i=1}^{i} i", "series_bound_uses_index"),
    (r"\sum_{i=1/2}^{n} i", "series_bound_whole"),
    (r"\sum_{i=1}^{n}", "series_needs_body"),
    (r"\sum_i i", "series_needs_range"),
    ("sum(i, i, 1)", "series_arguments"),
]


@pytest.mark.parametrize("text, key", HOSTILE)
def test_hostile_ranges_are_refused_while_reading(text, key):
    with pytest.raises((ParseError, LimitError)) as err:
        parse(text)
    assert err.value.key == key


@pytest.mark.parametrize("text", [
    r"\sum_{i=1}^{10^9 n} i",  # huge only once n is known: stopped while evaluating
    r"\sum_{i=1}^{n^4}\sum_{j=1}^{n^4} i j",
    r"\prod_{i=1}^{2^{2^{n}}} (1 + 1/i)",
    r"\sum_{i=1}^{n}\sum_{j=1}^{n}\sum_{k=1}^{n}\sum_{m=1}^{n} i j k m",
])
def test_huge_symbolic_ranges_get_a_clear_message(text):
    """Bounded by a count of terms (evaluate.MAX_SERIES_EVALUATIONS), not by a clock: the
    answer is refused before the terms are computed."""
    result = grader.check({"kind": "expression", "expected": "n", "answer": text,
                           "integers": ["n"]})
    assert result.error and "terms" in result.error


def test_ten_thousand_characters_are_refused():
    result = grader.check({"kind": "expression", "expected": "n",
                           "answer": r"\sum_{i=1}^{n} i + " * 600})
    assert result.error


# -- exactness: differences floats cannot see are found in Fractions ------------------------------

@pytest.mark.parametrize("start, line", [
    (r"\sum_{i=1}^{n} i", r"\frac{n(n+1)}{2} + 10^{-20}"),
    (r"\sum_{k=0}^{n}\binom{n}{k} a^k", "(1+a)^n + 10^{-12}"),
    (r"\sum_{i=1}^{n} 3^{40} i", r"3^{40}\frac{n(n+1)}{2} + 1"),  # beyond a float's 53 bits
])
def test_tiny_and_huge_differences_are_certified_exactly(start, line):
    result = grader.check({"kind": "derivation", "start": start, "answer": [line],
                           "symbols": ["a"]})
    assert [s.status.value for s in result.steps] == ["does_not_follow"]
    shown = result.steps[0].feedback.split("this line gives ")[1]
    mine, before = shown.split(", the starting line gives ")
    assert mine != before.rstrip(".")  # the digits that differ are shown


def test_an_exact_closed_form_with_cancellation_is_verified():
    """(1+a)^n near a = -1 cancels in floats; the exact check verifies it."""
    result = grader.check({"kind": "derivation", "start": r"\sum_{k=0}^{n}\binom{n}{k} a^k",
                           "answer": ["(1+a)^n"], "symbols": ["a"]})
    assert [s.status.value for s in result.steps] == ["verified"]
