"""Issue 25, item 1: vectors, Jacobians and gradients with transposes.

Values are checked against independent computations: numpy closed forms of the Jacobians and
gradients (evaluated from the very matrices and vectors the grader sampled), and central
differences of the grader's own random vector functions for their closed-form Jacobians. Each
shape mistake has its own test, in both languages."""

import numpy as np
import pytest

import grader
from grader.kinds.request import BadRequest, declarations
from grader.reading.names import Declarations
from grader.reading.parser import parse
from grader.values.evaluate import evaluate
from grader.values.shapes import infer_space
from grader.values.vector_sampling import vector_env

GRADIENT = {"matrices": ["W"], "vectors": ["x", "y"]}
RESIDUAL = {"functions": ["F"], "vectors": ["x", "F"]}
UPSTREAM = {"matrices": ["W"], "vectors": ["x", "y"], "functions": ["L"],
            "relations": ["y = x + Wx"]}


def check(lines, lang="en", **declared):
    return grader.check({"kind": "derivation", "answer": lines, "lang": lang, **declared})


def statuses(result):
    return [s.status.value for s in result.steps]


def sampled(text, others=(), **declared):
    """(the value of `text`, the environment): sized from `text` and `others` read in order."""
    decls = Declarations.of(declared.get("symbols", ()), declared.get("functions", ()),
                            declared.get("matrices", ()), vectors=declared.get("vectors", ()))
    nodes = tuple(parse(t, decls)[0] for t in (text, *others))
    space = infer_space(nodes, decls.vectors,
                        frozenset(n for n in decls.vectors if n in decls.functions),
                        decls.matrices)
    env = vector_env(space)
    return evaluate(nodes[0], env), env


# -- values against closed forms -------------------------------------------------------------

def test_the_jacobian_of_wx_is_w_and_w_is_not_square():
    value, env = sampled(r"\frac{\partial (Wx)}{\partial x}", **GRADIENT)
    w = env.matrix("W")
    assert w.shape[1] != w.shape[2]  # nothing forces W square: a missing transpose shows
    np.testing.assert_allclose(value, w, rtol=1e-12)


def test_the_gradient_of_half_the_squared_residual_is_w_transpose_times_it():
    value, env = sampled(r"\nabla_x \frac{1}{2}\|Wx-y\|^2", **GRADIENT)
    w, x, y = (env.matrix(n).real for n in "Wxy")
    np.testing.assert_allclose(value.real, np.swapaxes(w, 1, 2) @ (w @ x - y), rtol=1e-10)


@pytest.mark.parametrize(("text", "closed_form"), [
    (r"\nabla_x \|x\|", lambda x, a: x / np.linalg.norm(x, axis=1, keepdims=True)),
    (r"\nabla_x (a^\top x)", lambda x, a: a),
    (r"\nabla_x (x^\top x)", lambda x, a: 2 * x),
    (r"\nabla_x \sin(a^\top x)", lambda x, a: np.cos(np.swapaxes(a, 1, 2) @ x) * a),
])
def test_gradients_match_their_closed_forms(text, closed_form):
    value, env = sampled(text, **{"vectors": ["x", "a"]})
    x, a = env.matrix("x").real, env.matrix("a").real
    np.testing.assert_allclose(value.real, closed_form(x, a), rtol=1e-10)


def test_a_vector_function_s_jacobian_matches_central_differences():
    """J_F(x) (closed form A diag(1 - tanh²(Bx + c)) B) against differences of F itself."""
    jacobian, env = sampled("J_F(x)", ["x + F(x)"], **RESIDUAL)
    decls = Declarations.of(functions=["F"], vectors=["x", "F"])
    f = parse("F(x)", decls)[0]
    x = env.matrices["x"].copy()
    h = 1e-6
    columns = []
    for j in range(x.shape[1]):
        up, down = x.copy(), x.copy()
        up[:, j, 0] += h
        down[:, j, 0] -= h
        env.matrices["x"] = up
        f_up = evaluate(f, env)
        env.matrices["x"] = down
        f_down = evaluate(f, env)
        columns.append(((f_up - f_down) / (2 * h))[:, :, 0])
    env.matrices["x"] = x
    np.testing.assert_allclose(jacobian.real, np.stack(columns, axis=-1).real, atol=1e-7)


# -- derivations: verdicts -------------------------------------------------------------------

@pytest.mark.parametrize(("lines", "declared", "expected"), [
    ([r"\frac{\partial (Wx)}{\partial x}", "W"], GRADIENT, ["verified", "verified"]),
    ([r"\frac{\partial (Wx)}{\partial x}", "W^T"], GRADIENT, ["verified", "does_not_follow"]),
    ([r"\frac{\partial}{\partial x}(x+F(x))", "I + J_F(x)", "I + F'(x)",
      r"I + \frac{\partial F}{\partial x}"], RESIDUAL, ["verified"] * 4),
    ([r"\frac{\partial}{\partial x}(x+F(x))", "J_F(x)"], RESIDUAL,
     ["verified", "does_not_follow"]),  # the identity path dropped
    ([r"\nabla_x \frac{1}{2}\|Wx-y\|^2", r"W^\top(Wx-y)", "W^T W x - W^T y"], GRADIENT,
     ["verified"] * 3),
    ([r"\nabla_x \frac{1}{2}\|Wx-y\|^2", r"\frac{1}{2} W^\top(Wx-y)"], GRADIENT,
     ["verified", "does_not_follow"]),  # the 2 of the square forgotten
    ([r"\nabla_x (a^\top x)", "a"], {"vectors": ["x", "a"]}, ["verified", "verified"]),
    ([r"\nabla_x (x^\top A x)", r"(A + A^\top) x"], {"vectors": ["x"], "matrices": ["A"]},
     ["verified", "verified"]),
    ([r"\nabla_x (x^\top A x)", "2 A x"], {"vectors": ["x"], "matrices": ["A"]},
     ["verified", "does_not_follow"]),  # only for a symmetric A
    ([r"\nabla_x L", r"(I+W)^\top \nabla_y L", r"\nabla_y L + W^T \nabla_y L"], UPSTREAM,
     ["verified"] * 3),
    ([r"\nabla_x L", r"(I+W) \nabla_y L"], UPSTREAM, ["verified", "does_not_follow"]),
    ([r"\frac{\partial L}{\partial x}", r"\frac{\partial L}{\partial y}(I+W)"], UPSTREAM,
     ["verified", "verified"]),
    ([r"\frac{\partial y}{\partial x}", "I + W"], UPSTREAM, ["verified", "verified"]),
    ([r"\frac{\partial y}{\partial x}", "W"], UPSTREAM, ["verified", "does_not_follow"]),
    ([r"\|x\|^2", r"x^\top x", "x^T x + 0"], {"vectors": ["x"]}, ["verified"] * 3),
    ([r"\frac{\partial x}{\partial x}", "I"], {"vectors": ["x"]}, ["verified", "verified"]),
])
def test_vector_derivations(lines, declared, expected):
    assert statuses(check(lines, **declared)) == expected


# -- families of vectors: Jacobians through the relation -------------------------------------

CHAIN = {"families": ["x", "F"], "functions": ["F"], "vectors": ["x", "F"],
         "integers": ["L", "l"], "relations": ["x_{l+1} = x_l + F_l(x_l)"]}
PRE_LN = {"families": ["x", "F"], "functions": ["F", "LN"], "vectors": ["x", "F", "LN"],
          "integers": ["L", "l"], "relations": [r"x_{l+1} = x_l + F_l(\mathrm{LN}(x_l))"]}


@pytest.mark.parametrize(("lines", "declared", "expected"), [
    ([r"\frac{\partial x_{l+1}}{\partial x_l}", "I + F_l'(x_l)"], CHAIN, ["verified"] * 2),
    ([r"\frac{\partial x_L}{\partial x_l}", r"\prod_{i=L-1}^{l}(I + F_i'(x_i))"], CHAIN,
     ["verified"] * 2),
    ([r"\frac{\partial x_L}{\partial x_l}", r"\prod_{i=l}^{L-1}(I + F_i'(x_i))"], CHAIN,
     ["verified", "does_not_follow"]),  # the other order: another product of matrices
    ([r"\frac{\partial x_L}{\partial x_l}", r"I + \sum_{i=l}^{L-1} F_i'(x_i)"], CHAIN,
     ["verified", "does_not_follow"]),  # the cross terms dropped
    ([r"\frac{\partial x_{l+1}}{\partial x_l}",
      r"I + F_l'(\mathrm{LN}(x_l))\,\mathrm{LN}'(x_l)",
      r"I + \mathrm{LN}'(x_l)\,F_l'(\mathrm{LN}(x_l))"], PRE_LN,
     ["verified", "verified", "does_not_follow"]),  # the factors swapped: sizes differ
    ([r"\frac{\partial x_L}{\partial x_l}",
      r"\prod_{i=L-1}^{l}\left(I + F_i'(\mathrm{LN}(x_i))\,\mathrm{LN}'(x_i)\right)"], PRE_LN,
     ["verified"] * 2),
])
def test_families_of_vectors_are_differentiated_through_their_relation(lines, declared,
                                                                       expected):
    assert statuses(check(lines, **declared)) == expected


def test_a_family_jacobian_matches_the_product_of_the_layers_jacobians():
    """∂x_2/∂x_0 through x_{l+1} = x_l + F_l(x_l), against (I + J_{F_1}(x_1))(I + J_{F_0}(x_0))
    multiplied out in numpy from the grader's own closed-form layer Jacobians."""
    decls = Declarations.of(functions=["F"], families=["x", "F"], vectors=["x", "F"],
                            relations=["x_{l+1} = x_l + F_l(x_l)"])
    from grader.kinds.indexing import indexing_of
    from grader.values.indexed import indexed_env, sized_space
    from grader.values.vector_sampling import with_space

    nodes = [parse(t, decls)[0] for t in (r"\frac{\partial x_2}{\partial x_0}",
                                          "F_1'(x_1)", "F_0'(x_0)")]
    indexing = indexing_of(decls)
    env = with_space(indexed_env(tuple(nodes), True, indexing), sized_space(indexing, (nodes[0],)))
    chain, j1, j0 = (evaluate(n, env) for n in nodes)
    eye = np.eye(chain.shape[1])
    np.testing.assert_allclose(chain.real, ((eye + j1) @ (eye + j0)).real, rtol=1e-9, atol=1e-12)


# -- shape mistakes, named -------------------------------------------------------------------

@pytest.mark.parametrize(("lines", "declared", "en", "zh"), [
    # a row where a column is meant
    ([r"\nabla_x (a^\top x)", r"a^\top"], {"vectors": ["x", "a"]},
     "row vector where line 1 is a column vector", "这一行是行向量"),
    ([r"\nabla_x L", r"(\nabla_y L)^T (I+W)"], UPSTREAM,
     "row vector where line 1 is a column vector", "这一行是行向量"),
    # W for W^T where the shapes differ: a product whose sizes do not fit
    ([r"\nabla_x \frac{1}{2}\|Wx-y\|^2", "W(Wx-y)"], GRADIENT,
     "Is a transpose missing or extra", "是否缺少或多了转置"),
    # a vector plus a scalar
    ([r"\|x\|^2", "x + 1"], {"vectors": ["x"]},
     "a scalar cannot be added to a vector", "标量不能与向量相加"),
    # a Jacobian whose shape is transposed
    ([r"\frac{\partial (Wx)}{\partial x}", "W^T"], GRADIENT,
     "it is transposed", "它被转置了"),
])
def test_each_shape_mistake_is_named_in_both_languages(lines, declared, en, zh):
    for lang, words in (("en", en), ("zh", zh)):
        result = check(lines, lang=lang, **declared)
        assert statuses(result)[-1] == "does_not_follow"
        assert words in result.steps[-1].feedback, result.steps[-1].feedback


def test_a_function_declared_only_as_a_function_is_said_to_be_scalar_in_both_languages():
    """Held-out corpus (issue 25): `x + F(x)` with F under functions only adds a scalar to a
    vector; the message says how to declare a vector function."""
    for lang, words in (("en", "declare it under vectors too"), ("zh", "请同时在“向量”中声明")):
        result = check(["x + F(x)", "F(x) + x"], lang=lang, functions=["F"], vectors=["x"])
        assert words in result.steps[-1].feedback, result.steps[-1].feedback


@pytest.mark.parametrize(("lines", "declared"), [
    # the held-out corpus declared these functions under functions only: J_F names a Jacobian,
    # so F is a vector function; the loss L (a gradient, no J) stays a scalar function
    ([r"\frac{\partial}{\partial x}\left(c x + F(x)\right)", "c I + J_F(x)"],
     {"symbols": ["c"], "vectors": ["x"], "functions": ["F"]}),
    ([r"\frac{\partial}{\partial x}\left(x + F(N(x))\right)", "I + J_F(N(x)) J_N(x)"],
     {"vectors": ["x"], "functions": ["F", "N"]}),
    ([r"\nabla_x L", r"\left(I + J_F(x)\right)^\top J_N(x + F(x))^\top \nabla_y L"],
     {"vectors": ["x", "y"], "functions": ["F", "N", "L"], "relations": ["y = N(x + F(x))"]}),
])
def test_a_function_whose_jacobian_is_written_is_a_vector_function(lines, declared):
    assert statuses(check(lines, **declared)) == ["verified", "verified"]
    broken = [lines[0], lines[1].replace("I + ", "", 1)]  # the identity path dropped
    assert statuses(check(broken, **declared)) == ["verified", "does_not_follow"]


AFFINE = {"vectors": ["x", "b", "d"], "matrices": ["A", "C", "D"]}


@pytest.mark.parametrize(("lines", "expected"), [
    # The Matrix Cookbook's gradient of (Ax+b)^T C (Dx+d), brackets as the held-out corpus
    # wrote them: a space inside \left[ \right] around vectors multiplies (it separated
    # "entries" of a literal, and the line could not be checked)
    ([r"\nabla_x \left[(Ax + b)^\top C (Dx + d)\right]",
      r"A^\top C (Dx + d) + D^\top C^\top (Ax + b)"], ["verified", "verified"]),
    ([r"\nabla_x \left[(Ax + b)^\top C (Dx + d)\right]",
      r"A^\top C (Dx + d) + D^\top C (Ax + b)"], ["verified", "does_not_follow"]),
    ([r"[A x + b]", "Ax + b"], ["verified", "verified"]),
    ([r"[A x + b]", "A(x + b)"], ["verified", "does_not_follow"]),
])
def test_square_brackets_around_vectors_group_as_parentheses(lines, expected):
    assert statuses(check(lines, **AFFINE)) == expected


@pytest.mark.parametrize(("answer", "expected"), [
    ("[1 2; 3 4]", "[[1,2],[3,4]]"), ("[x y]", "[x, y]"), ("[x]", "x")])
def test_a_literal_of_numbers_is_still_a_literal(answer, expected):
    result = grader.check({"kind": "expression", "answer": answer, "expected": expected,
                           "symbols": ["x", "y"]})
    assert result.verdict.value == "correct"


def test_nested_brackets_are_read_again_a_bounded_number_of_times():
    text = "[" * 14 + "A B" + "] C" * 14  # each level would be re-read inside the next
    result = grader.check({"kind": "expression", "answer": text, "expected": "A",
                           "matrices": ["A", "B", "C"]})
    assert result.verdict.value in ("unreadable", "wrong")


def test_a_later_line_cannot_make_the_reference_s_matrix_square():
    """`W(Wx - y)` would fit if W were square; the first line keeps W's two sizes apart."""
    result = check([r"\nabla_x \frac{1}{2}\|Wx-y\|^2", "W^T(Wx-y)", "W(Wx-y)"], **GRADIENT)
    assert statuses(result) == ["verified", "verified", "does_not_follow"]


# -- hostile input ---------------------------------------------------------------------------

@pytest.mark.parametrize(("lines", "status", "words"), [
    ([r"\nabla_x \nabla_x \|x\|", "x"], "cannot_decide", "only first derivatives by a vector"),
    (["\\|" * 40 + "x" + "\\|" * 40, "x"], "unreadable", "nested too deeply"),
    ([r"\nabla_t \|x\|", "x"], "unreadable", "needs t declared as a vector"),
])
def test_hostile_vector_lines_get_a_clear_message(lines, status, words):
    result = check(lines, **{"vectors": ["x"]})
    flagged = [s for s in result.steps if s.status.value == status]
    assert flagged and words in flagged[0].feedback, result.steps


def test_ten_thousand_characters_of_vectors_are_bounded():
    """A block of 10,000 characters is refused whole; a line of 9,000 by the line limit."""
    block = r"\nabla_x \|x\|^2 = " + " + ".join(["2x"] * 3000)
    assert len(block) > 9000
    result = grader.check({"kind": "derivation", "answer": block + " + x" * 400,
                           "vectors": ["x"]})
    assert "at most 10000 are checked at once" in result.error
    result = grader.check({"kind": "derivation", "answer": [r"\nabla_x \|x\|^2", block[18:]],
                           "vectors": ["x"]})
    assert statuses(result)[1] == "unreadable"
    assert "1000" in result.steps[1].feedback


# -- the schema ------------------------------------------------------------------------------

def test_declarations_of_keeps_working_without_vectors():
    assert Declarations.of(["x"]).vectors == frozenset()
    assert Declarations.of(vectors=["x"]).vectors == frozenset({"x"})


def test_a_vector_cannot_also_be_a_matrix():
    with pytest.raises(BadRequest, match="vectors cannot also be"):
        declarations({"kind": "derivation", "matrices": ["x"], "vectors": ["x"]})


@pytest.mark.parametrize(("answer", "verdict", "words"), [
    (r"W^\top(Wx-y)", "correct", "Correct"),
    ("W^T W x - W^T y", "correct", "Correct"),
    ("W(Wx-y)", "wrong", "Is a transpose missing or extra"),  # a shape mistake: wrong, named
    ("(Wx-y)^T W", "wrong", "Wrong shape"),
    (r"2W^\top(Wx-y)", "wrong", "For example"),
])
def test_an_expression_answer_with_vectors(answer, verdict, words):
    result = grader.check({"kind": "expression", "answer": answer, **GRADIENT,
                           "expected": r"\nabla_x \frac{1}{2}\|Wx-y\|^2"})
    assert result.verdict.value == verdict and words in result.feedback, result.feedback


# -- found by the independent corpus (bench/corpus/derivations/part2_jacobians_gradients.yaml) ---

@pytest.mark.parametrize(("lines", "declared", "expected"), [
    # ∂/∂x by a vector takes the whole product after it, as \nabla_x does
    ([r"\frac{\partial}{\partial x}\,V(Wx + b)", "VW"],
     {"vectors": ["x", "b"], "matrices": ["W", "V"]}, ["verified", "verified"]),
    ([r"\frac{\partial}{\partial x}\,V(Wx + b)", "WV"],
     {"vectors": ["x", "b"], "matrices": ["W", "V"]}, ["verified", "does_not_follow"]),
    # \nabla by a member of a family of vectors, through the relation
    ([r"\nabla_{x_0}\left(g^\top x_2\right)", r"\left(I + F_0'(x_0)\right)^\top"
      r"\left(I + F_1'(x_1)\right)^\top g"],
     {**CHAIN, "vectors": ["x", "F", "g"]}, ["verified", "verified"]),
    ([r"\nabla_{x_0}\left(g^\top x_2\right)", r"\left(I + F_1'(x_1)\right)^\top"
      r"\left(I + F_0'(x_0)\right)^\top g"],
     {**CHAIN, "vectors": ["x", "F", "g"]}, ["verified", "does_not_follow"]),
    # a prime escaped as in a program's string
    ([r"\frac{\partial}{\partial x}(x + F(x))", "I + F\\'(x)"], RESIDUAL, ["verified"] * 2),
])
def test_readings_the_corpus_asked_for(lines, declared, expected):
    assert statuses(check(lines, **declared)) == expected


# -- the complex step through sqrt and log (found while building the Jacobians) -------------------

@pytest.mark.parametrize(("relation", "derivative"), [
    (r"x_{l+1} = x_l + \sqrt{x_l^2 + 1}", r"1 + \frac{x_l}{\sqrt{x_l^2 + 1}}"),
    (r"x_{l+1} = x_l + \log(x_l^2 + 1)", r"1 + \frac{2 x_l}{x_l^2 + 1}"),
])
def test_a_member_derivative_through_sqrt_or_log_keeps_its_complex_step(relation, derivative):
    """sqrt and log used to drop the step's imaginary part, so ∂x_{l+1}/∂x_l was 1 and the line
    `1` was verified (on main: ['verified', 'verified', 'verified'])."""
    declared = {"families": ["x"], "integers": ["l"], "relations": [relation]}
    lines = [r"\frac{\partial x_{l+1}}{\partial x_l}", derivative, "1"]
    assert statuses(check(lines, **declared)) == ["verified", "verified", "does_not_follow"]
