"""Derivation checker: type or paste lines, declare names (or pick a bank preset), check each line."""

import streamlit as st

from app_pages.flows.derivation_check import declarations_from_text
from app_pages.state import lang, tr
from app_pages.widgets import resources
from app_pages.widgets.derivation_view import check, report_view

st.title(tr("derivation.title"))
st.caption(tr("derivation.intro"))

presets = {q.id: q for q in resources.bank().by_type("derivation")}
resources.warm_grader()
FIELDS = ("derivation.symbols", "derivation.functions", "derivation.matrices",
          "derivation.target", "derivation.lines")


def load_preset() -> None:
    """Fill the inputs from a bank derivation question (its start as the first line)."""
    q = presets.get(st.session_state["derivation.preset"])
    if q is None:
        return
    values = (", ".join(q.symbols), ", ".join(q.functions), ", ".join(q.matrices), q.target,
              q.start + "\n")
    for key, value in zip(FIELDS, values, strict=True):
        st.session_state[key] = value


st.selectbox(
    tr("derivation.preset"), [None, *presets], key="derivation.preset", on_change=load_preset,
    format_func={None: tr("derivation.no_preset"),
                 **{qid: resources.question_title(q, lang()) for qid, q in presets.items()}}.get,
)
if (chosen := presets.get(st.session_state.get("derivation.preset"))) is not None:
    st.markdown(chosen.prompt.get(lang()))

with st.form("derivation.form", enter_to_submit=False):
    cols = st.columns(3)
    symbols = cols[0].text_input(tr("derivation.symbols_label"), key=FIELDS[0], placeholder="x, y")
    functions = cols[1].text_input(tr("derivation.functions_label"), key=FIELDS[1], placeholder="F, sigma")
    matrices = cols[2].text_input(tr("derivation.matrices_label"), key=FIELDS[2], placeholder="W, g")
    target = st.text_input(tr("derivation.target_label"), key=FIELDS[3], placeholder="1 + F'(x)")
    text = st.text_area(tr("derivation.lines_label"), key=FIELDS[4], height=200,
                        placeholder="diff(x + F(x), x)\ndiff(x, x) + diff(F(x), x)\n1 + F'(x)",
                        help=tr("derivation.lines_help"))
    checked = st.form_submit_button(tr("derivation.check"), type="primary", icon=":material/rule:")

if checked:
    decl, problems = declarations_from_text(symbols, functions, matrices)
    lines = [line for line in text.splitlines() if line.strip()]
    if problems:
        st.error(tr("derivation.bad_names"), icon=":material/error:")
        st.code("\n".join(problems), language=None)
    elif not lines:
        st.warning(tr("derivation.no_lines"))
    else:
        report = check(lines, decl, lang(), target=target or None)
        if report.all_verified:
            st.success(tr("derivation.all_verified", n=len(report.lines)), icon=":material/verified:")
        elif report.first_broken is not None:
            st.error(tr("derivation.first_broken", n=report.first_broken.number), icon=":material/cancel:")
        report_view(report)
