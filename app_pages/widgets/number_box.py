"""A box for a whole number within limits that says so when the typed text is refused.

Streamlit's `st.number_input` keeps its previous value without a word when the learner types a
value out of range or in a form it does not take (`99999999999999999999` stayed on screen while
the chart used the old seed; `1e9` became 1). This box is a text box read here: anything that is
not a whole number within the limits is refused with a message in the learner's language naming
the limits and the value still in use (the last accepted one). The typed text is never echoed
back as Markdown.
"""

from __future__ import annotations

import streamlit as st

from app_pages.state import beside_widget, default_widget_value, keep_beside_widget, tr
from app_pages.widgets.text_limits import limited

MAX_TYPED = 40  # long enough to type a wrong number and read the message, short enough to show


def parse_whole(text: str, low: int, high: int) -> int | None:
    """`text` as a whole number in [low, high] (ASCII digits, an optional sign), else None."""
    cleaned = text.strip().replace(",", "").replace("_", "")
    digits = cleaned[1:] if cleaned[:1] in "+-" else cleaned
    if not digits or not digits.isascii() or not digits.isdigit() or len(digits) > 18:
        return None
    value = int(cleaned)
    return value if low <= value <= high else None


def whole_number_box(label: str, *, low: int, high: int, default: int, key: str,
                     container=None, message_to=None) -> int:
    """Draw the box in `container` (default: the page) and return the number in use; a refusal
    goes to `message_to` (default: the box's container; a narrow column can send it below)."""
    where = container if container is not None else st
    say = message_to if message_to is not None else where
    default_widget_value(key, str(default))
    text = where.text_input(label, autocomplete="off",
                            help=tr("common.number_box.help", low=f"{low:,}", high=f"{high:,}"),
                            **limited(key, MAX_TYPED))  # anything longer is refused below
    value = parse_whole(text, low, high)
    if value is None:
        kept = beside_widget(key, "accepted", default)
        say.error(tr("common.number_box.refused", low=f"{low:,}", high=f"{high:,}", kept=kept),
                    icon=":material/block:")
        return kept
    keep_beside_widget(key, "accepted", value)
    return value
