"""Exercises: every template as a generated question (tutor.sessions.exercises), graded through\nthe bank's grading, and the page in AppTest."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import compute
from quizbank import load_bank
from quizbank.grading import grade
from quizbank.variants import build_variant
from tests.app.shell_helpers import open_app, profile_state
from tutor.sessions import exercises as ex
from tutor.sessions.question_session import SEED_RANGE

TEMPLATE_NAMES = [t["name"] for t in compute.list_templates()]


# --- every template as a generated question ------------------------------------------------

BANK = load_bank()
QUESTIONS = ex.exercise_questions(BANK.questions.values(), compute.list_templates())


def test_every_template_has_a_question_the_banks_where_it_has_one():
    assert list(QUESTIONS) == TEMPLATE_NAMES
    for template, question in QUESTIONS.items():
        assert question.template == template and question.type == "generated"
        bank_ones = [q for q in BANK.by_type("generated") if q.template == template]
        if bank_ones:
            assert question.id in {q.id for q in bank_ones}
            assert len(question.asks) == max(len(q.asks) for q in bank_ones)
        else:
            spec = next(t for t in compute.list_templates() if t["name"] == template)
            assert question.id == f"exercise:{template}" and question.asks == spec["answers"]
            assert question.prompt.get("zh") == spec["description"]["zh"]


@pytest.mark.parametrize("difficulty", ex.DIFFICULTIES)
@pytest.mark.parametrize("template", TEMPLATE_NAMES)
def test_key_answers_grade_correct_for_every_template(template, difficulty):
    question = QUESTIONS[template]
    variant = build_variant(template, seed=11, difficulty=difficulty)
    typed = {ask: ex.format_value(variant.answers[ask]) for ask in question.asks}
    if question.tolerance.kind.value == "sigfigs":  # as many figures as asked, no fewer
        typed = {ask: _sigfigs(variant.answers[ask], question.tolerance.value) for ask in question.asks}
    result = grade(question, typed, lang="en", variant=variant)
    assert [p.name for p in result.parts if not p.result.correct] == [], result.feedback
    assert result.correct and result.score == 1.0


def _sigfigs(value, figures):
    if isinstance(value, list):
        return "[" + ", ".join(_sigfigs(v, figures) for v in value) + "]"
    return f"{value:.{figures - 1}e}"


def test_linear_block_matches_the_source_texts_closed_form():
    # Independent of compute's own checks: y = (I + W)x, L = 1/2|y - t|^2, grad_x = (I + W)^T (y - t).
    variant = build_variant("linear_residual_block", seed=5, difficulty="medium")
    x, W, t = (variant.params[k] for k in ("x", "W", "t"))
    n = len(x)
    y = [x[i] + sum(W[i][j] * x[j] for j in range(n)) for i in range(n)]
    g = [y[i] - t[i] for i in range(n)]
    grad_x = [g[j] + sum(W[i][j] * g[i] for i in range(n)) for j in range(n)]
    assert variant.answers["y"] == pytest.approx(y)
    assert variant.answers["loss"] == pytest.approx(0.5 * sum(v * v for v in g))
    assert variant.answers["grad_x"] == pytest.approx(grad_x)


@pytest.mark.parametrize(
    ("rel_error", "correct"), [(0.0, True), (5e-4, True), (2e-3, False), (-2e-3, False)]
)
def test_a_synthesized_exercise_grades_within_a_relative_1e_3(rel_error, correct):
    spec = next(t for t in compute.list_templates() if t["name"] == "chain_product")
    question = ex.synthesized_question(spec)
    assert question.id == "exercise:chain_product" and question.allowed_tries == 3
    variant = build_variant("chain_product", seed=9)
    typed = {ask: repr(variant.answers[ask] * (1 + rel_error)) for ask in question.asks}
    assert grade(question, typed, variant=variant).correct is correct


def test_a_transposed_matrix_answer_is_named_in_an_exercise():
    question = QUESTIONS["prenorm_postnorm_jacobian"]
    variant = build_variant("prenorm_postnorm_jacobian", seed=3, difficulty="hard")
    typed = {ask: _sigfigs(variant.answers[ask], 6) for ask in question.asks}
    transposed = [list(col) for col in zip(*variant.answers["J_pre"], strict=True)]
    typed["J_pre"] = _sigfigs(transposed, 6)
    result = grade(question, typed, variant=variant)
    assert "looks like the transpose" in result.part("J_pre").feedback


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
    ("tolerance", "shown"),
    [({"kind": "relative", "value": 1e-3}, "0.1%"), ({"kind": "absolute", "value": 0.01}, "0.01"),
     ({"kind": "sigfigs", "value": 3}, "3"), ({"kind": "relative", "value": 1e-9}, ""),
     ({"kind": "relative", "value": 1e-6}, "0.0001%")],
)
def test_tolerance_as_shown(tolerance, shown):
    from quizbank.numbers import Tolerance

    kind, value = ex.tolerance_value(Tolerance.model_validate(tolerance))
    assert value == shown and (kind == "exact") == (shown == "")  # 1e-9 was shown as "1e-07%"


# --- the page ---------------------------------------------------------------------------------

LINK = {"template": "linear_residual_block", "seed": 7, "difficulty": "easy"}


@pytest.fixture(autouse=True)
def own_database(tmp_path, monkeypatch):
    """Each page test on a database of its own (a draft of one test must not open in the next)."""
    monkeypatch.setenv("TUTOR_DATABASE_URL", f"sqlite:///{tmp_path / 'progress.db'}")
LINKED = QUESTIONS["linear_residual_block"]  # the bank's question for that template


def answer_inputs(at):
    return [w for w in at.text_input if w.key and ".gen." in w.key]


def submit(at):
    next(b for b in at.button if b.label in ("Submit answer", "提交答案")).click().run()
    assert not at.exception, at.exception


def attempts():
    from tutor.store import ProgressStore

    db = ProgressStore.open()
    try:
        return {p.id: db.list_attempts(p.id) for p in db.list_profiles()}
    finally:
        db.close()


def test_a_link_opens_that_problem():
    at = open_app("exercises", "en", **LINK)
    session = profile_state(at, "exercises.run").current
    assert (session.question_id, session.seed, session.variant.difficulty) == (LINKED.id, 7, "easy")
    assert any("Variant seed 7" in c.value for c in at.caption)
    assert at.query_params["seed"] == "7" and at.query_params["template"] == LINK["template"]
    assert len(answer_inputs(at)) == len(LINKED.asks)


def test_right_answers_show_correct_the_worked_solution_and_are_recorded():
    before = sum(len(a) for a in attempts().values())
    at = open_app("exercises", "en", **LINK)
    variant = profile_state(at, "exercises.run").current.variant
    assert not at.expander  # the worked solution waits for the reveal
    for widget in answer_inputs(at):
        widget.input(ex.format_value(variant.answers[widget.key.rsplit(".", 1)[1]]))
    submit(at)
    assert at.success[0].value == "Correct"
    assert at.expander and any("(I + W)^T" in m.value for m in at.expander[0].markdown)
    recorded = [a for history in attempts().values() for a in history]
    assert len(recorded) == before + 1
    assert (recorded[-1].question_id, recorded[-1].seed, recorded[-1].phase) == (LINKED.id, 7, "first")


def test_wrong_answers_are_marked_and_learner_text_never_reaches_markdown():
    at = open_app("exercises", "zh", **LINK)
    for widget in answer_inputs(at):
        widget.input("1*2*3")  # would be italic if rendered as Markdown
    submit(at)
    assert at.error[0].value == "还不对"
    assert not any("1*2*3" in m.value for m in at.markdown)
    assert any("还有 2 次机会" in i.value for i in at.info)  # three tries: two left


def test_an_unreadable_box_uses_no_try_and_is_not_recorded():
    before = sum(len(a) for a in attempts().values())
    at = open_app("exercises", "en", **LINK)
    for widget in answer_inputs(at):
        widget.input("**[1, 2]**")
    submit(at)
    assert at.warning[0].value == "Your answer could not be read"
    assert any("Try 1 of 3" in c.value for c in at.caption)
    assert sum(len(a) for a in attempts().values()) == before


def test_new_variant_draws_another_seed_and_updates_the_link():
    at = open_app("exercises", "en", **LINK)
    next(b for b in at.button if b.label == "New variant").click().run()
    assert not at.exception
    seed = profile_state(at, "exercises.run").current.seed
    assert seed != 7  # a fresh draw from 99,999 seeds
    assert at.query_params["seed"] == str(seed)


def test_a_template_without_a_bank_question_is_practised_as_a_synthesized_one():
    """Every template of the shipped bank has a question now (issue 30 added the last one);
    a bank without them (an instructor's own folder) still gets every template, synthesized."""
    specs = compute.list_templates()
    questions = ex.exercise_questions([], specs)
    assert set(questions) == {spec["name"] for spec in specs}
    deep = questions["deep_mlp_gradients"]
    assert deep.id == "exercise:deep_mlp_gradients" and len(deep.asks) == 2


def test_every_template_of_the_shipped_bank_is_practised_by_its_own_question():
    at = open_app("exercises", "en", template="deep_mlp_gradients", seed=3, difficulty="easy")
    session = profile_state(at, "exercises.run").current
    assert session.question_id == "gen-deep-mlp-gradient-norms"
    assert not any(q.id.startswith(ex.QUESTION_ID_PREFIX) for q in QUESTIONS.values())


def test_the_reading_of_each_box_is_shown_before_submitting():
    at = open_app("exercises", "en", template="gradient_multiplier", seed=3, difficulty="easy")
    inputs = answer_inputs(at)
    inputs[0].input("0.5^20")
    inputs[1].input("[1,").run()
    assert not at.exception
    assert any("{0.5}^{20}" in x.value for x in at.latex)
    assert "Cannot read this yet:" in [c.value for c in at.caption]
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
       seed=st.integers(SEED_RANGE[0], SEED_RANGE[1]),
       difficulty=st.sampled_from(ex.DIFFICULTIES))
def test_share_params_round_trip(template, seed, difficulty):
    from quizbank.variants import Variant

    variant = Variant(template, seed, difficulty, {}, {}, {}, {})
    assert ex.parse_share_params(variant.share_params(), TEMPLATE_NAMES) == (template, seed, difficulty)


@given(st.dictionaries(st.sampled_from(["template", "seed", "difficulty", "lang"]), st.text(max_size=30)))
def test_any_query_string_gives_a_valid_problem_or_none(params):
    parsed = ex.parse_share_params(params, TEMPLATE_NAMES)
    if parsed is not None:
        template, seed, difficulty = parsed
        assert template in TEMPLATE_NAMES and difficulty in ex.DIFFICULTIES
        assert SEED_RANGE[0] <= seed <= SEED_RANGE[1]


def test_the_exercise_questions_follow_the_bank_when_it_changes(monkeypatch):
    """Regression: the template -> question map was cached once per server, so a bank read
    earlier (another test's small bank; on a server, the bank before an instructor added a
    generated question for a template) kept Exercises on the stand-in `exercise:<template>`."""
    from app_pages.widgets import resources
    from tests.app.learner_bank import fixture_bank

    small = fixture_bank()  # no generated question for any template
    monkeypatch.setattr(resources, "bank", lambda: small)
    before = resources.exercise_questions()["linear_residual_block"].id
    monkeypatch.setattr(resources, "bank", lambda: BANK)
    assert before == "exercise:linear_residual_block"
    assert resources.exercise_questions()["linear_residual_block"].id == LINKED.id
