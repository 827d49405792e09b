"""Issue 25, item 3 on the Derivation checker: the random variables' boxes (random, independent
groups, zero means) read into the request, kept in a share link, and a preset that fills them."""

import grader
from grader import StepStatus
from tests.app.derivation_rows import START, row_kinds
from tests.app.learner_fixtures import button, database_url, open_page, texts  # noqa: F401
from tutor.sessions.derivation_check import (
    Declarations,
    DerivationFields,
    NameProblem,
    check_derivation,
    declarations_from_text,
)


def check(text, decl, lang="en"):
    return check_derivation(text.splitlines(), decl, lang=lang, check=grader.check,
                            preview=grader.preview, split=grader.split_derivation)


def test_the_random_variable_boxes_are_read_into_the_request():
    decl, problems = declarations_from_text("", "", "", random="w, x, y",
                                            independent="w, x; x, y", zero_mean="w")
    assert problems == []
    assert decl.request_fields() == {
        "symbols": [], "functions": [], "matrices": [], "random": ["w", "x", "y"],
        "independent": [["w", "x"], ["x", "y"]], "zero_mean": ["w"]}


def test_names_in_the_assumptions_that_are_not_random_are_left_out_and_reported():
    decl, problems = declarations_from_text("", "", "", random="w", independent="w, q",
                                            zero_mean="z, 1a")
    assert decl.independent == () and decl.zero_mean == ()
    assert problems == [NameProblem("independent", "q", not_random=True),
                        NameProblem("zero_mean", "1a"),
                        NameProblem("zero_mean", "z", not_random=True)]


def test_the_independent_case_follows_only_with_its_declaration():
    lines = "\\operatorname{Var}(x+f)\n\\operatorname{Var}(x)+\\operatorname{Var}(f)"
    plain = check(lines, Declarations(random=("x", "f")))
    assert row_kinds(plain) == [START, StepStatus.DOES_NOT_FOLLOW]
    assert "independent: [[f, x]]" in plain.lines[1].feedback
    assumed = check(lines, Declarations(random=("x", "f"), independent=(("x", "f"),)))
    assert assumed.all_verified


def test_the_boxes_travel_in_a_link():
    draft = DerivationFields(random="w, x", independent="w, x", zero_mean="w",
                            lines="D(w x)\nD(w) E[x^2]")
    again = DerivationFields.from_params(draft.params())
    assert again == draft
    decl, _ = again.declarations()
    assert decl.independent == (("w", "x"),) and decl.zero_mean == ("w",)


def test_a_moments_preset_fills_the_boxes_and_checks(open_page):  # noqa: F811
    at = open_page("derivation", lang="zh")
    at.selectbox(key="derivation.preset").set_value("paper-he2015-forward-variance").run()
    assert at.text_input(key="derivation.random").value == "w, x"
    assert at.text_input(key="derivation.independent").value == "w, x"
    assert at.text_input(key="derivation.zero_mean").value == "w"
    at = button(at, "逐行检查").click().run()
    assert at.success[0].value.startswith("全部 3 行")
    assert any(t.startswith("权重 w_i 独立同分布") for t in texts(at.text))  # the remark
