"""The derivation checker's flow (app_pages.flows.derivation_check) and page."""

import pytest

import grader
from app_pages.flows.derivation_check import (
    Declarations,
    LineStatus,
    check_derivation,
    declarations_from_text,
    parse_names,
)

S, V, B, U = LineStatus.START, LineStatus.VERIFIED, LineStatus.BROKEN, LineStatus.UNREADABLE
X = Declarations(symbols=("x",))
F = Declarations(symbols=("x",), functions=("F",))
AB = Declarations(matrices=("A", "B"))


@pytest.mark.parametrize(
    ("text", "names", "bad"),
    [
        ("", (), []),
        ("x, y", ("x", "y"), []),
        ("x，y；z", ("x", "y", "z"), []),  # full-width separators from Chinese input methods
        ("W  g, W", ("W", "g"), []),
        ("x, 2y, __import__", ("x",), ["2y", "__import__"]),
        ("J_F, sigma", ("J_F", "sigma"), []),
    ],
)
def test_parse_names(text, names, bad):
    assert parse_names(text) == (names, bad)


def test_declarations_report_every_problem_at_once():
    decl, problems = declarations_from_text("x, 1a", "F, x", "W")
    assert decl.symbols == ("x",) and decl.functions == ("F", "x") and decl.matrices == ("W",)
    assert problems == ["symbols: 1a", "x: symbols & functions"]


@pytest.mark.parametrize(
    ("lines", "decl", "start", "target", "statuses", "reached"),
    [
        (["x + x", "2x"], X, None, None, [S, V], None),
        (["x + x", "3x"], X, None, None, [S, B], None),
        (["2x"], X, "x + x", "2*x", [V], True),
        (["2x", "x^2"], X, "x + x", "2*x", [V, B], False),
        (["diff(x + F(x), x)", "1 + F'(x)"], F, None, "1 + F'(x)", [S, V], True),
        (["(A B)^T", "B^T A^T", "A^T B^T"], AB, None, None, [S, V, B], None),
        (["x + x", "2x +"], X, None, None, [S, U], None),
        (["2x +", "x + x", "2x"], X, None, None, [U, S, V], None),  # starts at the first readable
        (["", "x", "  ", "x*1"], X, None, None, [S, V], None),  # blank rows are ignored
    ],
)
def test_check_derivation_line_by_line(lines, decl, start, target, statuses, reached):
    report = check_derivation(lines, decl, lang="en", check=grader.check, target=target, start=start)
    assert [r.status for r in report.lines] == statuses
    assert report.target_reached is reached
    broken = [r for r in report.lines if r.status is B]
    assert report.first_broken == (broken[0] if broken else None)
    for row in broken:
        assert "For example" in row.feedback  # a counterexample for each step that breaks


def test_a_bad_target_is_reported_not_crashed():
    report = check_derivation(["x"], X, lang="zh", check=grader.check, target="x +")
    assert report.lines == () and report.error


# ---- the page -----------------------------------------------------------------------------
from tests.app.learner_fixtures import button, database_url, open_page, texts  # noqa: E402, F401


def fill(at, *, symbols="", functions="", matrices="", target="", lines=(), check="Check each line"):
    at.text_input(key="derivation.symbols").input(symbols)
    at.text_input(key="derivation.functions").input(functions)
    at.text_input(key="derivation.matrices").input(matrices)
    at.text_input(key="derivation.target").input(target)
    at.text_area(key="derivation.lines").input("\n".join(lines))
    return button(at, check).click().run()


def statuses(at) -> list[str]:
    return [m.value for m in at.markdown if "Line " in m.value]


def test_broken_line_is_marked_with_a_counterexample(open_page):  # noqa: F811
    at = open_page("derivation")
    at = fill(at, symbols="x", functions="F", target="1 + F'(x)",
              lines=["diff(x + F(x), x)", "diff(x, x) + diff(F(x), x)", "1 + F(x)", "1 + F'(x)"])
    assert at.error[0].value == "Line 3 does not follow from the line before it."
    rows = statuses(at)
    assert ["start" in rows[0], "verified" in rows[1], "does not follow" in rows[2]] == [True] * 3
    assert any("For example" in t for t in texts(at.text))  # the counterexample
    assert len(at.latex) == 4  # every line shown as the grader read it


def test_a_correct_derivation_is_all_verified_and_reaches_the_target(open_page):  # noqa: F811
    at = open_page("derivation", lang="zh")
    at = fill(at, matrices="W, g", target="(I + W)^T g",
              lines=["(I + W)^T g", "(I^T + W^T) g", "g + W^T g"], check="逐行检查")
    assert at.success[0].value == "全部 3 行均已验证：每一步都由上一步推出。"
    assert at.success[1].value == "最后一行等于目标。"


def test_matrix_order_matters(open_page):  # noqa: F811
    at = open_page("derivation")
    at = fill(at, matrices="A, B", lines=["(A B)^T", "A^T B^T"])
    assert "does not follow" in statuses(at)[1]


def test_unreadable_line_is_shown_as_typed_in_code(open_page):  # noqa: F811
    at = open_page("derivation")
    at = fill(at, symbols="x", lines=["x + 1", "<script>x"])
    assert "cannot read" in statuses(at)[1]
    assert any("<script>x" in c.value for c in at.code)


def test_bad_declarations_are_listed_before_checking(open_page):  # noqa: F811
    at = open_page("derivation")
    at = fill(at, symbols="x, 2y", functions="x", lines=["x"])
    assert at.error[0].value.startswith("Some declared names")
    assert at.code[0].value == "symbols: 2y\nx: symbols & functions"


def test_preset_fills_names_and_first_line(open_page):  # noqa: F811
    from app_pages.widgets.resources import bank

    preset = bank().by_type("derivation")[0]
    at = open_page("derivation")
    at.selectbox(key="derivation.preset").set_value(preset.id).run()
    assert at.text_area(key="derivation.lines").value.strip() == preset.start
    assert at.text_input(key="derivation.target").value == preset.target
    at = button(at, "Check each line").click().run()
    at.text_area(key="derivation.lines").input("\n".join([preset.start, *preset.steps]))
    at = button(at, "Check each line").click().run()
    assert at.success[0].value.startswith("All ")
