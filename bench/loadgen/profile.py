"""Give a simulated learner a profile of its own, without login, through the app itself: the
sidebar's "New profile" form (a form of one text box), as a learner at a shared machine does.

Without it every learner of a local-mode run works in the first profile, and their drafts of the
question on screen overwrite one another (one learner's choice restored into another's form).
The app then keeps the new profile in the URL (`?profile=<id>`), so a learner who loads the page
again after a broken connection comes back to it.
"""

from __future__ import annotations

from urllib.parse import parse_qs

from streamlit.proto.WidgetStates_pb2 import WidgetState

from bench.loadgen.connection import AppTab, TabError
from bench.loadgen.page import SIDEBAR


def _profile_in(query_string: str) -> str | None:
    return (parse_qs(query_string).get("profile") or [None])[0]


async def make_own_profile(tab: AppTab, name: str) -> str:
    """Fill and submit the sidebar's one-text-box form with `name`; returns the new profile's id
    as the URL now names it."""
    forms = [(tab.page.form_fields(form_id), submit)
             for form_id, submit in tab.page.submittable_forms(area=SIDEBAR)]
    found = next(((fields[0], submit) for fields, submit in forms
                  if len(fields) == 1 and fields[0].kind == "text_input"), None)
    if found is None:
        raise TabError("new profile: no form of one text box in the sidebar")
    box, submit = found
    before = _profile_in(tab.page.query_string)
    await tab.rerun(set_values=[WidgetState(id=box.id, string_value=name)], click=submit)
    made = _profile_in(tab.page.query_string)
    if made is None or made == before:
        raise TabError(f"new profile: the URL still names profile {before!r} after the form "
                       f"was submitted")
    return made
