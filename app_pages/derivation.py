"""Derivation checker: type or paste lines, declare names (or pick a bank preset), check each line.

What the learner typed is kept in the URL (a share link that a reload also keeps) while it fits in
`MAX_LINK_CHARS`; past that the page says so and keeps it for this tab only. A link that carries
lines opens them checked.
"""

import streamlit as st

from app_pages.flows.derivation_check import (
    MAX_LINES,
    MAX_LINK_CHARS,
    PARAMS,
    DerivationDraft,
    NameProblem,
    declarations_from_text,
)
from app_pages.state import keep_in_url, lang, tr
from app_pages.widgets import resources
from app_pages.widgets.derivation_view import check, report_view

st.title(tr("derivation.title"))
st.caption(tr("derivation.intro"))

presets = {q.id: q for q in resources.bank().by_type("derivation")}
resources.warm_grader()
KEYS = {name: f"derivation.{name}" for name in PARAMS}  # draft field -> widget key
_DRAFT, _CHECKED = "derivation.draft", "derivation.checked"


def restore_fields() -> None:
    """On arriving at the page (its widgets are gone after another page): a link's draft, else
    this tab's last draft. A link's lines are checked at once."""
    if all(key in st.session_state for key in KEYS.values()):
        return
    linked = DerivationDraft.from_params(st.query_params)
    draft = linked or st.session_state.get(_DRAFT) or DerivationDraft()
    if draft.preset not in presets:
        draft = DerivationDraft(**{**draft.params(), "preset": ""})
    for name, key in KEYS.items():
        st.session_state[key] = getattr(draft, name)
    if linked is not None and not linked.is_empty:
        st.session_state[_CHECKED] = draft


def load_preset() -> None:
    """Fill the inputs from a bank derivation question (its start as the first line)."""
    q = presets.get(st.session_state[KEYS["preset"]])
    if q is None:
        return
    values = {"symbols": ", ".join(q.symbols), "functions": ", ".join(q.functions),
              "matrices": ", ".join(q.matrices), "target": q.target, "lines": q.start + "\n"}
    for name, value in values.items():
        st.session_state[KEYS[name]] = value


def name_problem(problem: NameProblem) -> str:
    field = tr(f"derivation.field.{problem.field}")
    if problem.first_field is None:
        return tr("derivation.problem.bad_name", field=field, name=problem.name)
    return tr("derivation.problem.twice", field=field, name=problem.name,
              first=tr(f"derivation.field.{problem.first_field}"))


restore_fields()
st.selectbox(  # "" is "my own derivation": a real option, so no untranslated placeholder shows
    tr("derivation.preset"), ["", *presets], key=KEYS["preset"], on_change=load_preset,
    format_func={"": tr("derivation.no_preset"),
                 **{qid: resources.question_title(q, lang()) for qid, q in presets.items()}}.get,
)
if (chosen := presets.get(st.session_state.get(KEYS["preset"]))) is not None:
    st.markdown(chosen.prompt.get(lang()))

# No form: each field is saved (to the URL) when the learner leaves it, so a reload keeps it.
cols = st.columns(3)
cols[0].text_input(tr("derivation.symbols_label"), key=KEYS["symbols"], placeholder="x, y", max_chars=300)
cols[1].text_input(tr("derivation.functions_label"), key=KEYS["functions"], placeholder="F, sigma",
                   max_chars=300)
cols[2].text_input(tr("derivation.matrices_label"), key=KEYS["matrices"], placeholder="W, g", max_chars=300)
st.text_input(tr("derivation.target_label"), key=KEYS["target"], placeholder="1 + F'(x)", max_chars=500)
st.text_area(tr("derivation.lines_label"), key=KEYS["lines"], height=200, max_chars=4000,
             placeholder="diff(x + F(x), x)\ndiff(x, x) + diff(F(x), x)\n1 + F'(x)",
             help=tr("derivation.lines_help"))
draft = DerivationDraft(**{name: st.session_state.get(key) or "" for name, key in KEYS.items()})
st.session_state[_DRAFT] = draft

fits = draft.fits_in_link()
for name in PARAMS:
    keep_in_url(name, draft.params().get(name) if fits else None)
if not fits:
    st.caption(tr("derivation.too_long_for_link", n=draft.link_length(), limit=MAX_LINK_CHARS))
elif not draft.is_empty:
    st.caption(tr("derivation.link_note"))

if st.button(tr("derivation.check"), type="primary", icon=":material/rule:", key="derivation.check"):
    st.session_state[_CHECKED] = draft

if st.session_state.get(_CHECKED) == draft:
    decl, problems = declarations_from_text(draft.symbols, draft.functions, draft.matrices)
    lines = [line for line in draft.lines.splitlines() if line.strip()]
    if problems:
        st.error(tr("derivation.bad_names"), icon=":material/error:")
        st.text("\n".join(name_problem(p) for p in problems))  # quotes learner text: plain
    if not lines:
        st.warning(tr("derivation.no_lines"))
    else:
        if len(lines) > MAX_LINES:
            st.warning(tr("derivation.too_many_lines", max=MAX_LINES, n=len(lines)))
        report = check(lines, decl, lang(), target=draft.target or None)
        if report.all_verified:
            st.success(tr("derivation.all_verified", n=len(report.lines)), icon=":material/verified:")
        elif report.first_broken is not None:
            st.error(tr("derivation.first_broken", n=report.first_broken.number), icon=":material/cancel:")
        report_view(report)
