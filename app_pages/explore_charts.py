"""Altair charts for the Explore page (data in, chart out; no Streamlit calls).

Series names arrive already translated, so the legends follow the learner's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import altair as alt
import pandas as pd

PALETTE = ["#4C78A8", "#F58518", "#54A24B", "#B279A2"]
HEIGHT = 300


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
            x=alt.X("component:N", title=component_title, axis=alt.Axis(labelAngle=0)),
            xOffset=alt.XOffset("series:N", sort=names),
            y=alt.Y("value:Q", title=value_title),
            color=alt.Color("series:N", sort=names, title=None,
                            scale=alt.Scale(range=PALETTE),
                            legend=alt.Legend(orient="bottom", columns=2, labelLimit=320)),
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
            x=alt.X("x:Q", title=x_title, axis=alt.Axis(tickMinStep=1, format="d")),
            y=alt.Y("value:Q", title=y_title,
                    scale=alt.Scale(type="log"), axis=alt.Axis(format=".0e")),
            color=alt.Color("series:N", sort=names, title=None,
                            scale=alt.Scale(domain=names, range=PALETTE[: len(names)]),
                            legend=alt.Legend(orient="bottom")),
            tooltip=[alt.Tooltip("x:Q", title=x_title), "series:N",
                     alt.Tooltip("value:Q", format=".4g")],
        )
    )


def _subscript(n: int) -> str:
    return str(n).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))
