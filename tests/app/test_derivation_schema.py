"""Issue 24 items 4 and 5 on the Derivation checker's flow: the declaration schema's fields (in
the request and in a share link; old links open what they opened), and a pasted block checked
line by line with its remarks shown in place."""

import pytest

import grader
from grader import StepStatus
from tests.app.derivation_rows import REMARK, START, row_kinds
from tutor.sessions.derivation_check import (
    Declarations,
    DerivationFields,
    NameProblem,
    check_derivation,
    declarations_from_text,
    fields_from_saved,
)


def check(text, decl, **kwargs):
    return check_derivation(text.splitlines(), decl, lang=kwargs.pop("lang", "en"),
                            check=grader.check, preview=grader.preview,
                            split=grader.split_derivation, **kwargs)


def test_every_field_of_the_schema_is_read_from_its_box():
    decl, problems = declarations_from_text(
        "x", "F", "W", integers="n, L", families="x, F, W", positive="n",
        nonnegative="L", relations="x_{l+1} = x_l + F_l(x_l);\n  y = [2x; 3]  ")
    assert problems == []
    assert decl == Declarations(symbols=("x",), functions=("F",), matrices=("W",),
                                integers=("n", "L"), families=("x", "F", "W"), positive=("n",),
                                nonnegative=("L",),
                                relations=("x_{l+1} = x_l + F_l(x_l)", "y = [2x; 3]"))
    assert decl.request_fields()["relations"] == ["x_{l+1} = x_l + F_l(x_l)", "y = [2x; 3]"]


def test_an_integer_declared_as_a_symbol_too_keeps_its_first_declaration():
    decl, problems = declarations_from_text("n", "", "", integers="n, 1k")
    assert decl.integers == ()
    assert problems == [NameProblem("integers", "1k"), NameProblem("integers", "n", "symbols")]


def test_a_request_without_the_new_fields_is_the_one_it_was():
    assert Declarations(symbols=("x",)).request_fields() == {
        "symbols": ["x"], "functions": [], "matrices": []}


def test_an_old_share_link_opens_the_same_derivation():
    old = {"symbols": "x", "functions": "F", "lines": "diff(x + F(x), x)\n1 + F'(x)",
           "target": "1 + F'(x)"}
    draft = DerivationFields.from_params(old)
    assert draft == DerivationFields(symbols="x", functions="F", lines=old["lines"],
                                    target="1 + F'(x)")
    assert draft.params() == old
    assert draft.declarations()[0] == Declarations(symbols=("x",), functions=("F",))


def test_the_new_fields_travel_in_the_link_and_in_a_saved_derivation():
    draft = DerivationFields(symbols="x", integers="n", families="x", positive="n",
                            relations="x_{l+1} = x_l + 1", lines="x_0")
    assert DerivationFields.from_params(draft.params()) == draft
    assert fields_from_saved(draft.params()) == draft
    assert fields_from_saved({"relations": "y" * 1001}) is None  # beyond its box's limit


BLOCK = ("因为 y = x + F(x)\n"
         "\\begin{aligned}\n"
         "\\frac{\\partial y}{\\partial x} &= \\frac{\\partial x}{\\partial x}"
         " + \\frac{\\partial F(x)}{\\partial x} && \\text{linearity} \\\\\n"
         "&= 1 + F'(x)\n"
         "\\end{aligned}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_pasted_block_is_checked_line_by_line_with_its_remarks_in_place(lang):
    decl = Declarations(symbols=("x",), functions=("F",))
    report = check(BLOCK, decl, target="1 + F'(x)", lang=lang)
    assert list(zip(row_kinds(report), [r.number for r in report.lines], strict=True)) == [
        (REMARK, 0), (START, 1), (REMARK, 1), (StepStatus.VERIFIED, 2)]
    assert report.lines[0].text == "因为 y = x + F(x)"
    assert report.lines[2].text == "linearity"
    assert report.all_verified and report.target_reached


def test_a_broken_line_of_a_pasted_block_is_the_first_broken_not_a_remark():
    decl = Declarations(symbols=("x",), functions=("F",))
    report = check("$$\\frac{\\partial}{\\partial x}(x + F(x)) = F'(x)$$\nwhere F is smooth",
                   decl)
    assert row_kinds(report) == [START, StepStatus.DOES_NOT_FOLLOW, REMARK]
    assert report.first_broken.number == 2 and not report.all_verified


def test_remarks_alone_are_not_a_verified_derivation():
    report = check("where x is real\n其中 F 光滑", Declarations(symbols=("x",)))
    assert not report.all_verified
    assert row_kinds(report) == [REMARK, REMARK]


# ---- the page -----------------------------------------------------------------------------
from tests.app.learner_fixtures import button, database_url, open_page, texts  # noqa: E402, F401


@pytest.mark.parametrize(("lang", "check_label", "remark"), [
    ("en", "Check each line", "By the rules of differentiation, its Jacobian is:"),
    ("zh", "逐行检查", "根据求导法则，其雅可比矩阵为：")])
def test_a_text_preset_pastes_its_block_and_declarations_and_checks_as_written(
        open_page, lang, check_label, remark):  # noqa: F811
    at = open_page("derivation", lang=lang)
    at.selectbox(key="derivation.preset").set_value("text-002-residual-block-leibniz").run()
    assert at.text_input(key="derivation.families").value == "x, W"
    assert at.text_input(key="derivation.integers").value == "l"
    assert at.text_input(key="derivation.functions").value == "F"
    assert at.text_input(key="derivation.relations").value == "x_{l+1} = F(x_l, W_l) + x_l"
    assert at.text_area(key="derivation.lines").value.startswith(remark)
    at = button(at, check_label).click().run()
    assert at.success[0].value.startswith("All 3 lines" if lang == "en" else "全部 3 行")
    assert remark.rstrip(":：") in texts(at.text)  # the prose, shown as a remark
    assert at.query_params["preset"] == "text-002-residual-block-leibniz"


def test_the_new_fields_are_kept_in_the_link_and_a_link_opens_them(open_page):  # noqa: F811
    params = {"symbols": "x", "integers": "n", "families": "x", "positive": "n",
              "relations": "x_{l+1} = x_l + 1", "lines": "x + x\n2x"}
    at = open_page("derivation", **params)
    for name in ("integers", "families", "positive"):
        assert at.text_input(key=f"derivation.{name}").value == params[name]
    assert at.text_input(key="derivation.relations").value == params["relations"]
    assert at.success[0].value.startswith("All 2 lines verified")
    assert {k: at.query_params[k] for k in params} == params


def test_a_pasted_block_shows_its_remarks_between_the_checked_lines(open_page):  # noqa: F811
    at = open_page("derivation")
    at.text_input(key="derivation.symbols").input("x")
    at.text_area(key="derivation.lines").input(
        "\\begin{aligned} (x+1)^2 &= x^2 + 2x + 1 && \\text{expand} \\\\ &= 1 + 2x + x^2"
        "\\end{aligned}\nwhere x is real")
    at = button(at, "Check each line").click().run()
    assert at.success[0].value.startswith("All 3 lines verified")
    assert {"expand", "where x is real"} <= set(texts(at.text))


def test_a_target_is_read_with_the_new_fields_declared(open_page):  # noqa: F811
    """The target's preview took only symbols, functions and matrices: a target beside an
    integer declaration raised a TypeError on the page."""
    at = open_page("derivation", symbols="x", integers="n", target="2x", lines="x + x\n2x")
    assert not at.exception
    assert at.success[1].value == "The last line equals the target."


def test_the_page_the_bank_and_the_json_lines_request_share_one_schema():
    """Issue 29 item 7: one declaration schema, the same field names on the page, in the bank's
    YAML, in the grader's request and in the grader's own declarations."""
    from dataclasses import fields

    from grader.kinds import request
    from grader.reading.names import Declarations as GraderDeclarations
    from quizbank.question_types import DECLARATION_FIELDS

    page = tuple(f.name for f in fields(Declarations))
    read = (*request.DECLARED_FIELDS, *request.INDEX_FIELDS, request.RELATIONS_FIELD,
            request.VECTORS_FIELD, *request.RANDOM_FIELDS)
    assert page == DECLARATION_FIELDS
    assert set(page) == set(read) == {f.name for f in fields(GraderDeclarations)}


NOTE = "Equal where both are defined"


@pytest.mark.parametrize(("lines", "boxes", "status", "note"), [
    # √x·√x = x where both are defined (x >= 0): with x declared positive there is nothing to
    # note; undeclared, x = -1 is real on one line only and the line's note says so, either way
    # round (the one real-domain rule)
    ("\\sqrt{x}\\sqrt{x}\nx", {"positive": "x"}, StepStatus.VERIFIED, False),
    ("x\n\\sqrt{x}\\sqrt{x}", {"positive": "x"}, StepStatus.VERIFIED, False),
    ("\\sqrt{x}\\sqrt{x}\nx", {}, StepStatus.VERIFIED, True),
    ("x\n\\sqrt{x}\\sqrt{x}", {}, StepStatus.VERIFIED, True),
    ("\\sqrt{x^2}\nx", {"positive": "x"}, StepStatus.VERIFIED, False),
    ("\\sqrt{x^2}\nx", {}, StepStatus.DOES_NOT_FOLLOW, False),  # x = -1: 1 and -1
    ("\\operatorname{sign}(x)\n1", {"positive": "x"}, StepStatus.VERIFIED, False),
    ("\\operatorname{sign}(x)\n1", {"nonnegative": "x"}, StepStatus.DOES_NOT_FOLLOW, False),
])
def test_the_domain_boxes_reach_the_grader(lines, boxes, status, note):
    decl, problems = declarations_from_text("x", "", "", **boxes)
    assert problems == []
    report = check(lines, decl)
    assert report.lines[-1].status == status, report.lines[-1].feedback
    assert (NOTE in report.lines[-1].feedback) is note
