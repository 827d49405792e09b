"""Pure data behind the Explore page's demos (no Streamlit, no torch).

The heavy series (gradient multipliers, deep-MLP gradient norms) come from `compute.series`; this
module holds the small things around them: the source texts' example vectors, the residual sum,
how a log-scale chart treats exact zeros, and the Pre-LN / Post-LN computation order.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# --- (a) input plus residual -------------------------------------------------------------------


@dataclass(frozen=True)
class ResidualExample:
    """An input x and a branch output F(x) quoted from a source text."""

    key: str
    x: tuple[float, ...]
    update: tuple[float, ...]


# seed 001: "输入是 [2, 3]，一个子层算出修正量 [0.1, -0.2]，残差相加后就是 [2.1, 2.8]";
# seed 000 §2: x = [2, 5, 3], F(x) = H(x) - x = [0.5, -0.2, 0.1].
RESIDUAL_EXAMPLES: tuple[ResidualExample, ...] = (
    ResidualExample("two_dim", (2.0, 3.0), (0.1, -0.2)),
    ResidualExample("three_dim", (2.0, 5.0, 3.0), (0.5, -0.2, 0.1)),
)


def residual_sum(x: Sequence[float], update: Sequence[float], scale: float) -> dict[str, list[float]]:
    """y = x + scale·F(x), next to a plain layer that outputs only its transform, scale·F(x).

    The plain layer replaces its input; the residual layer adds to it, so at scale 0 the residual
    layer passes x through unchanged while the plain one outputs zeros.
    """
    if len(x) != len(update):
        raise ValueError(f"x has {len(x)} entries but F(x) has {len(update)}")
    branch = [scale * f for f in update]
    return {
        "x": [float(v) for v in x],
        "branch": branch,
        "residual": [xi + fi for xi, fi in zip(x, branch, strict=True)],
        "plain": list(branch),
    }


# --- (b) gradient multipliers on a log scale ---------------------------------------------------


def loggable(values: Sequence[float]) -> tuple[list[float | None], bool]:
    """Values ready for a log axis: exact zeros (and underflow) become gaps, never fake points.

    Returns the values with non-positive entries replaced by None, and whether any were replaced,
    so the page can say why a curve is missing instead of drawing it at an invented floor.
    """
    out: list[float | None] = []
    dropped = False
    for v in values:
        if v > 0 and math.isfinite(v):
            out.append(float(v))
        else:
            out.append(None)
            dropped = True
    return out, dropped


def multiplier_at(a: float, depth: int) -> dict[str, float]:
    """The closed forms the chart shows: G_plain = |a|^n and G_residual = |1 + a|^n."""
    return {"plain": abs(a) ** depth, "residual": abs(1 + a) ** depth}


# --- (d) the deep MLP's slider ranges ------------------------------------------------------------

MLP_DEPTHS = (2, 80)
MLP_MAX_SEED = 9999  # the seed box's limit: four digits, easy to note down and share
MLP_WIDTH_STEP = 8


def mlp_max_width(max_depth: int, max_weights: int, step: int = MLP_WIDTH_STEP) -> int:
    """The widest net (a multiple of `step`) that compute accepts at every offered depth.

    compute draws depth x width x width weights and refuses more than `max_weights` of them
    (`compute.templates.deep_mlp_gradients.MAX_WEIGHTS`). The width slider stops here, so every
    depth/width pair it can be set to runs (a fixed 256 failed for any depth over 32).
    """
    width = int((max_weights / max_depth) ** 0.5) // step * step
    while width > step and max_depth * width * width > max_weights:
        width -= step
    return width


def _compute_weight_budget() -> int:
    from compute.templates.deep_mlp_gradients import MAX_WEIGHTS  # a constant: torch stays unloaded

    return MAX_WEIGHTS


MLP_MAX_WIDTH = mlp_max_width(MLP_DEPTHS[1], _compute_weight_budget())


# --- (c) Pre-LN vs Post-LN ---------------------------------------------------------------------

# Each step: (node id, kind, what it adds to or reads from). Kinds: input, norm, sublayer, add,
# output. "add" steps name the tensor carried by the identity (skip) path into the sum.
BLOCK_ORDER: Mapping[str, tuple[tuple[str, str, str], ...]] = {
    "pre_ln": (
        ("X", "input", ""),
        ("LN1", "norm", ""),
        ("MHA", "sublayer", ""),
        ("ADD1", "add", "X"),
        ("LN2", "norm", ""),
        ("FFN", "sublayer", ""),
        ("ADD2", "add", "ADD1"),
        ("Y", "output", ""),
    ),
    "post_ln": (
        ("X", "input", ""),
        ("MHA", "sublayer", ""),
        ("ADD1", "add", "X"),
        ("LN1", "norm", ""),
        ("FFN", "sublayer", ""),
        ("ADD2", "add", "LN1"),
        ("LN2", "norm", ""),
        ("Y", "output", ""),
    ),
}

# The source text's formulas (seed 000 §6.1-6.2) and the one-block Jacobians for an abstract F.
BLOCK_LATEX: Mapping[str, tuple[str, ...]] = {
    "pre_ln": (
        r"U = X + \operatorname{MHA}(\operatorname{LN}(X))",
        r"Y = U + \operatorname{FFN}(\operatorname{LN}(U))",
        r"J = I + J_F\,J_{\operatorname{LN}}",
    ),
    "post_ln": (
        r"U = \operatorname{LN}(X + \operatorname{MHA}(X))",
        r"Y = \operatorname{LN}(U + \operatorname{FFN}(U))",
        r"J = J_{\operatorname{LN}}\,(I + J_F)",
    ),
}

_NODE_STYLE = {
    "input": 'shape=box, style="rounded,filled", fillcolor="#E8EEF7"',
    "output": 'shape=box, style="rounded,filled", fillcolor="#E8EEF7"',
    "norm": 'shape=box, style="rounded,filled", fillcolor="#FFF1C9"',
    "sublayer": 'shape=box, style="rounded,filled", fillcolor="#D8ECFF"',
    "add": 'shape=circle, style=filled, fillcolor="#E3F4E1", fixedsize=true, width=0.45',
}


def _quoted(text: str) -> str:
    # Labels are our own translated strings, but quote them properly all the same.
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def block_dot(variant: str, labels: Mapping[str, str], identity_label: str, *,
              direction: str = "LR") -> str:
    """Graphviz DOT source of one Transformer block in computation order, drawn left to right
    (`direction="LR"`, wide screens) or top to bottom (`"TB"`, phones: stacked, so the labels
    keep their size at 390 px).

    `labels` maps node ids (X, LN1, MHA, ...) to display text; add nodes are drawn as "+". The
    identity (skip) paths are dashed edges into the add nodes, labelled `identity_label`.
    """
    if direction not in ("LR", "TB"):
        raise ValueError(f"direction must be LR or TB, got {direction!r}")
    steps = BLOCK_ORDER[variant]
    lines = [
        "digraph block {",
        f'  rankdir={direction}; nodesep=0.35; ranksep=0.3; bgcolor="transparent";',
        '  node [fontname="Noto Sans CJK SC, Noto Sans, sans-serif", fontsize=12, color="#7A8699"];',
        '  edge [color="#4A5568", arrowsize=0.7];',
    ]
    for node, kind, _ in steps:
        label = "+" if kind == "add" else labels.get(node, node)
        lines.append(f"  {node} [label={_quoted(label)}, {_NODE_STYLE[kind]}];")
    for (before, _, _), (after, _, _) in zip(steps, steps[1:], strict=False):
        lines.append(f"  {before} -> {after};")
    for node, kind, skip_from in steps:
        if kind == "add":
            lines.append(
                f"  {skip_from} -> {node} [style=dashed, color=\"#2F855A\", constraint=false, "
                f"label={_quoted(identity_label)}, fontcolor=\"#2F855A\", fontsize=10];"
            )
    lines.append("}")
    return "\n".join(lines)


def format_vector(values: Sequence[float]) -> str:
    """[2.1, 2.8] — short, exact-looking numbers for prose next to a chart."""
    return "[" + ", ".join(f"{v:.4g}" if v != 0 else "0" for v in values) + "]"


def format_number(value: float) -> str:
    """A multiplier or norm: 0 stays 0, tiny and huge values switch to scientific notation."""
    if value == 0:
        return "0"
    if 1e-3 <= abs(value) < 1e5:
        return f"{value:.4g}"
    return f"{value:.3e}"
