"""Practice: choose topics, types and difficulty; answer one question at a time; see why.

The question on screen and the filters are in the URL (`?q=…&seed=…&topics=…`), and the question's
state (tries, hints, what was typed) is saved as scratch work: a reload, a bookmark or a server
restart brings back the same question with the same numbers and the same text.
"""

import streamlit as st

from app_pages import state
from app_pages.state import PracticePage, lang, page_state, tr, tr_n
from app_pages.widgets import recording, resources, scratch_work
from app_pages.widgets.answer_inputs import labelled
from app_pages.widgets.current_profile import current_profile_id
from app_pages.widgets.question_view import question_view
from quizbank.enums import Difficulty, QuestionType, Topic
from tutor.sessions.practice import (
    FILTER_PARAMS,
    QUESTION_PARAM,
    SEED_PARAM,
    Filters,
    filters_from_params,
    linked_question,
    matching_ids,
    practice_params,
)
from tutor.sessions.question_session import from_scratch, to_scratch

PAGE = "practice"
FILTER_KEYS = {"topics": "practice.f.topics", "types": "practice.f.types",
               "difficulties": "practice.f.levels"}
CHOICES = {"topics": [t.value for t in Topic], "types": [t.value for t in QuestionType],
           "difficulties": [d.value for d in Difficulty]}

st.title(tr("practice.title"))
st.caption(tr("practice.intro"))
record = recording.recorder()
rerate = recording.rerater()
bank = resources.bank()
catalog = resources.catalog()
page = page_state(PracticePage)
run = state.question_queue(PAGE, current_profile_id())
first_visit = state.first_visit(PAGE, current_profile_id())

if first_visit:  # a reload or a link: the URL's filters, before the widgets are drawn
    linked = filters_from_params(st.query_params, CHOICES)
    for name, key in FILTER_KEYS.items():
        state.default_widget_value(key, list(getattr(linked, name)))

with st.expander(tr("practice.filters"), icon=":material/tune:"):
    cols = st.columns(3)
    filters = Filters.of(
        cols[0].multiselect(tr("practice.topics"), CHOICES["topics"], key=FILTER_KEYS["topics"],
                            format_func=labelled("practice.topic.", Topic),
                            placeholder=tr("practice.any")),
        cols[1].multiselect(tr("practice.types"), CHOICES["types"], key=FILTER_KEYS["types"],
                            format_func=labelled("practice.type.", QuestionType),
                            placeholder=tr("practice.any")),
        cols[2].multiselect(tr("practice.difficulties"), CHOICES["difficulties"],
                            key=FILTER_KEYS["difficulties"],
                            format_func=labelled("practice.difficulty.", Difficulty),
                            placeholder=tr("practice.any")),
    )
ids = matching_ids(bank, filters)
st.caption(tr_n("practice.count", len(ids)))

link = linked_question(st.query_params)
requested = state.take_requested()
filters_changed = state.filters_changed(PAGE, filters)
unknown = None


def open_linked(question_id: str, seed: int | None, scratch) -> bool:
    """Open the question a link names, from the scratch work when it is that very question."""
    question = catalog.get(question_id)
    if question is None:
        return False
    restored = from_scratch(scratch, question) if scratch else None
    if restored is not None and (seed is None or restored.seed in (None, seed)):
        run.resume(restored)
    else:
        run.open(question, seed=seed)
    return True


if requested in catalog:
    run.open(catalog[requested])
elif first_visit:
    scratch = scratch_work.load(PAGE)
    if link.question_id is not None:
        if not open_linked(link.question_id, link.seed, scratch):
            unknown = link.question_id
    elif isinstance(scratch, dict) and scratch.get("question_id") in catalog:
        open_linked(scratch["question_id"], None, scratch)
    if run.current is None:
        run.next(catalog, ids)
elif link.question_id not in (None, page.url_question):
    # the URL was changed by hand in this tab (not by this page)
    if not open_linked(link.question_id, link.seed, None):
        unknown = link.question_id
        run.next(catalog, ids)
elif filters_changed or run.current is None:
    run.next(catalog, ids)

if unknown is not None:
    st.warning(tr("practice.unknown_question"), icon=":material/search_off:")
    st.code(unknown, language=None)  # the link's text, verbatim


def sync_url(filters: Filters) -> None:
    """The question on screen and the filters, into the URL (the language is the shell's)."""
    wanted = practice_params(run.current, filters)
    page.url_question = wanted.get(QUESTION_PARAM)
    now = st.query_params.to_dict()  # read once: each lookup goes through the run's context
    for name in (QUESTION_PARAM, SEED_PARAM, *FILTER_PARAMS.values()):
        if name in wanted and now.get(name) != wanted[name]:
            st.query_params[name] = wanted[name]
        elif name not in wanted and name in now:
            del st.query_params[name]


@st.fragment
def current_question() -> None:
    """The question on screen. A fragment: submitting, a hint or the next question reruns only
    this part, not the shell, the sidebar and the filters (the submit-to-verdict time)."""
    session = run.current
    sync_url(filters)
    if session is None:
        st.info(tr("practice.none_match"))
        return
    question = catalog[session.question_id]
    question_view(question, session, lang(), key=PAGE, record=record, rerate=rerate,
                  go_to=lambda qid: run.open(catalog[qid]))
    st.button(tr("practice.next" if session.revealed else "practice.skip"), key="practice.next",
              icon=":material/skip_next:", on_click=run.next, args=(catalog, ids))
    scratch_work.sync(PAGE, to_scratch(session))


current_question()
