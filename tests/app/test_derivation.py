"""The derivation checker's flow (tutor.derivation_check) and page."""

import pytest

from tutor.derivation_check import declarations_from_text, parse_names


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
