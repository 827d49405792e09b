"""The parser's fast path for plain numbers builds exactly the full parser's tree, or steps aside."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.errors import GraderError
from grader.reading.parser import parse, parse_tokens
from grader.reading.plain_numbers import parse_plain_numbers


def full_parser(text: str, space_vectors: bool):
    """The full parser's tree, or its error's key; a reading note it would give (the fast path
    gives none) is returned as the notes themselves, so the comparison fails."""
    try:
        node, notes = parse_tokens(text, space_vectors=space_vectors)
    except GraderError as err:
        return err.key
    return node if not notes else notes


number = st.sampled_from(["0.5", "-1.5", "2", ".5", "5.", "1e3", "-9.54e-7", "1E+2", "007", "-0",
                          "1" * 35, "1e200", "9.54*10^-7", "-2 * 10^(+3)", "1*10^{-07}",
                          "5*10^301", "5*10^300", "2*10^ - 3", "3*10^(-3", "1.5*10^7.5"])
separator = st.sampled_from([",", ", ", " ", " , ", "; ", ";", "  ", ",,", "- "])
wrapper = st.sampled_from(["{}", "[{}]", "({})", " {} ", "[[{}],[{}]]", "[[{}] , [{}]]",
                           "[{}],[{}]", "[[{}]]", "[({})]", "[{}", "{}]"])


@st.composite
def number_lists(draw):
    body = draw(number)
    for _ in range(draw(st.integers(0, 4))):
        body += draw(separator) + draw(number)
    return draw(wrapper).replace("{}", body)


SAME = settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SAME
@given(number_lists(), st.booleans())
def test_fast_path_tree_equals_the_full_parser(text, space_vectors):
    fast = parse_plain_numbers(text, space_vectors)
    if fast is not None:
        assert fast == full_parser(text, space_vectors)


# One value's arithmetic: unsigned numbers around one operator (and near misses: signs, spaces,
# two operators, powers over the limits).
operand = st.sampled_from(["2", "40", "0.8", "5.", ".5", "1e3", "1E+2", "007", "0", "10", "3e-2",
                           "1" * 35, "1e200", "20000", "-3", " 4", "2.5.1"])
operator = st.sampled_from(["+", "-", "*", "/", "^", "^-", "**", "//", " + ", "%"])


@SAME
@given(operand, operator, operand, st.booleans())
def test_fast_path_for_two_numbers_and_an_operator(left, op, right, space_vectors):
    text = left + op + right
    fast = parse_plain_numbers(text, space_vectors)
    if fast is not None:
        assert fast == full_parser(text, space_vectors)


@SAME
@given(st.text(alphabet="0123456789.eE+-*/^{},; [])(", max_size=16), st.booleans())
def test_fast_path_on_arbitrary_number_characters(text, space_vectors):
    fast = parse_plain_numbers(text, space_vectors)
    if fast is not None:
        assert fast == full_parser(text, space_vectors)


@pytest.mark.parametrize("text", [
    "0.4", "-9.54e-7", "9.54*10^-7", "9.54*10^(-7)", "9.54 * 10^{-7}", "[0.4, 2.05]",
    "(0.4, 2.05)", "0.4, 2.05", "[0.4 2.05]", "[0.4 -2.05]", "[1.5; 2.5]", "[1 2; 3 4]",
    "[1, 2; 3, 4]", "[[1, 2], [3, 4]]", " [ 0.4 , 2.05 ] ", "(0.5)",
    "2^40", "5/4", "1+0.01", "2*40", "0.8^40", "1-2", "10^7", "1/0", "1.5e-3+2",
])
def test_the_common_answers_take_the_fast_path(text):
    fast = parse_plain_numbers(text, space_vectors=True)
    assert fast is not None
    assert fast == full_parser(text, True)


@pytest.mark.parametrize(("text", "key"), [
    ("1e309", "number_too_large"), ("1" * 40, "number_too_long"), ("[1, 2; 3]", "ragged_matrix"),
    ("5*10^301", "number_too_large"), ("[1, 2", "bracket_never_closed"),
    ("2^20000", "exponent_too_large"), ("2^1000", "number_too_large"),
    # Many entries: the parser's node limit applies (regression: the fast path once took them).
    ("[" + "1;" * 450 + "1]", "too_many_nodes"), ("[" + "1 " * 450 + "]", "too_many_nodes"),
    ("[" + "[1,2]," * 150 + "[1,2]]", "too_many_nodes"),
])
def test_errors_come_from_the_full_parser_with_its_position(text, key):
    assert parse_plain_numbers(text, space_vectors=True) is None
    with pytest.raises(GraderError) as caught:
        parse(text, space_vectors=True)
    assert caught.value.key == key


def test_spaces_between_formulas_are_left_to_the_parser():
    # Whether "9.54*10^-7 1.5" is a vector or a product depends on the parser's token rules.
    assert parse_plain_numbers("9.54*10^-7 1.5", space_vectors=True) is None
    assert parse_plain_numbers("1.5 2.5", space_vectors=False) is None
