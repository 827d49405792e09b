"""The derivation checker's flow (tutor.sessions.derivation_check) and page."""

from urllib.parse import urlencode

import pytest
from hypothesis import given
from hypothesis import strategies as st

import grader
from grader import StepStatus
from tests.app.derivation_rows import START, row_kinds
from tutor.sessions.derivation_check import (
    MAX_LINK_CHARS,
    Declarations,
    DerivationFields,
    NameProblem,
    declarations_from_text,
    parse_names,
)
from tutor.sessions.derivation_check import check_derivation as _check_derivation


def check_derivation(lines, decl, **kwargs):
    return _check_derivation(lines, decl, check=grader.check, preview=grader.preview, **kwargs)


S, V, B, U = START, StepStatus.VERIFIED, StepStatus.DOES_NOT_FOLLOW, StepStatus.UNREADABLE
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


def test_declarations_report_every_problem_at_once_and_keep_the_usable_names():
    decl, problems = declarations_from_text("x, 1a", "F, x", "W")
    # a name declared twice keeps its first declaration, so the lines can still be checked
    assert decl.symbols == ("x",) and decl.functions == ("F",) and decl.matrices == ("W",)
    assert problems == [NameProblem("symbols", "1a"), NameProblem("functions", "x", "symbols")]


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
        # each line is compared with the last line that followed, not with a broken one
        (["x + x", "3x", "2x", "x*2"], X, None, None, [S, B, V, V], None),
    ],
)
def test_check_derivation_line_by_line(lines, decl, start, target, statuses, reached):
    report = check_derivation(lines, decl, lang="en", target=target, start=start)
    assert row_kinds(report) == statuses
    assert report.target_reached is reached
    broken = [r for r in report.lines if r.status is B]
    assert report.first_broken == (broken[0] if broken else None)
    for row in broken:
        assert "For example" in row.feedback  # a counterexample for each step that breaks


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_unreadable_target_is_refused_on_its_own_and_the_lines_are_still_checked(lang):
    # Regression: a typo in the target made the request unreadable, no line was checked, and the
    # page said "All 0 lines verified".
    report = check_derivation(["x + x", "2x", "3x"], X, lang=lang, target="2x +")
    assert report.target_problem is not None and report.target_problem.caret
    assert row_kinds(report) == [S, V, B]
    assert report.target_reached is None and not report.all_verified


def test_a_report_without_lines_is_never_all_verified():
    report = check_derivation(["  "], X, lang="en")
    assert report.lines == () and not report.all_verified


@given(st.builds(DerivationFields, symbols=st.text(max_size=30), functions=st.text(max_size=30),
                 matrices=st.text(max_size=30), target=st.text(max_size=60),
                 lines=st.text(max_size=300), preset=st.text(max_size=30)))
def test_a_draft_survives_its_link(draft):
    params = draft.params()
    assert DerivationFields.from_params(params) == (draft if params else None)
    assert draft.link_length() == len(urlencode(params))


def test_only_the_checkers_parameters_make_a_draft():
    assert DerivationFields.from_params({"lang": "en", "profile": "3"}) is None
    assert DerivationFields.from_params({"lines": "x\n2x", "q": "z"}) == DerivationFields(lines="x\n2x")


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
    # one status badge per line, in either language ("Line 2 · verified", "第 2 行 · 已验证")
    return [m.value for m in at.markdown if m.value.startswith(":material/") and " · " in m.value]


def test_broken_line_is_marked_with_a_counterexample(open_page):  # noqa: F811
    at = open_page("derivation")
    at = fill(at, symbols="x", functions="F", target="1 + F'(x)",
              lines=["diff(x + F(x), x)", "diff(x, x) + diff(F(x), x)", "1 + F(x)", "1 + F'(x)"])
    assert at.error[0].value == "Line 3 is the first line that does not follow; below, its check says which line it was compared with."
    rows = statuses(at)
    assert ["start" in rows[0], "verified" in rows[1], "does not follow" in rows[2]] == [True] * 3
    assert any("For example" in t for t in texts(at.text))  # the counterexample
    assert any(t.startswith("Line 3 does not follow from line 2.") for t in texts(at.text))
    assert len(at.latex) == 4  # every line shown as the grader read it


def test_a_correct_derivation_is_all_verified_and_reaches_the_target(open_page):  # noqa: F811
    at = open_page("derivation", lang="zh")
    at = fill(at, matrices="W, g", target="(I + W)^T g",
              lines=["(I + W)^T g", "(I^T + W^T) g", "g + W^T g"], check="逐行检查")
    assert at.success[0].value == "全部 3 行均已验证：每一步都由上一步推出。"
    assert at.success[1].value == "最后一行等于目标。"


@pytest.mark.parametrize(("lang", "check", "note"), [
    ("en", "Check each line", "Equal where both are defined; at x = -1 line 1 is undefined"),
    ("zh", "逐行检查", "两者在都有定义处相等；取 x = -1 时第 1 行无定义"),
])
def test_a_verified_step_whose_domain_differs_shows_its_note(
        open_page, lang, check, note):  # noqa: F811
    """√x·√x = x where both are real (issue 29, the one real-domain rule): the step is verified
    and the line says where the line before has no real value (before, a verified line showed
    no text; sqrt(-1) has none)."""
    at = fill(open_page("derivation", lang=lang), symbols="x", check=check,
              lines=["\\sqrt{x}\\sqrt{x}", "x"])
    assert at.success, "every line is verified"
    assert any(t.startswith(note) for t in texts(at.text)), texts(at.text)


def test_matrix_order_matters(open_page):  # noqa: F811
    at = open_page("derivation")
    at = fill(at, matrices="A, B", lines=["(A B)^T", "A^T B^T"])
    assert "does not follow" in statuses(at)[1]


def test_unreadable_line_is_shown_as_typed_in_code(open_page):  # noqa: F811
    at = open_page("derivation")
    at = fill(at, symbols="x", lines=["x + 1", "<script>x"])
    assert "cannot read" in statuses(at)[1]
    assert any("<script>x" in c.value for c in at.code)


def test_bad_declarations_are_listed_and_the_lines_still_checked(open_page):  # noqa: F811
    at = open_page("derivation", lang="zh")
    at = fill(at, symbols="x, 2y", functions="x", lines=["x + x", "2x"], check="逐行检查")
    assert at.error[0].value.startswith("有些声明的名称无法使用")
    assert texts(at.text)[0] == ("符号：“2y”不是合法名称（只能用字母、数字和 _，并以字母开头）。\n"
                                 "函数：“x”已在符号中声明过，以第一次声明为准。")
    assert at.success[0].value.startswith("全部 2 行均已验证")


@pytest.mark.parametrize(("lang", "refused"), [("en", "The target cannot be read"), ("zh", "无法读取目标")])
def test_a_target_typo_is_refused_with_its_own_message(open_page, lang, refused):  # noqa: F811
    at = open_page("derivation", lang=lang)
    at = fill(at, symbols="x", functions="F", target="1 + F'(x",
              lines=["diff(x + F(x), x)", "1 + F'(x)"],
              check="Check each line" if lang == "en" else "逐行检查")
    assert any(e.value.startswith(refused) for e in at.error)
    assert any("^" in c.value for c in at.code)  # where the target breaks
    assert len(statuses(at)) == 2  # the lines were checked all the same
    assert not [s for s in at.success if "0" in s.value]  # never "All 0 lines verified"


def test_the_fields_are_kept_in_the_url_and_a_link_opens_them_checked(open_page):  # noqa: F811
    at = open_page("derivation")
    at = fill(at, symbols="x", target="2x", lines=["x + x", "2x"])
    params = {k: at.query_params[k] for k in ("symbols", "target", "lines")}
    assert params == {"symbols": "x", "target": "2x", "lines": "x + x\n2x"}
    assert "functions" not in at.query_params  # empty fields leave no parameter
    reloaded = open_page("derivation", **params)  # a reload, or the link in another browser
    assert reloaded.text_area(key="derivation.lines").value == "x + x\n2x"
    assert reloaded.text_input(key="derivation.target").value == "2x"
    assert reloaded.success[0].value.startswith("All 2 lines verified")


def test_a_derivation_too_long_for_a_link_says_so_and_leaves_the_url(open_page):  # noqa: F811
    at = open_page("derivation")
    long_lines = ["x + x + x + x + x + x + x + x + x + x"] * 60
    at = fill(at, symbols="x", lines=long_lines)
    assert DerivationFields(symbols="x", lines="\n".join(long_lines)).link_length() > MAX_LINK_CHARS
    assert "lines" not in at.query_params and "symbols" not in at.query_params
    assert any("too long to fit in a link" in c.value for c in at.caption)
    assert any("Only the first 40 of your 60 lines" in w.value for w in at.warning)


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
