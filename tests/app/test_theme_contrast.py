"""The theme in .streamlit/config.toml meets WCAG 2.1 AA contrast on every pair Streamlit draws
from it (issue 31): 4.5:1 for text, 3:1 for UI components. The ratio is the WCAG 2.x formula,
checked first against published values; the pairs include the colours Streamlit derives (captions
are the text colour at 60 % opacity, a selected segmented-control option is the primary colour on
a 10 % tint of itself) blended the way the browser blends them."""

import tomllib
from pathlib import Path

import pytest

CONFIG = Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml"
THEME = tomllib.loads(CONFIG.read_text())["theme"]
WHITE = "#FFFFFF"


def rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def relative_luminance(hex_colour: str) -> float:
    """WCAG 2.x: L = 0.2126 R + 0.7152 G + 0.0722 B over the linearised sRGB channels."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = map(linear, rgb(hex_colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """(L1 + 0.05) / (L2 + 0.05), the lighter colour's luminance over the darker's."""
    light, dark = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def over(colour: str, alpha: float, background: str) -> str:
    """`colour` at opacity `alpha` composited on `background`, as the browser paints it."""
    mixed = (round(alpha * c + (1 - alpha) * b) for c, b in zip(rgb(colour), rgb(background), strict=True))
    return "#" + "".join(f"{c:02X}" for c in mixed)


@pytest.mark.parametrize(
    ("a", "b", "published"),
    [("#000000", "#FFFFFF", 21.0), ("#767676", "#FFFFFF", 4.54), ("#777777", "#FFFFFF", 4.48),
     ("#FFFFFF", "#0000FF", 8.59), ("#FF0000", "#FFFFFF", 4.0)],
)
def test_the_formula_gives_the_published_ratios(a, b, published):
    # WebAIM's contrast checker: #767676 is the lightest grey that passes on white.
    assert contrast(a, b) == pytest.approx(published, abs=0.01)


def test_a_faded_caption_matches_what_the_old_theme_drew():
    # The audit measured the old caption grey #797f87: #1F2937 at 60 % on white.
    assert over("#1F2937", 0.6, WHITE) == "#797F87"


BACKGROUNDS = {"background": THEME["backgroundColor"], "sidebar": THEME["secondaryBackgroundColor"]}
TEXT, PRIMARY, LINK = THEME["textColor"], THEME["primaryColor"], THEME["linkColor"]


@pytest.mark.parametrize("where", BACKGROUNDS)
@pytest.mark.parametrize(
    ("what", "foreground", "minimum"),
    [
        ("body text", lambda bg: TEXT, 4.5),
        ("caption and help text (text at 60 %)", lambda bg: over(TEXT, 0.6, bg), 4.5),
        ("link", lambda bg: LINK, 4.5),
        ("primary text on its own 10 % tint (selected option)", lambda bg: PRIMARY, 4.5),
        ("primary as a UI component (focus ring, slider, checkbox)", lambda bg: PRIMARY, 3.0),
    ],
    ids=lambda x: x if isinstance(x, str) else "",
)
def test_every_text_colour_meets_aa_where_it_is_drawn(where, what, foreground, minimum):
    background = BACKGROUNDS[where]
    if "tint" in what:
        background = over(PRIMARY, 0.1, background)
    ratio = contrast(foreground(background), background)
    assert ratio >= minimum, f"{what} on the {where} ({background}): {ratio:.2f}:1 < {minimum}:1"


def test_a_primary_buttons_label_reads_on_the_primary_colour():
    assert contrast(WHITE, PRIMARY) >= 4.5


def test_the_brand_blue_keeps_its_hue():
    import colorsys

    hue = colorsys.rgb_to_hsv(*(c / 255 for c in rgb(PRIMARY)))[0] * 360
    assert 215 <= hue <= 225, hue  # the old #2F6FEB is 219.6 degrees
