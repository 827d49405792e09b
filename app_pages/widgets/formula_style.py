"""Formulas stay whole on a narrow screen.

KaTeX lets an inline formula wrap after a relation or an operator, so on a phone (390 px) a
prompt's `∂L/∂x_l = ∂L/∂x_L (1 + …)` broke mid-expression over two lines. Here an inline formula
never wraps; one wider than its column scrolls sideways inside its own box instead of running off
the screen. Display formulas already scroll (Streamlit's own style).
"""

from __future__ import annotations

import streamlit as st

FORMULA_CSS = (
    "<style>"
    ".katex {white-space: nowrap}"
    "[data-testid=stMarkdownContainer] .katex:not(.katex-display .katex) {"
    "display: inline-block; max-width: 100%; overflow-x: auto; overflow-y: hidden;"
    "vertical-align: middle; padding: 0.15em 0}"
    "</style>"
)


def keep_formulas_whole() -> None:
    """Add the style to this page (a style-only `st.html` takes no room on the page)."""
    st.html(FORMULA_CSS)
