"""Explore: each demo renders in both languages and follows its sliders; its pure helpers."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.app.shell_helpers import open_app
from tutor.sessions.explore import (
    BLOCK_ORDER,
    MLP_DEPTHS,
    MLP_MAX_WIDTH,
    MLP_WIDTH_STEP,
    RESIDUAL_EXAMPLES,
    block_dot,
    format_number,
    loggable,
    mlp_max_width,
    multiplier_at,
    residual_sum,
)


@pytest.fixture(scope="module")
def explore_en():
    return open_app("explore", "en")


def show(at, demo: str):
    at.button_group(key="explore_demo").set_value(demo).run()
    assert not at.exception, at.exception
    return at


def metric(at, label_start: str) -> str:
    return next(m.value for m in at.metric if m.label.startswith(label_start))


@pytest.mark.parametrize(
    # the norm demo draws its diagram twice: wide for desktops, stacked for phones (CSS shows one)
    ("demo", "charts", "diagrams"), [("residual", 1, 0), ("multiplier", 1, 0), ("norm", 0, 2), ("mlp", 1, 0)]
)
@pytest.mark.parametrize(("lang", "heading"), [("en", "Explore"), ("zh", "交互探索")])
def test_each_demo_renders_alone(lang, heading, demo, charts, diagrams):
    at = show(open_app("explore", lang), demo)
    assert at.title[0].value == heading
    assert len(at.header) == 1  # only the chosen demo runs
    assert len(at.get("vega_lite_chart")) == charts
    assert len(at.get("graphviz_chart")) == diagrams


def test_the_first_demo_is_open_by_default_and_the_mlp_does_not_run():
    at = open_app("explore", "en")
    assert at.header[0].value.startswith("Input plus residual")
    assert not [m for m in at.metric if "input h" in m.label]


def test_residual_scale_slider_updates_the_sum(explore_en):
    at = show(explore_en, "residual")
    at.slider(key="explore_residual_scale").set_value(0.0).run()
    assert any("[2, 3]" in m.value for m in at.markdown)  # y = x at alpha = 0
    assert at.info[0].value.startswith("With α = 0")
    at.slider(key="explore_residual_scale").set_value(2.0).run()
    assert any("y = [2.2, 2.6]" in m.value for m in at.markdown)
    assert not at.info or not at.info[0].value.startswith("With α = 0")


@pytest.mark.parametrize(("a", "n"), [(0.5, 20), (-0.5, 40), (1.0, 10), (-1.5, 7)])
def test_multiplier_metrics_follow_the_sliders(explore_en, a, n):
    at = show(explore_en, "multiplier")
    at.slider(key="explore_multiplier_a").set_value(a)
    at.slider(key="explore_multiplier_depth").set_value(n).run()
    assert not at.exception
    assert float(metric(at, f"Plain, n = {n}")) == pytest.approx(abs(a) ** n, rel=1e-3)
    assert float(metric(at, f"Residual, n = {n}")) == pytest.approx(abs(1 + a) ** n, rel=1e-3)


def test_multiplier_at_minus_one_says_the_residual_curve_is_zero(explore_en):
    at = show(explore_en, "multiplier")
    at.slider(key="explore_multiplier_a").set_value(-1.0).run()
    assert metric(at, "Residual") == "0"
    assert any("exactly 0" in w.value for w in at.warning)


def test_norm_switch_changes_the_jacobian(explore_en):
    at = show(explore_en, "norm")
    at.radio(key="explore_norm_variant").set_value("pre_ln").run()
    assert any(r"I + J_F\,J_{\operatorname{LN}}" in x.value for x in at.latex)
    at.radio(key="explore_norm_variant").set_value("post_ln").run()
    latex = [x.value for x in at.latex]
    assert any(r"J_{\operatorname{LN}}\,(I + J_F)" in x for x in latex)
    assert not any(r"I + J_F\,J_{\operatorname{LN}}" in x for x in latex)


def test_deep_mlp_metrics_follow_depth(explore_en):
    from compute import series

    at = show(explore_en, "mlp")
    at.slider(key="explore_mlp_depth").set_value(12)
    at.slider(key="explore_mlp_gain").set_value(0.5).run()
    assert not at.exception
    expected = series.deep_mlp_grad_norms(12, 64, 0.5, 0)
    assert float(metric(at, "Plain, at the input")) == pytest.approx(expected["plain"][0], rel=1e-3)
    assert float(metric(at, "Residual, at the input")) == pytest.approx(
        expected["residual"][0], rel=1e-3)


# --- the pure helpers ---------------------------------------------------------------------------


@pytest.mark.parametrize("example", RESIDUAL_EXAMPLES, ids=lambda e: e.key)
@pytest.mark.parametrize("scale", [0.0, 1.0, -2.0, 0.3])
def test_residual_sum(example, scale):
    data = residual_sum(example.x, example.update, scale)
    for xi, fi, yi, pi in zip(example.x, example.update, data["residual"], data["plain"], strict=True):
        assert yi == pytest.approx(xi + scale * fi)
        assert pi == pytest.approx(scale * fi)


def test_residual_sum_quotes_the_source_text():
    # seed 001: [2, 3] + [0.1, -0.2] = [2.1, 2.8]
    assert residual_sum((2, 3), (0.1, -0.2), 1.0)["residual"] == pytest.approx([2.1, 2.8])
    with pytest.raises(ValueError, match="2 entries"):
        residual_sum((2, 3), (0.1,), 1.0)


@pytest.mark.parametrize(
    ("values", "expected", "dropped"),
    [
        ([1.0, 0.5], [1.0, 0.5], False),
        ([1.0, 0.0, 0.0], [1.0, None, None], True),
        ([math.inf, 2.0], [None, 2.0], True),
        ([-1.0], [None], True),
    ],
)
def test_loggable(values, expected, dropped):
    assert loggable(values) == (expected, dropped)


@pytest.mark.parametrize(("a", "n", "plain", "residual"),
                         [(0.5, 20, 0.5**20, 1.5**20), (-1, 5, 1, 0), (0, 3, 0, 1), (-2, 2, 4, 1)])
def test_multiplier_at(a, n, plain, residual):
    assert multiplier_at(a, n) == {"plain": pytest.approx(plain), "residual": pytest.approx(residual)}


@pytest.mark.parametrize("variant", ["pre_ln", "post_ln"])
def test_block_order_has_two_residual_adds_and_two_norms(variant):
    kinds = [kind for _, kind, _ in BLOCK_ORDER[variant]]
    assert kinds.count("add") == 2 and kinds.count("norm") == 2
    assert kinds.count("sublayer") == 2
    dot = block_dot(variant, {"MHA": 'say "hi"'}, "identity")
    assert dot.count("style=dashed") == 2
    assert r'say \"hi\"' in dot


def test_pre_ln_normalizes_before_and_post_ln_after_the_add():
    pre = [node for node, _, _ in BLOCK_ORDER["pre_ln"]]
    post = [node for node, _, _ in BLOCK_ORDER["post_ln"]]
    assert pre.index("LN1") < pre.index("MHA") < pre.index("ADD1")
    assert post.index("MHA") < post.index("ADD1") < post.index("LN1")


@pytest.mark.parametrize(("value", "text"),
                         [(0, "0"), (1.5, "1.5"), (9.5367431640625e-07, "9.537e-07"), (3325.256730079651, "3325")])
def test_format_number(value, text):
    assert format_number(value) == text


finite = st.floats(-1e6, 1e6, allow_nan=False)


@given(st.lists(st.tuples(finite, finite), min_size=1, max_size=8), st.floats(-3, 3))
def test_residual_output_minus_input_is_the_plain_output(pairs, scale):
    x, update = zip(*pairs, strict=True)
    data = residual_sum(x, update, scale)
    for xi, yi, pi in zip(x, data["residual"], data["plain"], strict=True):
        assert yi - xi == pytest.approx(pi, rel=1e-9, abs=1e-6)


@given(st.lists(st.floats(allow_nan=True), max_size=20))
def test_loggable_keeps_exactly_the_positive_finite_values(values):
    kept, dropped = loggable(values)
    assert len(kept) == len(values)
    for v, k in zip(values, kept, strict=True):
        assert (k == v) if (v > 0 and math.isfinite(v)) else (k is None)
    assert dropped == any(k is None for k in kept)


@given(st.integers(1, 400), st.integers(64, 2**24), st.sampled_from([1, 4, 8]))
def test_mlp_max_width_is_the_widest_width_within_the_budget(depth, budget, step):
    width = mlp_max_width(depth, budget, step)
    assert width % step == 0
    if width > step:
        assert depth * width**2 <= budget
    assert depth * (width + step) ** 2 > budget


@pytest.mark.parametrize("depth", MLP_DEPTHS)
@pytest.mark.parametrize("width", [MLP_WIDTH_STEP, MLP_MAX_WIDTH])
@pytest.mark.parametrize("gain", [0.1, 3.0])
def test_every_corner_of_the_mlp_sliders_computes(depth, width, gain):
    # Regression: width 256 (offered by the slider) with the default depth 40 exceeded compute's
    # weight budget and showed a raw traceback. The slider's corners must all compute.
    from compute import series

    norms = series.deep_mlp_grad_norms(depth, width, gain, 9999)
    assert len(norms["plain"]) == depth + 1 and all(math.isfinite(v) for v in norms["residual"])


def test_the_widest_mlp_renders_without_an_error(explore_en):
    at = show(explore_en, "mlp")
    at.slider(key="explore_mlp_depth").set_value(MLP_DEPTHS[1])
    at.slider(key="explore_mlp_width").set_value(MLP_MAX_WIDTH).run()
    assert not at.exception and not at.error
    assert at.slider(key="explore_mlp_width").max == MLP_MAX_WIDTH


def test_the_block_diagram_can_be_drawn_stacked_for_phones():
    assert "rankdir=LR" in block_dot("pre_ln", {}, "identity")
    assert "rankdir=TB" in block_dot("pre_ln", {}, "identity", direction="TB")
    with pytest.raises(ValueError):
        block_dot("pre_ln", {}, "identity", direction="RL; evil")
