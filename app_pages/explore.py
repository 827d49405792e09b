"""Explore: the source texts' interactive demos, one at a time, every slider with its chart in a
fragment so moving it reruns only that demo."""

import streamlit as st

from app_pages.state import option_labels, tr
from app_pages.widgets.chart_text import chart_numbers, series_table
from app_pages.widgets.explore_charts import grouped_bars, log_lines
from app_pages.widgets.number_box import whole_number_box
from tutor.sessions.explore import (
    BLOCK_LATEX,
    MLP_DEPTHS,
    MLP_MAX_SEED,
    MLP_MAX_WIDTH,
    MLP_WIDTH_STEP,
    RESIDUAL_EXAMPLES,
    block_dot,
    format_number,
    format_vector,
    loggable,
    multiplier_at,
    residual_sum,
)


@st.cache_data(max_entries=64, show_spinner=False)
def deep_mlp_grad_norms(depth: int, width: int, gain: float, seed: int) -> dict:
    # Pure in its arguments, so one result serves every learner; torch loads on the first call.
    from compute import series

    return series.deep_mlp_grad_norms(depth, width, gain, seed)


@st.cache_data(max_entries=256, show_spinner=False)
def gradient_multiplier_curve(a: float, depth: int) -> dict:
    from compute import series

    return series.gradient_multiplier_curve(a, depth)


@st.fragment
def residual_demo() -> None:
    st.header(tr("explore.residual.title"))
    st.markdown(tr("explore.residual.intro"))
    left, right = st.columns([2, 3], gap="large")
    with left:
        example = st.selectbox(
            tr("explore.residual.example"), RESIDUAL_EXAMPLES,
            format_func=option_labels(lambda e: f"explore.residual.example_{e.key}"),
            key="explore_residual_example",
        )
        st.caption(tr(f"explore.residual.source_{example.key}"))
        scale = st.slider(tr("explore.residual.scale"), -2.0, 3.0, 1.0, 0.1, key="explore_residual_scale")
        st.latex(r"y = x + \alpha F(x), \qquad y_{\text{plain}} = \alpha F(x)")
    data = residual_sum(example.x, example.update, round(scale, 2))
    with left:
        st.markdown(tr("explore.residual.result", residual=format_vector(data["residual"]),
                       plain=format_vector(data["plain"])))
        if round(scale, 2) == 0:
            st.info(tr("explore.residual.zero_note"))
    series = {tr(f"explore.residual.series_{name}"): data[name]
              for name in ("x", "branch", "residual", "plain")}
    with right:
        st.altair_chart(grouped_bars(series, tr("explore.residual.component"),
                                     tr("explore.residual.value")), width="stretch")
        chart_numbers(series_table(tr("explore.residual.component"),
                                   [f"x{i + 1}" for i in range(len(data["x"]))],
                                   {name: list(values) for name, values in series.items()}))


@st.fragment
def multiplier_demo() -> None:
    st.header(tr("explore.multiplier.title"))
    st.markdown(tr("explore.multiplier.intro"))
    st.latex(r"G_{\mathrm{plain}} = |a|^n, \qquad G_{\mathrm{residual}} = |1 + a|^n")
    left, right = st.columns(2)
    depth = left.slider(tr("explore.multiplier.depth"), 1, 100, 20, key="explore_multiplier_depth")
    a = round(right.slider(tr("explore.multiplier.a"), -2.0, 2.0, 0.5, 0.05,
                           key="explore_multiplier_a"), 2)
    at_depth = multiplier_at(a, depth)
    plain_col, residual_col = st.columns(2)
    plain_col.metric(tr("explore.multiplier.metric_plain", n=depth), format_number(at_depth["plain"]))
    residual_col.metric(tr("explore.multiplier.metric_residual", n=depth),
                        format_number(at_depth["residual"]))

    curve = gradient_multiplier_curve(a, depth)
    # Depth 0 is 1 for every a (no layer yet); the chart starts at the first layer.
    plain, plain_dropped = loggable(curve["plain"][1:])
    residual, residual_dropped = loggable(curve["residual"][1:])
    series = {tr("explore.multiplier.series_plain"): plain,
              tr("explore.multiplier.series_residual"): residual}
    st.altair_chart(log_lines(curve["depth"][1:], series, tr("explore.multiplier.axis_depth"),
                              tr("explore.multiplier.axis_multiplier")), width="stretch")
    chart_numbers(series_table(tr("explore.multiplier.axis_depth"), curve["depth"][1:], series))
    if a == -1:
        st.warning(tr("explore.multiplier.zero_residual"), icon=":material/info:")
    elif a == 0:
        st.warning(tr("explore.multiplier.zero_plain"), icon=":material/info:")
    elif plain_dropped or residual_dropped:
        st.caption(tr("explore.multiplier.underflow"))
    if abs(1 + a) > 1:
        st.caption(tr("explore.multiplier.explode"))


PHONE_MAX_WIDTH = 640  # px: Streamlit's own breakpoint for stacking columns
NARROW_SCREEN_CSS = (  # our constant CSS, no learner text
    "<style>"
    f"@media (max-width: {PHONE_MAX_WIDTH}px) {{.st-key-norm_diagram_wide {{display: none}}}}"
    f"@media (min-width: {PHONE_MAX_WIDTH + 1}px) {{.st-key-norm_diagram_narrow {{display: none}}}}"
    ".st-key-norm_diagram_narrow {align-items: center}"
    "</style>"
)


@st.fragment
def norm_placement_demo() -> None:
    st.header(tr("explore.norm.title"))
    st.markdown(tr("explore.norm.intro"))
    variant = st.radio(tr("explore.norm.variant"), ("pre_ln", "post_ln"), horizontal=True,
                       format_func=option_labels(lambda v: f"explore.norm.{v}"),
                       key="explore_norm_variant")
    labels = {
        "X": tr("explore.norm.label_x"), "Y": tr("explore.norm.label_y"),
        "LN1": tr("explore.norm.label_ln"), "LN2": tr("explore.norm.label_ln"),
        "MHA": tr("explore.norm.label_mha"), "FFN": tr("explore.norm.label_ffn"),
    }
    # Two drawings, one shown by screen width: left to right on a wide screen, stacked top to
    # bottom on a phone (the wide one shrunk to 390 px left its labels unreadable).
    st.html(NARROW_SCREEN_CSS)
    with st.container(key="norm_diagram_wide"):
        st.graphviz_chart(block_dot(variant, labels, tr("explore.norm.identity")), width="stretch")
    with st.container(key="norm_diagram_narrow"):
        st.graphviz_chart(block_dot(variant, labels, tr("explore.norm.identity"), direction="TB"),
                          width="content")
    *forward, jacobian = BLOCK_LATEX[variant]
    left, right = st.columns(2, gap="large")
    with left:
        st.markdown(f"**{tr('explore.norm.formulas')}**")
        for line in forward:
            st.latex(line)
    with right:
        st.markdown(f"**{tr('explore.norm.jacobian')}**")
        st.latex(jacobian)
    st.info(tr(f"explore.norm.{variant}_note"))


@st.fragment
def deep_mlp_demo() -> None:
    st.header(tr("explore.mlp.title"))
    st.markdown(tr("explore.mlp.intro"))
    cols = st.columns(4)
    depth = cols[0].slider(tr("explore.mlp.depth"), *MLP_DEPTHS, 40, key="explore_mlp_depth")
    width = cols[1].slider(tr("explore.mlp.width"), MLP_WIDTH_STEP, MLP_MAX_WIDTH, 64, MLP_WIDTH_STEP,
                           key="explore_mlp_width",
                           help=tr("explore.mlp.width_help", max=MLP_MAX_WIDTH, depth=MLP_DEPTHS[1]))
    gain = round(cols[2].slider(tr("explore.mlp.gain"), 0.1, 3.0, 0.8, 0.1, key="explore_mlp_gain"), 2)
    seed = whole_number_box(tr("explore.mlp.seed"), low=0, high=MLP_MAX_SEED, default=0,
                            key="explore_mlp_seed", container=cols[3], message_to=st)
    with st.spinner(tr("explore.mlp.computing")):
        norms = deep_mlp_grad_norms(depth, width, gain, seed)
    plain, plain_dropped = loggable(norms["plain"])
    residual, residual_dropped = loggable(norms["residual"])
    first_plain, first_residual = norms["plain"][0], norms["residual"][0]
    left, right = st.columns(2)
    left.metric(tr("explore.mlp.metric_plain"), format_number(first_plain))
    right.metric(tr("explore.mlp.metric_residual"), format_number(first_residual))
    series = {tr("explore.mlp.series_plain"): plain, tr("explore.mlp.series_residual"): residual}
    st.altair_chart(log_lines(norms["layer"], series, tr("explore.mlp.axis_layer"),
                              tr("explore.mlp.axis_norm")), width="stretch")
    chart_numbers(series_table(tr("explore.mlp.axis_layer"), norms["layer"], series))
    if first_plain > 0:
        st.caption(tr("explore.mlp.ratio", ratio=format_number(first_residual / first_plain)))
    if plain_dropped or residual_dropped:
        st.caption(tr("explore.mlp.zero_note"))
    st.caption(tr("explore.mlp.caveat"))


st.title(tr("explore.title"))
st.caption(tr("explore.intro"))
# One demo at a time: the deep MLP's torch work runs only when its demo is open, not on page load.
demos = {"residual": residual_demo, "multiplier": multiplier_demo, "norm": norm_placement_demo,
         "mlp": deep_mlp_demo}
chosen = st.segmented_control(tr("explore.choose"), list(demos), key="explore_demo", required=True,
                              default="residual", label_visibility="collapsed",
                              format_func=option_labels(lambda name: f"explore.{name}.tab"))
st.divider()
demos[chosen or "residual"]()
