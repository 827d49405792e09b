"""Widget values as the browser sends them, and a simulated learner's generic answers.

`default_state(widget)` is what the frontend reports for a widget nobody touched (its default, or
the value the script set); `learner_state(widget, rng)` is what a learner puts in it: some text in
a box, an option of a radio or select box, every option of a multiselect in some order (an
ordering question), random ticks. The answers are plausible in form, not right: the load is the
same whichever verdict the grader returns.
"""

from __future__ import annotations

import random

from streamlit.proto.WidgetStates_pb2 import WidgetState

from bench.loadgen.page import Widget

# One-line answers: numbers, vectors, matrices and formulas in the notations learners use.
ONE_LINE = (
    "1", "0.5", "-2.25", "3/4", "1e-3", "[0.5, -0.2, 0.1]", "[[1, 0], [0, 1]]",
    "x + F(x)", "H(x) - x", "1 + F'(x)", "(I + W)^T g", "2x", "sqrt(d)",
)
# Derivation lines (a derivation question's box, keyed `….lines`): prose alone there is refused
# before grading ("every line reads as a remark"), so a learner writes formulas.
DERIVATION_LINES = (
    "y = x + F(x)\ndy/dx = 1 + F'(x)",
    "d/dx (x + F(x))\n1 + F'(x)",
    "\\frac{\\partial y}{\\partial x} = 1 + F'(x)\n\\text{by the chain rule}",
)
# Several lines: a derivation, or an interview answer of a few sentences.
MULTI_LINE = (
    "y = x + F(x)\ndy/dx = 1 + F'(x)",
    "The residual branch adds the identity, so the gradient has a path that is not multiplied "
    "by the layer's Jacobian; this keeps deep networks trainable.\nLayerNorm before the block "
    "(Pre-LN) keeps that path clean.",
    "残差连接让梯度可以直接通过恒等映射传回前面的层，缓解梯度消失。",
)


def _options(widget: Widget) -> list[str]:
    if widget.kind == "button_group":
        return [o.content for o in widget.proto.options]
    return list(getattr(widget.proto, "options", ()))


def default_state(widget: Widget) -> WidgetState | None:
    """The state the frontend reports for an untouched widget (None: it reports nothing)."""
    p, state = widget.proto, WidgetState(id=widget.id)
    kind = widget.kind
    if kind in ("text_input", "text_area"):
        state.string_value = p.value if p.set_value else p.default
    elif kind == "checkbox":
        state.bool_value = p.value if p.set_value else p.default
    elif kind in ("radio", "selectbox"):
        if p.set_value and p.HasField("raw_value"):
            state.string_value = p.raw_value
        elif p.HasField("default") and 0 <= p.default < len(p.options):
            state.string_value = p.options[p.default]
        else:
            return None
    elif kind in ("multiselect", "button_group"):
        options = _options(widget)
        values = list(p.raw_values) if p.set_value else [
            options[i] for i in p.default if 0 <= i < len(options)]
        state.string_array_value.data.extend(values)
    elif kind == "number_input":
        if p.set_value:
            state.double_value = p.value
        elif p.HasField("default"):
            state.double_value = p.default
        else:
            return None
    else:
        return None
    return state


def learner_state(widget: Widget, rng: random.Random) -> WidgetState | None:
    """A learner's generic answer in this widget (None: leave it as it is)."""
    p, state = widget.proto, WidgetState(id=widget.id)
    kind = widget.kind
    options = _options(widget)
    if kind == "text_input":
        state.string_value = rng.choice(ONE_LINE)
    elif kind == "text_area":
        lines = widget.id.endswith(".lines")
        state.string_value = rng.choice(DERIVATION_LINES if lines else MULTI_LINE)
    elif kind == "checkbox":
        state.bool_value = rng.random() < 0.5
    elif kind in ("radio", "selectbox") and options:
        state.string_value = rng.choice(options)
    elif kind == "button_group" and options:
        state.string_array_value.data.append(rng.choice(options))
    elif kind == "multiselect" and options:
        picked = rng.sample(options, len(options))  # every item, in some order (an ordering)
        if p.max_selections:
            picked = picked[: p.max_selections]
        state.string_array_value.data.extend(picked)
    elif kind == "number_input":
        low = p.min if p.has_min else -10.0
        high = p.max if p.has_max else 10.0
        value = rng.uniform(low, high)
        state.double_value = round(value) if p.data_type == type(p).INT else value
    else:
        return None
    return state
