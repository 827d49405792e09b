"""Altair charts for the Explore page (data in, chart out; no Streamlit calls).

Series names arrive already translated, so the legends follow the learner's language.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import altair as alt
import pandas as pd

PALETTE = ["#4C78A8", "#F58518", "#54A24B", "#B279A2"]
HEIGHT = 360


def grouped_bars(series: Mapping[str, Sequence[float]], component_title: str, value_title: str):
    """One group of bars per vector component, one bar per named series."""
    rows = [
        {"component": f"x{_subscript(i + 1)}", "series": name, "value": v, "order": order}
        for order, (name, values) in enumerate(series.items())
        for i, v in enumerate(values)
    ]
    names = list(series)
    return (
        alt.Chart(pd.DataFrame(rows), height=HEIGHT)
        .mark_bar(cornerRadiusEnd=3)
        .encode(
            x=alt.X("component:N", title=component_title, axis=alt.Axis(labelAngle=0, labelFontSize=14)),
            xOffset=alt.XOffset("series:N", sort=names),
            y=alt.Y("value:Q", title=value_title),
            color=alt.Color("series:N", sort=names, title=None,
                            scale=alt.Scale(range=PALETTE),
                            legend=alt.Legend(orient="top", columns=2, labelLimit=320)),
            tooltip=["series:N", "component:N", alt.Tooltip("value:Q", format=".3f")],
        )
    )


def log_lines(x: Sequence[float], series: Mapping[str, Sequence[float | None]],
              x_title: str, y_title: str):
    """Lines on a log-scale y axis; None values are gaps (the caller explains why)."""
    rows = [
        {"x": xv, "series": name, "value": v}
        for name, values in series.items()
        for xv, v in zip(x, values, strict=True)
        if v is not None
    ]
    names = list(series)
    frame = pd.DataFrame(rows, columns=["x", "series", "value"])
    return (
        alt.Chart(frame, height=HEIGHT)
        .mark_line(point=alt.OverlayMarkDef(size=18), strokeWidth=2.2)
        .encode(
            x=alt.X("x:Q", title=x_title, scale=alt.Scale(domain=[min(x), max(x)], nice=False),
                    axis=alt.Axis(tickMinStep=1, format="d")),
            y=alt.Y("value:Q", title=y_title, scale=alt.Scale(type="log"),
                    axis=alt.Axis(values=decades(frame["value"]), format="~e")),
            color=alt.Color("series:N", sort=names, title=None,
                            scale=alt.Scale(domain=names, range=PALETTE[: len(names)]),
                            legend=alt.Legend(orient="top")),
            tooltip=[alt.Tooltip("x:Q", title=x_title), "series:N",
                     alt.Tooltip("value:Q", format=".4g")],
        )
    )


def decades(values, max_ticks: int = 8) -> list[float]:
    """Tick values at powers of ten spanning the data (every k-th decade if there are many).

    Vega's default log ticks put a grid line at every 1..9 x 10^k, which buries the curves.
    """
    finite = [v for v in values if v and v > 0 and math.isfinite(v)]
    if not finite:
        return [1.0]
    low, high = math.floor(math.log10(min(finite))), math.ceil(math.log10(max(finite)))
    step = max(1, math.ceil((high - low + 1) / max_ticks))
    return [10.0**k for k in range(low, high + 1, step)]


def _subscript(n: int) -> str:
    return str(n).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))
