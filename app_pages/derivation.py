"""Derivation checker: type or paste lines, declare names (or pick a preset), check each line.

Presets: the bank's derivation questions (their start as the first line), and the source texts'
derivations as they write them (quizbank/text_derivations.yaml, pasted as one block in the
learner's language, with their declarations).

What the learner typed is kept in the URL (a share link that a reload also keeps) while it fits in
`MAX_LINK_CHARS`; past that the page offers to save it (the profile's scratch work, under a random
id) and the URL then carries only `?share=<profile>-<id>`. A link that carries lines, or a saved
derivation's id, opens them checked.
"""

import streamlit as st

from app_pages import state
from app_pages.state import DerivationPage, keep_in_url, lang, page_state, tr, tr_n
from app_pages.widgets import progress, resources
from app_pages.widgets.current_profile import current_profile_id
from app_pages.widgets.derivation_view import check, report_view
from app_pages.widgets.text_limits import cut_note, limited
from quizbank.text_derivations import text_derivations
from tutor.sessions.derivation_check import (
    FIELD_LIMITS,
    MAX_LINES,
    MAX_LINK_CHARS,
    NAME_FIELDS,
    PARAMS,
    SHARE_KEY_PREFIX,
    SHARE_PARAM,
    VECTOR_FIELDS,
    DerivationFields,
    NameProblem,
    fields_from_saved,
    new_share_token,
    parse_share,
    share_value,
)
from tutor.store import TutorError
from tutor.store.scratch import load_scratch, save_scratch

st.title(tr("derivation.title"))
st.caption(tr("derivation.intro"))

presets = {q.id: q for q in resources.bank().by_type("derivation")}
text_presets = text_derivations()  # their ids (text-…, paper-…) are not question ids
KEYS = {name: f"derivation.{name}" for name in PARAMS}  # field -> widget key
MORE_NAME_FIELDS = NAME_FIELDS[3:]  # integers, families, positive, nonnegative: folded away
RANDOM_FIELDS = ("random", "independent", "zero_mean")  # folded away with them
page = page_state(DerivationPage)


def saved_fields(share: tuple[int, str]) -> DerivationFields | None:
    """The derivation a `?share=` link names, read from the store (None if not there)."""
    db = progress.store()
    if db is None:
        return None
    try:
        data = load_scratch(db, share[0], SHARE_KEY_PREFIX + share[1])
    except (TutorError, ValueError):
        return None
    return fields_from_saved(data)


def restore_fields() -> None:
    """On arriving at the page (its widgets are gone after another page): a link's fields (in
    the URL, or a saved derivation's id), else this tab's last fields. A link's lines
    are checked at once."""
    if all(state.has_widget_value(key) for key in KEYS.values()):
        return
    linked = DerivationFields.from_params(st.query_params)
    share = parse_share(st.query_params.get(SHARE_PARAM))
    if share is not None and linked is None:
        linked = saved_fields(share)
        if linked is None:
            page.link_not_found = True
        else:
            page.shared = (linked, share_value(*share))
    fields = linked or page.fields or DerivationFields()
    if fields.preset not in presets and fields.preset not in text_presets:
        fields = DerivationFields(**{**fields.params(), "preset": ""})
    for name, key in KEYS.items():
        state.set_widget_value(key, getattr(fields, name))
    if linked is not None and not linked.is_empty:
        page.checked = fields


def load_preset() -> None:
    """Fill the inputs from a bank derivation question (its start as the first line), or from a
    text's derivation (its block as written, in the learner's language)."""
    chosen = state.widget_value(KEYS["preset"])
    if (text := text_presets.get(chosen)) is not None:
        source, target, lines = text, "", text.lines.get(lang())
    elif (q := presets.get(chosen)) is not None:
        source, target, lines = q, q.target, q.start + "\n"
    else:
        return
    values = {name: ", ".join(getattr(source, name)) for name in NAME_FIELDS + VECTOR_FIELDS}
    values |= {"relations": "; ".join(source.relations), "target": target, "lines": lines}
    values |= {"random": ", ".join(source.random), "zero_mean": ", ".join(source.zero_mean),
               "independent": "; ".join(", ".join(g) for g in source.independent)}
    for name, value in values.items():
        state.set_widget_value(KEYS[name], value)


def name_problem(problem: NameProblem) -> str:
    field = tr(f"derivation.field.{problem.field}")
    if problem.not_random:
        return tr("derivation.problem.not_random", field=field, name=problem.name)
    if problem.first_field is None:
        return tr("derivation.problem.bad_name", field=field, name=problem.name)
    return tr("derivation.problem.twice", field=field, name=problem.name,
              first=tr(f"derivation.field.{problem.first_field}"))


restore_fields()
st.selectbox(  # "" is "my own derivation": a real option, so no untranslated placeholder shows
    tr("derivation.preset"), ["", *text_presets, *presets], key=KEYS["preset"],
    on_change=load_preset,
    format_func={"": tr("derivation.no_preset"),
                 **{tid: tr("derivation.text_preset", title=t.title.get(lang()))
                    for tid, t in text_presets.items()},
                 **{qid: resources.question_title(q, lang()) for qid, q in presets.items()}}.get,
)
if (chosen := presets.get(state.widget_value(KEYS["preset"]))) is not None:
    st.markdown(chosen.prompt.get(lang()))
elif (text := text_presets.get(state.widget_value(KEYS["preset"]))) is not None:
    st.caption(tr("derivation.text_preset_source", section=text.source.section))

# No form: each field is saved (to the URL) when the learner leaves it, so a reload keeps it.
# Limits kept by text_limits (Streamlit's max_chars would drop a whole paste that passes them).
cols = st.columns(3)
for col, name, example in ((cols[0], "symbols", "x, y"), (cols[1], "functions", "F, sigma"),
                           (cols[2], "matrices", "W, g")):
    col.text_input(tr(f"derivation.{name}_label"), placeholder=example,
                   **limited(KEYS[name], FIELD_LIMITS[name]))
    cut_note(KEYS[name], FIELD_LIMITS[name], lang(), where=col)
st.text_input(tr("derivation.target_label"), placeholder="1 + F'(x)",
              **limited(KEYS["target"], FIELD_LIMITS["target"]))
cut_note(KEYS["target"], FIELD_LIMITS["target"], lang())
# The rest of the declaration schema, folded away until used (a link or preset that fills one
# opens it).
more = any(state.widget_value(KEYS[name])
           for name in (*MORE_NAME_FIELDS, "relations", *VECTOR_FIELDS, *RANDOM_FIELDS))
with st.expander(tr("derivation.more_declarations"), expanded=more, icon=":material/tune:"):
    more_cols = st.columns(4)
    for column, name, example in zip(more_cols, MORE_NAME_FIELDS, ("n, L, l", "x, F", "n", "l"),
                                     strict=True):
        column.text_input(tr(f"derivation.{name}_label"), placeholder=example,
                          help=tr(f"derivation.{name}_help"),
                          **limited(KEYS[name], FIELD_LIMITS[name]))
        cut_note(KEYS[name], FIELD_LIMITS[name], lang(), where=column)
    # Vectors (issue 25): one box, before the relations that may define one (y = x + Wx).
    st.text_input(tr("derivation.vectors_label"), placeholder="x, y, F",
                  help=tr("derivation.vectors_help"),
                  **limited(KEYS["vectors"], FIELD_LIMITS["vectors"]))
    cut_note(KEYS["vectors"], FIELD_LIMITS["vectors"], lang())
    # One line (a second text area would be one more box a learner pastes into by mistake).
    st.text_input(tr("derivation.relations_label"), placeholder="x_{l+1} = x_l + F_l(x_l)",
                  help=tr("derivation.relations_help"),
                  **limited(KEYS["relations"], FIELD_LIMITS["relations"]))
    cut_note(KEYS["relations"], FIELD_LIMITS["relations"], lang())
    # Random variables (issue 25): E, Var, Cov and D become moments once one is declared.
    random_cols = st.columns(3)
    for column, name, example in zip(random_cols, RANDOM_FIELDS, ("w, x", "w, x", "w"),
                                     strict=True):
        column.text_input(tr(f"derivation.{name}_label"), placeholder=example,
                          help=tr(f"derivation.{name}_help"),
                          **limited(KEYS[name], FIELD_LIMITS[name]))
        cut_note(KEYS[name], FIELD_LIMITS[name], lang(), where=column)
st.text_area(tr("derivation.lines_label"), height=200,
             placeholder="diff(x + F(x), x)\ndiff(x, x) + diff(F(x), x)\n1 + F'(x)",
             help=tr("derivation.lines_help"), **limited(KEYS["lines"], FIELD_LIMITS["lines"]))
cut_note(KEYS["lines"], FIELD_LIMITS["lines"], lang())
fields = DerivationFields(**{name: state.widget_value(key) or "" for name, key in KEYS.items()})
page.fields = fields


def save_for_link(fields: DerivationFields) -> None:
    """Save a derivation too long for a link under a random id; the link then carries the id."""
    db, profile = progress.store(), current_profile_id()
    token = new_share_token()
    try:
        if db is None or profile is None:  # no store: the sidebar says why
            raise ValueError("no progress store")
        save_scratch(db, profile, SHARE_KEY_PREFIX + token, fields.params())
    except (TutorError, ValueError):
        page.save_failed = True
        return
    page.shared = (fields, share_value(profile, token))


if page.link_not_found:
    page.link_not_found = False
    st.warning(tr("derivation.share_not_found"), icon=":material/link_off:")
fits = fields.fits_in_link()
shared = page.shared
saved = not fits and shared is not None and shared[0] == fields
for name in PARAMS:
    keep_in_url(name, fields.params().get(name) if fits else None)
keep_in_url(SHARE_PARAM, shared[1] if saved else None)
if saved:
    st.caption(tr("derivation.saved_link_note"))
elif not fits:
    st.caption(tr("derivation.too_long_for_link", n=fields.link_length(), limit=MAX_LINK_CHARS))
    st.button(tr("derivation.save_for_link"), icon=":material/link:", key="derivation.save_link",
              on_click=save_for_link, args=(fields,))
    if page.save_failed:
        page.save_failed = False
        st.warning(tr("derivation.save_failed"), icon=":material/database:")
elif not fields.is_empty:
    st.caption(tr("derivation.link_note"))

if st.button(tr("derivation.check"), type="primary", icon=":material/rule:", key="derivation.check"):
    page.checked = fields

if page.checked == fields:
    decl, problems = fields.declarations()
    lines = [line for line in fields.lines.splitlines() if line.strip()]
    if problems:
        st.error(tr("derivation.bad_names"), icon=":material/error:")
        st.text("\n".join(name_problem(p) for p in problems))  # quotes learner text: plain
    if not lines:
        st.warning(tr("derivation.no_lines"))
    else:
        if len(lines) > MAX_LINES:
            st.warning(tr("derivation.too_many_lines", max=MAX_LINES, n=len(lines)))
        report = check(lines, decl, lang(), target=fields.target or None)
        if report.all_verified:
            st.success(tr_n("derivation.all_verified", len(report.checked)), icon=":material/verified:")
        elif report.first_broken is not None:
            st.error(tr("derivation.first_broken", n=report.first_broken.number), icon=":material/cancel:")
        report_view(report)
