import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.reading.normalize import normalize


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("（x＋１）", "(x+1)"),
        ("［0.4，2.05］", "[0.4,2.05]"),
        ("２．５", "2.5"),
        ("3×4", "3*4"),
        ("a·b", "a*b"),
        ("6÷2", "6/2"),
        ("x−1", "x-1"),
        ("x²", "x^(2)"),
        ("W⁻¹", "W^(-1)"),
        ("Wᵀ", "W^(T)"),
        ("√x", "sqrt x"),  # a space: √x is sqrt x whatever x is
        ("2α", "2alpha"),
        ("σ(z)", "sigma(z)"),
        ("F′(x)", "F'(x)"),
        ("F″(x)", "F''(x)"),
        ("x\u3000+ 1", "x + 1"),
        ("x\u200b+1", "x+1"),
        ("【1；2】", "[1;2]"),
    ],
)
def test_ime_and_unicode_input_becomes_ascii(raw, expected):
    assert normalize(raw).text == expected


def test_every_output_character_maps_back_to_the_raw_text():
    raw = "（α＋x²）"
    norm = normalize(raw)
    assert len(norm.origin) == len(norm.text)
    # "alpha" comes from raw index 1; "^(2)" from the superscript at raw index 4.
    assert norm.origin[norm.text.index("alpha")] == 1
    assert norm.origin[norm.text.index("^")] == 4
    assert norm.raw_index(len(norm.text)) == len(raw)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list("x1.+ ,[]()") + ["×", "，", "２", "［", "α", "\u200b", "\t",
                                                     "\x7f", "é", "・"]), max_size=20))
def test_normalization_is_character_by_character_outside_superscripts(chars):
    # ASCII runs are copied in one step: the result must be what each character gives alone.
    text = "".join(chars)
    whole = normalize(text)
    alone = [normalize(c).text for c in chars]
    assert whole.text == "".join(alone)
    assert list(whole.origin) == [k for k, piece in enumerate(alone) for _ in piece]
