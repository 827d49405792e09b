"""Moments with stated assumptions (issue 25, item 2): E, Var, Cov, D over declared random
variables, decided over random discrete distributions in exact arithmetic.

The expected values below are computed here, independently of the grader, with Fractions over
a hand-written distribution; the verdicts are textbook identities (and their broken forms).
"""

import re
from fractions import Fraction

import numpy as np
import pytest

import grader
from grader.errors import ParseError
from grader.reading.latex import to_latex
from grader.reading.names import Declarations
from grader.reading.nodes import Const, Moment, Mul, Sym
from grader.reading.parser import parse, parse_with_notes
from grader.values.moments import Evaluator, RandomModel, Space

XF = Declarations.of(random=["x", "f"])

# -- reading ------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, op", [
    (r"\mathbb{E}[x]", "E"), ("E[x]", "E"), ("E(x)", "E"), (r"\mathbb{E}\left[x^2\right]", "E"),
    (r"\operatorname{Var}(x)", "Var"), (r"\mathrm{Var}(x)", "Var"), ("Var(x)", "Var"),
    ("Var[x]", "Var"), ("D(x)", "Var"), (r"\operatorname{Cov}(x, f)", "Cov"),
    ("Cov(x,f)", "Cov"), (r"\mathrm{Cov}\left(x, f\right)", "Cov"),
])
def test_moment_notations_are_read_where_random_variables_are_declared(text, op):
    node, _ = parse(text, XF)
    assert type(node) is Moment and node.op == op


def test_d_of_x_is_shown_as_the_variance_it_was_read_as():
    assert to_latex(parse("D(x)", XF)[0]) == r"\operatorname{Var}\left(x\right)"
    assert to_latex(parse(r"\mathbb{E}[x f]", XF)[0]) == r"\mathbb{E}\left[x f\right]"


def test_without_random_variables_e_is_not_an_expectation():
    """No random variables and no name E: E is Euler's number (issue 29), with a note."""
    node, _, notes = parse_with_notes("E(x)", Declarations.of(["x"]))
    assert node == Mul((Const("e"), Sym("x")))
    assert "note_e_constant" in notes
    declared, _, notes = parse_with_notes("E(x)", Declarations.of(["x", "E"]))
    assert declared == Mul((Sym("E"), Sym("x"))) and "note_e_constant" not in notes
    with pytest.raises(ParseError):
        parse("Var(x)", Declarations.of(["x"]))


def test_a_declared_function_named_e_stays_a_function():
    node, _ = parse("E(x)", Declarations.of(functions=["E"], random=["x"]))
    assert type(node) is not Moment


@pytest.mark.parametrize("text", ["Cov(x)", "Var(x, f)", "E[x, f]"])
def test_a_moment_with_the_wrong_number_of_arguments_is_refused(text):
    with pytest.raises(ParseError) as err:
        parse(text, XF)
    assert err.value.key == "moment_arguments"


# -- exact values over a hand-written distribution ----------------------------------------------

# (x, f) takes (1, 2) with probability 1/4, (0, -1) with 1/2, (3, 0) with 1/4.
OUTCOMES = [((1, 2), Fraction(1, 4)), ((0, -1), Fraction(1, 2)), ((3, 0), Fraction(1, 4))]


def expect(g):
    return sum(p * g(x, f) for (x, f), p in OUTCOMES)


def var(g):
    return expect(lambda x, f: g(x, f) ** 2) - expect(g) ** 2


def cov(g, h):
    return expect(lambda x, f: g(x, f) * h(x, f)) - expect(g) * expect(h)


HAND = {
    "E[x]": expect(lambda x, f: x),
    "E[x f]": expect(lambda x, f: x * f),
    "Var(x)": var(lambda x, f: x),
    "D(2x + 1)": var(lambda x, f: 2 * x + 1),
    "Cov(x, f)": cov(lambda x, f: x, lambda x, f: f),
    "Var(x + f)": var(lambda x, f: x + f),
    "E[(x - E[x])^2]": expect(lambda x, f: (x - expect(lambda a, b: a)) ** 2),
    "E[x/(f + 2)]": expect(lambda x, f: Fraction(x, f + 2)),
    "E[|f|] - E[f]^3": expect(lambda x, f: abs(f)) - expect(lambda x, f: f) ** 3,
}


def hand_space() -> Space:
    weights = np.array([1, 2, 1], dtype=object)  # the probabilities times 4
    slots = {("x", None): np.array([1, 0, 3], dtype=object),
             ("f", None): np.array([2, -1, 0], dtype=object)}
    return Space(weights, 4, slots, law=None)


@pytest.mark.parametrize("text", sorted(HAND))
def test_moments_are_exact_over_a_discrete_distribution(text):
    node, _ = parse(text, XF)
    value = Evaluator(hand_space(), RandomModel.of(XF), {}, {}).value(node)
    assert value == HAND[text]


# -- verdicts ------------------------------------------------------------------------------------

def check(lines, lang="en", **declared):
    return grader.check({"kind": "derivation", "answer": lines, "lang": lang, **declared})


def statuses(lines, **declared):
    result = check(lines, **declared)
    assert not result.error, result.error
    return [s.status.value for s in result.steps]


VAR_SUM = r"\operatorname{Var}(x+f)"
RANDOM_XF = {"random": ["x", "f"]}
INDEPENDENT_XF = {"random": ["x", "f"], "independent": [["x", "f"]]}
WX = {"random": ["w", "x"]}
WX_ASSUMED = {"random": ["w", "x"], "independent": [["w", "x"]], "zero_mean": ["w", "x"]}


@pytest.mark.parametrize("lines, declared, expected", [
    # text 001: the general identity needs no assumption
    ([VAR_SUM, r"\operatorname{Var}(x)+\operatorname{Var}(f)+2\operatorname{Cov}(x,f)"],
     RANDOM_XF, ["verified", "verified"]),
    ([VAR_SUM, r"E[(x+f)^2] - E[x+f]^2", r"E[x^2] - E[x]^2 + E[f^2] - E[f]^2 + 2(E[xf] - E[x]E[f])"],
     RANDOM_XF, ["verified", "verified", "verified"]),
    # its independent case: only with the declaration
    ([VAR_SUM, r"\operatorname{Var}(x)+\operatorname{Var}(f)"], RANDOM_XF,
     ["verified", "does_not_follow"]),
    ([VAR_SUM, r"\operatorname{Var}(x)+\operatorname{Var}(f)"], INDEPENDENT_XF,
     ["verified", "verified"]),
    ([r"\operatorname{Cov}(x, f)", "0"], INDEPENDENT_XF, ["verified", "verified"]),
    ([r"\operatorname{Cov}(x, f)", "0"], RANDOM_XF, ["verified", "does_not_follow"]),
    # broken: the factor 2 dropped, a sign flipped, Var(2x) = 2 Var(x)
    ([VAR_SUM, r"\operatorname{Var}(x)+\operatorname{Var}(f)+\operatorname{Cov}(x,f)"],
     RANDOM_XF, ["verified", "does_not_follow"]),
    ([VAR_SUM, r"\operatorname{Var}(x)-\operatorname{Var}(f)+2\operatorname{Cov}(x,f)"],
     RANDOM_XF, ["verified", "does_not_follow"]),
    (["D(2x)", "4 D(x)", "2 D(x)"], RANDOM_XF, ["verified", "verified", "does_not_follow"]),
    (["E(2x + 3)", "2E(x) + 3"], RANDOM_XF, ["verified", "verified"]),
    # Var(wx) = Var(w)Var(x) needs independence and both means 0
    ([r"\operatorname{Var}(w x)", r"\operatorname{Var}(w)\operatorname{Var}(x)"], WX,
     ["verified", "does_not_follow"]),
    ([r"\operatorname{Var}(w x)", r"\operatorname{Var}(w)\operatorname{Var}(x)"], WX_ASSUMED,
     ["verified", "verified"]),
    ([r"\operatorname{Var}(w x)", r"\operatorname{Var}(w)\operatorname{Var}(x)"],
     {**WX_ASSUMED, "zero_mean": ["w"]}, ["verified", "does_not_follow"]),
    # He et al.: with w zero-mean and independent of x, Var(wx) = Var(w) E[x^2]
    ([r"\operatorname{Var}(w x)", r"\operatorname{Var}(w) \mathbb{E}[x^2]"],
     {**WX_ASSUMED, "zero_mean": ["w"]}, ["verified", "verified"]),
])
def test_moment_steps(lines, declared, expected):
    assert statuses(lines, **declared) == expected


HE = {"random": ["w", "x"], "families": ["w", "x"], "integers": ["n"],
      "independent": [["w", "x"]], "zero_mean": ["w", "x"]}
HE_LINES = [r"\operatorname{Var}\left(\sum_{i=1}^{n} w_i x_i\right)",
            r"\sum_{i=1}^{n} \operatorname{Var}(w_i x_i)",
            r"n \operatorname{Var}(w x)",
            r"n \operatorname{Var}(w) \operatorname{Var}(x)"]


def test_he_kaiming_variance_argument_checks_at_concrete_n():
    assert statuses(HE_LINES, **HE) == ["verified"] * 4


@pytest.mark.parametrize("broken, at", [
    (r"\sum_{i=1}^{n-1} \operatorname{Var}(w_i x_i)", 2),  # a term short
    (r"n^2 \operatorname{Var}(w x)", 3),  # n^2 for n
])
def test_he_kaiming_broken_lines(broken, at):
    lines = list(HE_LINES)
    lines[at - 1] = broken
    got = statuses(lines, **HE)
    assert got[at - 1] == "does_not_follow"


def test_members_of_an_iid_family_are_identically_distributed_and_independent():
    declared = {"random": ["w"], "families": ["w"]}
    assert statuses([r"\operatorname{Var}(w_1)", r"\operatorname{Var}(w)"], **declared) == \
        ["verified", "verified"]
    assert statuses([r"\operatorname{Cov}(w_1, w_2)", "0"], **declared) == \
        ["verified", "verified"]
    assert statuses([r"\operatorname{Cov}(w_1, w_1)", "0"], **declared) == \
        ["verified", "does_not_follow"]


# -- feedback: the counterexample and the assumptions -------------------------------------------

LAW = re.compile(r"P\(\(?([a-z, ]+?)\)? = \(?([-0-9, ]+?)\)?\) = (-?\d+(?:/\d+)?)")


def shown_distribution(feedback: str) -> list[tuple[dict[str, int], Fraction]]:
    """The joint law the feedback shows (one block: P((f, x) = (a, b)) = p, ...)."""
    out = []
    for names, values, p in LAW.findall(feedback):
        keys = [n.strip() for n in names.split(",")]
        numbers = [int(v) for v in values.split(",")]
        out.append((dict(zip(keys, numbers, strict=True)), Fraction(p)))
    return out


def test_the_counterexample_is_a_distribution_on_which_the_step_fails_by_hand():
    result = check([VAR_SUM, r"\operatorname{Var}(x)+\operatorname{Var}(f)"], **RANDOM_XF)
    feedback = result.steps[1].feedback
    law = shown_distribution(feedback)
    assert law and sum(p for _, p in law) == 1

    def e(g):
        return sum(p * g(v) for v, p in law)

    def v(g):
        return e(lambda a: g(a) ** 2) - e(g) ** 2

    this = v(lambda a: a["x"]) + v(lambda a: a["f"])
    before = v(lambda a: a["x"] + a["f"])
    assert this != before
    assert f"this line gives {this}" in feedback.replace(f"{this.numerator}/{this.denominator}",
                                                         str(this))
    assert str(before) in feedback or f"{before.numerator}" in feedback


@pytest.mark.parametrize("lines, declared, en, zh", [
    ([VAR_SUM, r"\operatorname{Var}(x)+\operatorname{Var}(f)"], RANDOM_XF,
     "It would follow if f and x are independent (declare independent: [[f, x]])",
     "若 f 与 x 相互独立，这一行才成立（声明 independent: [[f, x]]）"),
    ([r"\operatorname{Var}(x)", r"\mathbb{E}[x^2]"], RANDOM_XF,
     "It would follow if x has mean 0 (declare zero_mean: [x])",
     "若 x 的均值为 0，这一行才成立（声明 zero_mean: [x]）"),
    ([r"\operatorname{Var}(w x)", r"\operatorname{Var}(w)\operatorname{Var}(x)"], WX,
     "It would follow if w and x are independent and w has mean 0 and x has mean 0 "
     "(declare independent: [[w, x]], zero_mean: [w, x])",
     "若 w 与 x 相互独立，且 w 的均值为 0，且 x 的均值为 0，这一行才成立"),
    (["D(2x)", "2 D(x)"], RANDOM_XF,
     "No independence or zero-mean declaration makes it hold.",
     "任何独立或零均值的声明都不能使它成立。"),
])
def test_the_feedback_names_the_assumptions_that_would_make_the_step_hold(lines, declared, en,
                                                                          zh):
    assert en in check(lines, **declared).steps[1].feedback
    chinese = check(lines, lang="zh", **declared).steps[1].feedback
    assert zh in chinese and "例如取分布 P(" in chinese


def test_a_wrong_target_with_moments_is_not_reached():
    result = grader.check({"kind": "derivation", "answer": [VAR_SUM],
                           "expected": r"\operatorname{Var}(x)+\operatorname{Var}(f)",
                           **RANDOM_XF})
    assert result.reaches_target is False
    result = grader.check({"kind": "derivation", "answer": [VAR_SUM],
                           "expected": r"\operatorname{Var}(x)+\operatorname{Var}(f)",
                           **INDEPENDENT_XF})
    assert result.reaches_target is True and result.correct


# -- the schema ----------------------------------------------------------------------------------

@pytest.mark.parametrize("declared, field", [
    ({"random": ["x"], "zero_mean": ["y"]}, "zero_mean names must be declared in random: y"),
    ({"random": ["x"], "independent": [["x", "y"]]},
     "independent names must be declared in random: y"),
    ({"zero_mean": ["x"]}, "zero_mean names must be declared in random: x"),
    ({"random": ["x", "y"], "independent": ["x", "y"]}, "independent must be a list of groups"),
    ({"random": ["x"], "independent": [["x"]]}, "independent must be a list of groups"),
    ({"random": ["F"], "functions": ["F"]}, "random variables cannot also be functions"),
])
def test_bad_declarations_name_the_field(declared, field):
    result = check(["E[x]"], **declared)
    assert result.error and field in result.error


def test_declarations_of_keeps_every_existing_caller_working():
    assert Declarations.of(["x"]) == Declarations.of(["x"], random=(), independent=(),
                                                     zero_mean=())
    decls = Declarations.of(random=["w", "x"], independent=[["w", "x"]], zero_mean=["w"])
    assert decls.independent == (frozenset({"w", "x"}),) and decls.zero_mean == {"w"}


# -- hostile input: bounded, with a clear message ------------------------------------------------

def test_many_random_variables_get_a_clear_message():
    names = [chr(ord("a") + i) for i in range(14)]
    line = r"\operatorname{Var}(" + " + ".join(names) + ")"
    result = check([line, " + ".join(rf"\operatorname{{Var}}({n})" for n in names)],
                   random=names)
    step = result.steps[1]
    assert step.status.value in ("cannot_decide", "does_not_follow")
    assert step.feedback


def test_deeply_nested_moments_are_bounded():
    line = "x"
    for _ in range(12):
        line = f"E[{line} + x]"
    result = check([line, "4096 E[x]"], random=["x"])
    assert [s.status.value for s in result.steps] == ["verified", "does_not_follow"]


def test_a_sum_of_many_members_is_refused_with_a_message():
    result = check([r"\operatorname{Var}\left(\sum_{i=1}^{n} w_i\right)", r"n \operatorname{Var}(w)"],
                   random=["w"], families=["w"], integers=["n"])
    assert [s.status.value for s in result.steps] == ["verified", "verified"]
    result = check([r"\operatorname{Var}\left(\sum_{i=1}^{40} w_i\right)", r"40 \operatorname{Var}(w)"],
                   random=["w"], families=["w"])
    step = result.steps[1]
    assert step.status.value == "cannot_decide" and "outcomes" in step.feedback


def test_a_plain_random_variable_with_family_members_needs_a_declaration():
    result = check([r"\operatorname{Var}(y + w_1)", r"\operatorname{Var}(y) + \operatorname{Var}(w)"],
                   random=["y", "w"], families=["w"])
    assert result.steps[1].status.value == "cannot_decide"
    assert "independent: [[y, w]]" in result.steps[1].feedback


LETTERS = "abcdfghkmpqrstuvyzAB"


def variance_of_sum(names):
    return [r"\operatorname{Var}(" + "+".join(names) + ")",
            "+".join(rf"\operatorname{{Var}}({v})" for v in names)]


@pytest.mark.parametrize("names, independent, status", [
    (LETTERS[:11], [list(LETTERS[:11])], "verified"),  # 2^11 outcomes: at the limit
    (LETTERS[:12], [list(LETTERS[:12])], "cannot_decide"),  # beyond: refused with a message
    (LETTERS[:20], [], "does_not_follow"),  # one group of 20 dependent ones: one factor
    ([f"r_{k}" for k in range(30)],  # 3^10 maximal groups: refused while they are counted
     [[f"r_{k}" for k in range(t, 30, 3)] for t in range(3)], "cannot_decide"),
])
def test_many_random_variables_are_bounded(names, independent, status):
    result = check(variance_of_sum(list(names)), random=list(names), independent=independent)
    step = result.steps[1]
    assert step.status.value == status
    if status == "cannot_decide":
        assert "2048 outcomes" in step.feedback


# -- expression questions with moments ----------------------------------------------------------

@pytest.mark.parametrize("answer, declared, correct", [
    ("D(x) + D(f) + 2 Cov(x, f)", RANDOM_XF, True),
    (r"E[x^2] - E[x]^2 + E[f^2] - E[f]^2 + 2(E[x f] - E[x] E[f])", RANDOM_XF, True),
    (r"\operatorname{Var}(x)+\operatorname{Var}(f)", RANDOM_XF, False),
    (r"\operatorname{Var}(x)+\operatorname{Var}(f)", INDEPENDENT_XF, True),
])
def test_an_expression_question_with_moments(answer, declared, correct):
    result = grader.check({"kind": "expression", "expected": VAR_SUM, "answer": answer,
                           **declared})
    assert result.correct is correct and not result.error
    if not correct:
        assert "your answer gives" in result.feedback and "P((f, x) = " in result.feedback


def test_an_expression_question_without_moments_is_graded_as_before():
    result = grader.check({"kind": "expression", "expected": "x + f", "answer": "f + x",
                           **RANDOM_XF})
    assert result.correct


# -- the textbooks' brackets: E\{[X - E(X)]^2\}, [E(X)]^2 ------------------------------------------

@pytest.mark.parametrize("lines, declared, expected", [
    (["D(X)", r"E\{[X - E(X)]^2\}", r"E(X^2) - [E(X)]^2"], {"random": ["X"]},
     ["verified", "verified", "verified"]),
    (["D(X)", r"E\left\{[X - E(X)]^2\right\}", r"E(X^2) - [E(X)]"], {"random": ["X"]},
     ["verified", "verified", "does_not_follow"]),
    (["E(X^2)", "D(X) + [E(X)]^2", "D(X)"], {"random": ["X"], "zero_mean": ["X"]},
     ["verified", "verified", "verified"]),
    (["E(X^2)", "D(X) + [E(X)]^2", "D(X)"], {"random": ["X"]},
     ["verified", "verified", "does_not_follow"]),
])
def test_textbook_brackets(lines, declared, expected):
    assert statuses(lines, **declared) == expected


# -- declared domains hold at every point (held-out corpus, issue 25) -------------------------------

IID = {"integers": ["n", "i"], "random": ["x"], "families": ["x"]}
COV_WITH_MEMBER = [r"\operatorname{Cov}\left(\sum_{i=1}^{n} x_i, x_1\right)",
                   r"\operatorname{Var}(x_1)"]


def test_a_positive_integer_is_never_zero_in_a_moment_identity():
    """Cov(x_1 + … + x_n, x_1) = Var(x_1) for i.i.d. x holds for n >= 1; at n = 0 the sum is
    empty and the covariance 0. With n declared positive, the step follows."""
    result = grader.check({"kind": "derivation", "answer": COV_WITH_MEMBER, "positive": ["n"],
                           **IID})
    assert [s.status.value for s in result.steps] == ["verified", "verified"]
    result = grader.check({"kind": "derivation", "answer": COV_WITH_MEMBER, **IID})
    assert [s.status.value for s in result.steps] == ["verified", "does_not_follow"]
    assert "n = 0" in result.steps[-1].feedback
