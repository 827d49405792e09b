"""preview: the "interpreted as" LaTeX, built from the tree, for every keystroke."""

import pytest

from grader import preview
from grader.reading.latex import to_latex
from grader.reading.parser import parse


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        ("1+F'(x)", r"1 + F'\left(x\right)"),
        ("(I+W)^T g", r"{\left(I + W\right)}^{\top} g"),
        ("9.54e-7", r"9.54 \times 10^{-7}"),
        ("9.54×10^-7", r"9.54 \cdot {10}^{-7}"),
        ("x_{l+1}", "x_{l+1}"),
        ("2α", r"2 \alpha"),
        ("sqrt(x)/2", r"\frac{\sqrt{x}}{2}"),
        ("|x|", r"\left|x\right|"),
        ("[1 2; 3 4]", r"\begin{bmatrix}1 & 2 \\ 3 & 4\end{bmatrix}"),
        ("d/dx (x^2)", r"\frac{d}{dx}\left({x}^{2}\right)"),
        ("a - (b - c)", r"a - \left(b - c\right)"),
        ("-(x+1)", r"-\left(x + 1\right)"),
        ("sigmoid(x)", r"\sigma\left(x\right)"),
    ],
)
def test_interpreted_latex(text, latex):
    p = preview(text, functions=["F"], matrices=["W", "g"],
                symbols=["x", "x_{l+1}", "alpha", "a", "b", "c"])
    assert p == {"interpreted": latex, "error": None, "note": None}


def test_preview_error_has_position_and_caret():
    p = preview("2*(x+", lang="zh")
    assert p["interpreted"] is None and "第 6 个字符" in p["error"]
    assert p["caret"].endswith("^")


@pytest.mark.parametrize("text", ["(x+1)^2 - 3x", "(I+W)^T g", "F''(x) + 2x", "[1, 2+x]",
                                  "a/b/c", "-x^2", "2^-3", "e^(x+1)"])
def test_rendered_latex_keeps_the_tree(text):
    # A LaTeX rendering that reads back to the same tree did not lose brackets or order.
    node = parse(text, _decls())[0]
    assert parse(to_latex(node), _decls())[0] == node


def _decls():
    from grader.reading.names import Declarations

    return Declarations.of(symbols=["x", "a", "b", "c"], functions=["F"], matrices=["W", "g"])


@pytest.mark.parametrize("text", ["1/2x", "1/2 x", "a/b W x", "a/b(c+1)", "1/2(x+1)"])
def test_a_product_right_after_a_division_is_pointed_out(text):
    p = preview(text, symbols=["x", "a", "b", "c"], matrices=["W"])
    assert "(1/2)·x" in p["note"]
    assert "(1/2)" in preview(text, lang="zh", symbols=["x", "a", "b", "c"], matrices=["W"])["note"]


@pytest.mark.parametrize("text", ["1/(2x)", "x/2", "x/2 + y", "2x/3", "1/2 * x", r"\frac{1}{2}x",
                                  "0.5", "[1/2, 3]", "a/b/c"])
def test_no_note_when_nothing_is_easy_to_misread(text):
    assert preview(text)["note"] is None
