"""Author: write or edit one question as YAML, see it validated and previewed as a learner sees it
in both languages, run its author and mutation tests, and save it into the instructor's folder.

Who may use it: without accounts, the person running the app is its instructor (see README).
"""

import streamlit as st

from app_pages.state import LANGUAGE_NAMES, AuthorPage, lang, page_state, set_widget_value, tr, tr_n
from app_pages.widgets import author_view as view
from app_pages.widgets import resources
from app_pages.widgets.answer_inputs import labelled
from app_pages.widgets.auth import class_mode
from app_pages.widgets.number_box import whole_number_box
from quizbank.author_templates import TYPES, template_yaml
from quizbank.authoring import (
    AuthorTestsFailed,
    SaveRefused,
    check_source,
    in_folders,
    question_yaml,
    save_source,
)
from quizbank.folders import configured_folders
from tutor.sessions.question_session import SEED_RANGE

st.title(tr("author.title"))
folders = configured_folders()
# On one machine whoever runs the app is its instructor; in a class the sign-in says who is.
intro = "author.intro_class" if class_mode() else "author.intro"
st.caption(tr(intro, folder=str(folders.author_folder)))
live = resources.live_bank()
bank = live.bank
page = page_state(AuthorPage)

if live.withheld:
    with st.expander(tr_n("author.withheld", len(live.withheld)), icon=":material/warning:",
                     expanded=True):
        for withheld in live.withheld:
            st.markdown(f"**{withheld.path}**")
            st.code("\n".join(str(p) for p in withheld.problems), language=None)
for problem in folders.problems:
    st.warning(problem)


def load(text: str, replaces: str | None, file_name: str) -> None:
    """Put a new question source in the editor (a fresh editor instance: see view.yaml_editor)."""
    page.initial = page.source = text
    page.replaces = replaces
    page.file_name = file_name
    page.version += 1
    page.results = None


FIRST_TEMPLATE = "numeric"
if page.source is None:
    load(template_yaml(FIRST_TEMPLATE), None, "my-questions.yaml")
    set_widget_value("author.kind", FIRST_TEMPLATE)  # the template box names what the editor holds

instructor_ids = sorted(q.id for q in bank if in_folders(bank, q.id, folders.instructor))
with st.container(border=True):
    start_cols = st.columns([2, 2, 1])
    kind = start_cols[0].selectbox(tr("author.template"), TYPES, key="author.kind",
                                   format_func=labelled("practice.type.", TYPES))
    if start_cols[0].button(tr("author.start_template"), key="author.load_template",
                            icon=":material/note_add:"):
        load(template_yaml(kind), None, page.file_name)
    existing = start_cols[1].selectbox(tr("author.existing"), sorted(bank.questions),
                                       index=None, key="author.existing",
                                       placeholder=tr("author.existing_placeholder"))
    if start_cols[1].button(tr("author.open"), key="author.open", icon=":material/edit:",
                            disabled=existing is None):
        mine = existing in instructor_ids
        from pathlib import Path

        load(question_yaml(bank, existing), existing if mine else None,
             Path(bank.location(existing).path).name if mine else "my-questions.yaml")
        if not mine:
            st.info(tr("author.shipped_copy"))
    plain = start_cols[2].toggle(tr("author.plain_editor"), key="author.plain",
                                 help=tr("author.plain_help"))

edit_col, preview_col = st.columns([1, 1], gap="large")
with edit_col:
    st.header(tr("author.yaml"))
    typed = view.yaml_editor(page.initial, page.version, plain)
    if typed is not None and typed != page.source:
        page.source = typed
        page.results = None
    text = page.source
    checked = check_source(text, bank, replaces=page.replaces)
    view.problems_list(checked.problems)
    view.warnings_list(checked.warnings)
    view.positive_warnings_list(checked.undeclared_positive)

    test_cols = st.columns(2)
    run_tests = test_cols[0].button(tr("author.run_tests"), key="author.run_tests",
                                    icon=":material/checklist:", disabled=not checked.ok)
    run_mutations = test_cols[1].button(tr("author.run_mutations"), key="author.run_mutations",
                                        icon=":material/bug_report:", disabled=not checked.ok)
    if checked.ok and (run_tests or run_mutations):
        from quizbank.author_tests import run_question_tests
        from quizbank.grading import grade as grade_question

        with st.spinner(tr("author.running")):
            if run_tests:
                outcomes = run_question_tests(checked.question, lambda k: "", grade_question,
                                              lang())
                page.results = ("tests", outcomes)
            else:
                from quizbank.mutations import MUTATION_TYPES, run_question_mutations

                outcomes = (run_question_mutations(checked.question, grade_question, lang=lang())
                            if isinstance(checked.question, MUTATION_TYPES) else [])
                page.results = ("mutations", outcomes)
    results = page.results
    if results is not None:
        with st.container(border=True):
            (view.author_test_results if results[0] == "tests" else view.mutation_results)(
                results[1])

    st.header(tr("author.save"))
    save_cols = st.columns([3, 1])
    file_name = save_cols[0].text_input(tr("author.file_name"),
                                        value=page.file_name,
                                        key=f"author.file.{page.version}",
                                        help=tr("author.file_help", folder=str(folders.author_folder)))
    if save_cols[1].button(tr("author.save_button"), type="primary", key="author.save_button",
                           icon=":material/save:"):
        try:
            path = save_source(text, bank, folder=folders.author_folder, file_name=file_name,
                              replaces=page.replaces)
        except AuthorTestsFailed as refused:
            failed = sum(not o.passed for o in refused.outcomes)
            st.error(tr_n("author.save_refused_tests", failed, total=len(refused.outcomes)),
                     icon=":material/block:")
            page.results = ("tests", list(refused.outcomes))
            view.author_test_results(refused.outcomes)
        except SaveRefused as refused:
            st.error(tr("author.save_refused"))
            view.problems_list(refused.problems)
        else:
            page.replaces = checked.question.id
            page.file_name = file_name
            st.success(tr("author.saved", id=checked.question.id, path=str(path)),
                       icon=":material/task_alt:")

with preview_col:
    st.header(tr("author.preview"))
    if checked.question is None:
        st.info(tr("author.preview_needs_valid"))
    else:
        seed = 1
        if checked.question.type == "generated":
            seed = whole_number_box(tr("author.seed"), low=SEED_RANGE[0], high=SEED_RANGE[1],
                                    default=7, key="author.seed")
        # The interface's language first: st.tabs opens on its first tab.
        preview_langs = sorted(LANGUAGE_NAMES, key=lambda code: code != lang())
        tabs = st.tabs([LANGUAGE_NAMES[code] for code in preview_langs])
        for tab, preview_lang in zip(tabs, preview_langs, strict=True):
            with tab:
                view.preview(checked.question, preview_lang, seed)

with st.expander(tr("author.moodle_title"), icon=":material/swap_horiz:"):
    view.moodle_tools(bank, folders)
