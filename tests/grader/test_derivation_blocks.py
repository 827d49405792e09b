"""Issue 24 item 5: a whole pasted derivation is split into lines; remarks are shown, not graded.

The split (grader/reading/blocks.py) is the one the JSON Lines request makes of a one-text
`answer` and the one the Derivation checker page shows (`grader.split_derivation`)."""

import pytest

import grader
from grader.reading.blocks import MAX_BLOCK, BlockLine, lines_to_check, split_derivation
from grader.reading.names import Declarations

D = Declarations.of(symbols=["x"], functions=["F"])


def M(text):  # noqa: N802 - a line of maths, as the tables read
    return BlockLine(text)


def R(text):  # noqa: N802 - a remark
    return BlockLine(text, remark=True)


BLOCKS = [
    ("one line per line", "x + x\n2x\n", [M("x + x"), M("2x")]),
    ("aligned", "\\begin{aligned} y &= x + F(x) \\\\ &= F(x) + x \\end{aligned}",
     [M("y = x + F(x)"), M("F(x) + x")]),
    ("align* with a label on the left", "\\begin{align*}\n\\frac{\\partial y}{\\partial x} &= "
     "\\frac{\\partial x}{\\partial x} + \\frac{\\partial F(x)}{\\partial x} \\\\\n"
     "&= 1 + F'(x)\n\\end{align*}",
     [M("\\frac{\\partial y}{\\partial x} = \\frac{\\partial x}{\\partial x} + "
        "\\frac{\\partial F(x)}{\\partial x}"), M("1 + F'(x)")]),
    ("equation with a chain", "\\begin{equation} (x+1)^2 = x^2 + 2x + 1 \\end{equation}",
     [M("(x+1)^2"), M("x^2 + 2x + 1")]),
    ("display dollars", "$$(x+1)^2 = x^2+2x+1 = 1+2x+x^2$$",
     [M("(x+1)^2"), M("x^2+2x+1"), M("1+2x+x^2")]),
    ("\\[ \\]", "\\[ 2x = x + x \\]", [M("2x"), M("x + x")]),
    ("a justification in \\text", "(x+1)^2 &= x^2 + 2x + 1 && \\text{expand}",
     [M("(x+1)^2"), M("x^2 + 2x + 1"), R("expand")]),
    ("an \\intertext between rows", "\\begin{aligned} a &= x + x \\\\ \\intertext{so} "
     "&= 2x \\end{aligned}", [M("a = x + x"), R("so"), M("2x")]),
    ("Chinese remarks", "x^2 - 1\n因为 x^2 - 1 是平方差\n所以 = (x-1)(x+1)\n其中 x 是实数",
     [M("x^2 - 1"), R("因为 x^2 - 1 是平方差"), R("所以"), M("(x-1)(x+1)"), R("其中 x 是实数")]),
    ("English remarks", "x^2 - 1\nwhere x is real\nby the chain rule\nso = (x-1)(x+1)",
     [M("x^2 - 1"), R("where x is real"), R("by the chain rule"), R("so"), M("(x-1)(x+1)")]),
    ("prose around inline maths", "根据 $x + x = 2x$，我们得到 $2x = x \\cdot 2$",
     [R("根据"), M("x + x"), M("2x"), R("我们得到"), M("2x"), M("x \\cdot 2")]),
    ("a name in a sentence is a mention, not a line",
     "考虑损失 $\\mathcal{L}$ 对 $x_l$ 的梯度：$x + x = 2x$",
     [R("考虑损失"), R("\\mathcal{L}"), R("对"), R("x_l"), R("的梯度"), M("x + x"), M("2x")]),
    ("a name alone is maths", "$x$", [M("x")]),
    ("an approximation keeps its sign", "0.5^{20}\\approx9.54\\times10^{-7}",
     [M("0.5^{20}"), M("≈ 9.54\\times10^{-7}")]),
    ("dots are skipped", "x_L = a + b = \\dots = b + a", [M("x_L = a + b"), M("b + a")]),
    ("\\boxed keeps what it boxes", "\\boxed{x + x} = 2x", [M("x + x"), M("2x")]),
    ("a boxed chain is still a chain", "$$\\boxed{ x + x = 2x }$$", [M("x + x"), M("2x")]),
    ("a matrix's rows are not lines",
     "y = \\begin{bmatrix}1 & 2\\\\ 3 & 4\\end{bmatrix} = \\begin{bmatrix}1 & 2\\\\ 3 & 4\\end{bmatrix}",
     [M("y = \\begin{bmatrix}1 & 2\\\\ 3 & 4\\end{bmatrix}"),
      M("\\begin{bmatrix}1 & 2\\\\ 3 & 4\\end{bmatrix}")]),
    ("\\notag, \\label and \\tag go", "x + x = 2x \\notag \\label{eq:1} \\tag{3}",
     [M("x + x"), M("2x")]),
    ("a formula of known names is maths", "sigmoid(x) tanh(x)", [M("sigmoid(x) tanh(x)")]),
    ("unknown names in a formula stay maths (to be refused)", "sinc(x) + rate foo",
     [M("sinc(x) + rate foo")]),
]


@pytest.mark.parametrize(("name", "text", "expected"), BLOCKS, ids=[b[0] for b in BLOCKS])
def test_a_pasted_block_splits_into_lines_and_remarks(name, text, expected):
    assert list(split_derivation(text, D)) == expected


# Once x is a family its members are values, not labels; so is a Leibniz fraction the grader
# differentiates (a member through the relation, a declared symbol); the gradient of an
# undeclared loss stays a label.
LAYERS = Declarations.of(symbols=["W"], functions=["F"], integers=["l", "L"],
                         families=["x", "F"], relations=["x_{l+1} = x_l + F_l(x_l)"])
FAMILY_BLOCKS = [
    ("a member first is a line", "x_3 = x_2 + F_2(x_2) = x_1 + F_1(x_1) + F_2(x_2)",
     [M("x_3"), M("x_2 + F_2(x_2)"), M("x_1 + F_1(x_1) + F_2(x_2)")]),
    ("a member by a member is a line",
     "\\frac{\\partial x_{l+1}}{\\partial x_l} = 1 + F_l'(x_l)",
     [M("\\frac{\\partial x_{l+1}}{\\partial x_l}"), M("1 + F_l'(x_l)")]),
    ("a symbol by itself is a line", "\\frac{\\partial W}{\\partial W} = 1",
     [M("\\frac{\\partial W}{\\partial W}"), M("1")]),
    ("a symbol by another names the subject: a label",
     "\\frac{\\partial W}{\\partial x_l} = 1 + F_l'(x_l)",
     [M("\\frac{\\partial W}{\\partial x_l} = 1 + F_l'(x_l)")]),
    ("the loss's gradient stays a label",
     "\\frac{\\partial L}{\\partial x_l} = g (1 + F_l'(x_l)) = g + g F_l'(x_l)",
     [M("\\frac{\\partial L}{\\partial x_l} = g (1 + F_l'(x_l))"), M("g + g F_l'(x_l)")]),
]


def test_a_member_of_a_family_without_a_relation_first_names_what_it_defines():
    free = Declarations.of(functions=["F"], integers=["l"], families=["x", "F"])
    assert list(split_derivation("x_3 = x_2 + F_2(x_2)", free)) == [M("x_3 = x_2 + F_2(x_2)")]


@pytest.mark.parametrize(("name", "text", "expected"), FAMILY_BLOCKS,
                         ids=[b[0] for b in FAMILY_BLOCKS])
def test_members_and_their_derivatives_are_lines_not_labels(name, text, expected):
    assert list(split_derivation(text, LAYERS)) == expected


def test_the_request_grades_a_one_text_answer_by_the_same_split():
    block = ("\\begin{aligned}\\frac{\\partial y}{\\partial x} &= \\frac{\\partial x}{\\partial x}"
             "+\\frac{\\partial F(x)}{\\partial x} && \\text{linearity} \\\\ &= 1 + F'(x)"
             "\\end{aligned}")
    assert lines_to_check(block, D) == [
        "\\frac{\\partial y}{\\partial x} = \\frac{\\partial x}{\\partial x}+"
        "\\frac{\\partial F(x)}{\\partial x}", "1 + F'(x)"]
    result = grader.check({"kind": "derivation", "symbols": ["x"], "functions": ["F"],
                           "start": "diff(x + F(x), x)", "expected": "1 + F'(x)",
                           "answer": block})
    assert [s.status.value for s in result.steps] == ["verified", "verified"]
    assert result.correct


@pytest.mark.parametrize(("lang", "words"), [("en", "Line 2 does not follow"), ("zh", "第 2 行")])
def test_a_broken_line_of_a_pasted_chain_is_named_by_its_number(lang, words):
    result = grader.check({"kind": "derivation", "lang": lang, "symbols": ["x"],
                           "answer": "因为 x 是实数\n$$(x+1)^2 = x^2 + x + 1 = x^2 + 2x + 1$$"})
    # line 3 is compared with line 1, the last line that followed
    assert [s.status.value for s in result.steps] == ["verified", "does_not_follow", "verified"]
    assert words in result.steps[1].feedback


def test_the_api_splits_with_the_declarations():
    pieces = grader.split_derivation("y = x + F(x) = F(x) + x\nwhere F is smooth",
                                     symbols=["x"], functions=["F"])
    assert [(p.text, p.remark) for p in pieces] == [
        ("y = x + F(x)", False), ("F(x) + x", False), ("where F is smooth", True)]


def test_a_declared_name_first_is_a_value_not_a_label():
    assert split_derivation("x = x + 0", D) == (M("x"), M("x + 0"))
    assert split_derivation("z = x + 0", D) == (M("z = x + 0"),)


# Each block is longer than MAX_BLOCK, so the bounds hold only because it is cut: uncut, the
# braces would be one line of 20,000 characters and the short lines 15,000 pieces.
@pytest.mark.parametrize("text", ["=" * 20_000, "{" * 20_000, "\\\\" * 10_000,
                                  "$" * 20_000, "\\begin{aligned}" * 1_200, "a=b\n" * 5_000,
                                  "x\n" * 15_000])
def test_hostile_blocks_are_cut_within_bounds(text):
    assert len(text) > MAX_BLOCK
    pieces = split_derivation(text, D)
    assert len(pieces) <= MAX_BLOCK and all(len(p.text) <= MAX_BLOCK for p in pieces)


# A derivation sent as a list (JSON Lines, the bank's `tests:`): a listed line holding a chain is
# its members, as the page splits a typed line (it was "did not expect = here").
@pytest.mark.parametrize(("answer", "start", "expected"), [
    (["(x+1)^2 = x^2+2x+1", "1+2x+x^2"], None, ["verified"] * 3),
    (["(x+1)^2 = x^2+2x+2 = x^2+2x+1"], None, ["verified", "does_not_follow", "verified"]),
    (["y = x + x", "2x"], None, ["verified"] * 2),  # a label first stays in front
    # a declared name first is a label on a listed line (the parser's `L = 1.25`), so a named
    # approximation stays one line, as before
    (["x ≈ 1.414"], "sqrt(2)", ["verified"]),
    (["x + x", "= 2x = 2 x"], None, ["verified"] * 3),
])
def test_a_listed_line_with_a_chain_is_split_as_the_page_splits_it(answer, start, expected):
    request = {"kind": "derivation", "answer": answer, "symbols": ["x"], "lang": "en"}
    if start:
        request["start"] = start
    listed = grader.check(request)
    assert [s.status.value for s in listed.steps] == expected
    if start is None:  # the same statuses as the block the page sends
        typed = grader.check({**request, "answer": "\n".join(answer)})
        assert [s.status for s in typed.steps] == [s.status for s in listed.steps]
