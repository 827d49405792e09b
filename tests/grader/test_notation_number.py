"""Issue 10 item 3, class notation-number: `x` as a times sign in scientific notation
(9.54x10^-7), and a decimal comma where one number is wanted: asked about, never guessed."""

import pytest

from grader import preview
from grader.reading.names import Declarations
from grader.reading.parser import parse, parse_with_notes

NONE = Declarations()


@pytest.mark.parametrize("text", ["9.54x10^-7", "9.54 x 10^-7", "9.54X10^-7", "9.54 x 10^(-7)",
                                  "9.54x10^{-7}"])
def test_x_between_a_number_and_a_power_of_ten_is_a_times_sign(text):
    node, _, notes = parse_with_notes(text, NONE)
    assert node == parse("9.54*10^-7", NONE)[0]
    assert "note_x_as_times" in notes


@pytest.mark.parametrize("text", ["2x10", "2 x 3", "x10^2"])
def test_x_elsewhere_is_a_name(text):
    node, _, notes = parse_with_notes(text, NONE)
    assert "note_x_as_times" not in notes


def test_a_declared_x_is_never_a_times_sign():
    decls = Declarations.of(symbols=["x"])
    node, _, notes = parse_with_notes("3x10^2", decls)
    assert "note_x_as_times" not in notes and "x" in repr(node)


@pytest.mark.parametrize(
    ("expected", "answer", "verdict"),
    [
        (9.54e-7, "9.54x10^-7", "correct"), (9.54e-7, "9.54 x 10^-7", "correct"),
        (9.54e-7, "9.54x10^-6", "wrong"), (2000.0, "2x10^3", "correct"),
        (9.54e-7, "9,54e-7", "unreadable"), (9.54, "9,54", "unreadable"),
        (1.5, "1,5", "unreadable"), (3.14, "３，１４", "unreadable"), (1500, "1,500", "unreadable"),
        ([1.0, 5.0], "1,5", "correct"),  # a vector is wanted: the comma separates its entries
        ([1.0, 5.0], "1, 5", "correct"), (1.5, "1, 5", "wrong"), (1.5, "1,5,7", "wrong"),
        (0.125, "12.5%", "correct"),
    ],
)
def test_verdicts(grade, expected, answer, verdict):
    r = grade(kind="numeric", expected=expected, answer=answer, rtol=1e-3)
    assert r.verdict == verdict, r.feedback


@pytest.mark.parametrize(
    ("answer", "en", "zh"),
    [
        ("9,54e-7", "did you mean 9.54e-7? Write a decimal point", "你是想写 9.54e-7 吗"),
        ("-1,5", "did you mean -1.5?", "-1.5"),
        ("1,500", "did you mean 1.500 or 1500?", "1.500 还是 1500"),
        ("1,000,000", "did you mean 1000000?", "1000000"),
        ("-12,345,678.5", "did you mean -12345678.5?", "-12345678.5"),
    ],
)
def test_a_decimal_comma_asks_what_was_meant(grade, answer, en, zh):
    r = grade(kind="numeric", expected=1.5, answer=answer)
    assert en in r.error and r.feedback.splitlines()[-1].strip() == "^"
    assert zh in grade(kind="numeric", expected=1.5, answer=answer, lang="zh").error


def test_the_preview_says_a_comma_separates_numbers():
    assert "1.5" in preview("1,5")["note"]
    assert preview("1.5")["note"] is None and preview("[1, 5]")["note"] is None
