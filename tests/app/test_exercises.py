"""Exercises: the session flow (tutor.exercises) and the page's main flow in AppTest."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import compute
from tests.app.shell_helpers import open_app
from tutor import exercises as ex

TEMPLATE_NAMES = [t["name"] for t in compute.list_templates()]


# --- the session flow -------------------------------------------------------------------------


@pytest.mark.parametrize("difficulty", ex.DIFFICULTIES)
@pytest.mark.parametrize("template", TEMPLATE_NAMES)
def test_key_answers_grade_correct_for_every_template(template, difficulty):
    exercise = ex.build_exercise(template, 11, difficulty)
    assert exercise.asks and set(exercise.asks) == set(exercise.expected)
    typed = {name: ex.format_value(value) for name, value in exercise.expected.items()}
    result = ex.grade_exercise(exercise, typed, lang="en")
    assert [a.name for a in result.answers if not a.correct] == []
    assert result.verdict == "correct" and result.score == 1.0


def test_the_same_seed_builds_the_same_problem_and_another_seed_another():
    a = ex.build_exercise("linear_residual_block", 42, "medium")
    assert ex.build_exercise("linear_residual_block", 42, "medium") == a
    assert ex.build_exercise("linear_residual_block", 43, "medium").expected != a.expected


def test_linear_block_matches_the_source_texts_closed_form():
    # Independent of compute: y = (I + W)x, L = 1/2|y - t|^2, grad_x = (I + W)^T (y - t).
    exercise = ex.build_exercise("linear_residual_block", 5, "medium")
    problem = compute.generate("linear_residual_block", seed=5, difficulty="medium")
    x, W, t = (problem["params"][k] for k in ("x", "W", "t"))
    n = len(x)
    y = [x[i] + sum(W[i][j] * x[j] for j in range(n)) for i in range(n)]
    g = [y[i] - t[i] for i in range(n)]
    grad_x = [g[j] + sum(W[i][j] * g[i] for i in range(n)) for j in range(n)]
    assert exercise.expected["y"] == pytest.approx(y)
    assert exercise.expected["loss"] == pytest.approx(0.5 * sum(v * v for v in g))
    assert exercise.expected["grad_x"] == pytest.approx(grad_x)


def test_mixed_answers_give_partial_and_a_recordable_result():
    exercise = ex.build_exercise("linear_residual_block", 7, "easy")
    typed = {name: ex.format_value(v) for name, v in exercise.expected.items()}
    typed["loss"] = str(exercise.expected["loss"] * 1.01)  # 1% off: outside rel 1e-3
    typed["y"] = ""
    typed["grad_W"] = "[[1, 2]"
    result = ex.grade_exercise(exercise, typed, lang="en", seconds=12.5)
    by_name = {a.name: a for a in result.answers}
    assert by_name["loss"].verdict == "wrong"
    assert by_name["y"].verdict == "wrong" and by_name["y"].answer == ""
    assert by_name["grad_W"].verdict == "error" and by_name["grad_W"].error
    assert result.verdict == "partial"
    assert result.score == pytest.approx(4 / 7)
    fields = result.attempt_fields()
    assert fields["question_id"] == "exercise:linear_residual_block"
    assert fields["seed"] == 7 and fields["seconds"] == 12.5
    assert json.loads(fields["answer"])["grad_W"] == "[[1, 2]"


def test_attempt_fields_are_accepted_by_the_store():
    from tutor.store.records import NewAttempt

    exercise = ex.build_exercise("gradient_multiplier", 3, "easy")
    result = ex.grade_exercise(exercise, {"plain": "1", "residual": "2"}, lang="zh")
    assert NewAttempt(**result.attempt_fields()).problems() == []


@pytest.mark.parametrize(
    ("rel_error", "correct"), [(0.0, True), (5e-4, True), (2e-3, False), (-2e-3, False)]
)
def test_relative_tolerance_is_1e_3(rel_error, correct):
    exercise = ex.build_exercise("gradient_multiplier", 9, "medium")
    value = exercise.expected["residual"]
    result = ex.grade_exercise(exercise, {"residual": repr(value * (1 + rel_error))}, lang="en")
    assert result.answers[1].correct is correct


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"template": "gradient_multiplier", "seed": "42", "difficulty": "hard"},
         ("gradient_multiplier", 42, "hard")),
        ({"template": "gradient_multiplier", "seed": "42"}, ("gradient_multiplier", 42, "medium")),
        ({"template": "no_such_template", "seed": "42"}, None),
        ({"template": "gradient_multiplier", "seed": "-1"}, None),
        ({"template": "gradient_multiplier", "seed": "0"}, None),
        ({"template": "gradient_multiplier", "seed": "4e2"}, None),
        ({"template": "gradient_multiplier", "seed": "１２"}, None),  # full-width digits
        ({"template": "gradient_multiplier", "seed": "100000"}, None),
        ({"template": "gradient_multiplier", "seed": "5", "difficulty": "insane"}, None),
        ({}, None),
    ],
)
def test_parse_share_params(params, expected):
    assert ex.parse_share_params(params, TEMPLATE_NAMES) == expected


@pytest.mark.parametrize(
    ("value", "text", "shape"),
    [(1.25, "1.25", ()), (3.0, "3", ()), ([0.4, 2.05], "[0.4, 2.05]", (2,)),
     ([[1.0, 0.5], [0.0, 2.0]], "[[1, 0.5], [0, 2]]", (2, 2)), (1 / 3, "0.333333", ())],
)
def test_format_value_and_shape(value, text, shape):
    assert ex.format_value(value) == text
    assert ex.answer_shape(value) == shape


@pytest.mark.parametrize(
    ("tolerance", "request_field", "shown"),
    [({"kind": "relative", "value": 1e-3}, "rtol", "0.1%"),
     ({"kind": "absolute", "value": 0.01}, "atol", "0.01"),
     ({"kind": "sigfigs", "value": 3}, "sigfigs", "3")],
)
def test_tolerances(tolerance, request_field, shown):
    assert ex.numeric_request(1.0, "1", tolerance, "en")[request_field] == tolerance["value"]
    assert ex.tolerance_value(tolerance)[1] == shown


def test_draw_seed_is_in_range():
    seeds = {ex.draw_seed() for _ in range(200)}
    assert all(ex.SEED_RANGE[0] <= s <= ex.SEED_RANGE[1] for s in seeds) and len(seeds) > 150


# --- the page ---------------------------------------------------------------------------------

LINK = {"template": "linear_residual_block", "seed": 7, "difficulty": "easy"}


def answer_inputs(at):
    return [w for w in at.text_input if w.key and w.key.startswith("ex_answer_")]


def submit(at):
    next(b for b in at.button if b.label in ("Submit", "提交")).click().run()
    assert not at.exception, at.exception


def test_a_link_opens_that_problem():
    at = open_app("exercises", "en", **LINK)
    assert at.session_state["ex_seed"] == 7
    assert any("Seed 7" in c.value for c in at.caption)
    assert at.query_params["seed"] == "7" and at.query_params["template"] == LINK["template"]
    assert len(answer_inputs(at)) == 7


def test_right_answers_show_correct_and_the_worked_solution():
    at = open_app("exercises", "en", **LINK)
    exercise = ex.build_exercise(LINK["template"], 7, "easy")
    assert not at.expander  # the worked solution waits for an attempt
    for widget in answer_inputs(at):
        widget.input(ex.format_value(exercise.expected[widget.key.rsplit("_easy_", 1)[1]]))
    submit(at)
    assert at.success[0].value == "All 7 answers correct."
    assert at.expander and "(I + W)^T" in at.expander[0].markdown[0].value


def test_wrong_answer_is_marked_and_quoted_verbatim():
    at = open_app("exercises", "zh", **LINK)
    inputs = answer_inputs(at)
    inputs[0].input("**[1, 2]**")  # would be bold if rendered as Markdown
    submit(at)
    assert at.error[0].value == "7 个答案都还不对。"
    assert "**[1, 2]**" in [c.value for c in at.code]


def test_new_variant_draws_another_seed_and_updates_the_link():
    at = open_app("exercises", "en", **LINK)
    next(b for b in at.button if b.label == "New variant").click().run()
    assert not at.exception
    seed = at.session_state["ex_seed"]
    assert seed != 7  # a fresh draw from 99,999 seeds
    assert at.query_params["seed"] == str(seed)


def test_check_reading_shows_the_interpretation_without_grading():
    at = open_app("exercises", "en", template="gradient_multiplier", seed=3, difficulty="easy")
    inputs = answer_inputs(at)
    inputs[0].input("0.5^20")
    inputs[1].input("[1,")
    next(b for b in at.button if b.label == "Check how it is read").click().run()
    assert not at.exception
    assert any("{0.5}^{20}" in x.value for x in at.latex)
    assert at.error[0].value == "Cannot read this answer:"
    assert not at.success and not at.expander


def test_a_bad_link_falls_back_with_a_message():
    at = open_app("exercises", "en", template="nope", seed=1)
    assert at.warning and "could not be opened" in at.warning[0].value
    assert at.session_state["ex_template"] in TEMPLATE_NAMES


@pytest.mark.parametrize(
    ("shape", "example"),
    [((), "1.25"), ((2,), "[0.5, -1.2]"), ((3,), "[0.5, -1.2, 3]"),
     ((8,), "[0.5, -1.2, …, -1.2]"), ((2, 2), "[[0.5, -1.2], [3, 0.25]]"),
     ((4, 1), "[[0.5], [-1.2], …, [0.25]]"), ((5, 2), "[[0.5, -1.2], [3, 0.25], …, [3, 0.25]]")],
)
def test_shape_example(shape, example):
    assert ex.shape_example(shape) == example


@pytest.mark.parametrize("shape", [(), (2,), (3,), (2, 2), (3, 3), (2, 4)])
def test_shape_examples_are_read_with_their_shape(shape):
    import grader

    text = ex.shape_example(shape)
    zeros = 0.0
    for size in reversed(shape):
        zeros = [zeros] * size
    result = grader.check({"kind": "numeric", "answer": text, "expected": zeros, "rtol": 1e-3})
    assert not result.error, result  # readable, and the same shape as the key
    assert "shape" not in (result.feedback or "").lower()


@given(template=st.sampled_from(TEMPLATE_NAMES),
       seed=st.integers(ex.SEED_RANGE[0], ex.SEED_RANGE[1]),
       difficulty=st.sampled_from(ex.DIFFICULTIES))
def test_share_params_round_trip(template, seed, difficulty):
    exercise = ex.Exercise(template, seed, difficulty, (), {}, {}, {})
    assert ex.parse_share_params(exercise.share_params(), TEMPLATE_NAMES) == (template, seed, difficulty)


@given(st.dictionaries(st.sampled_from(["template", "seed", "difficulty", "lang"]), st.text(max_size=30)))
def test_any_query_string_gives_a_valid_problem_or_none(params):
    parsed = ex.parse_share_params(params, TEMPLATE_NAMES)
    if parsed is not None:
        template, seed, difficulty = parsed
        assert template in TEMPLATE_NAMES and difficulty in ex.DIFFICULTIES
        assert ex.SEED_RANGE[0] <= seed <= ex.SEED_RANGE[1]
