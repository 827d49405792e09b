"""Exercises: hand computations with fresh numbers. Each compute template is a generated question
(`tutor.sessions.exercises`), answered, graded and recorded like any Practice question.

The problem is named by (template, seed, difficulty), kept in the URL so a reload or a shared link
reopens the same numbers; the typed answers and tries are saved as scratch work. The problem's
numbers can be copied as NumPy or MATLAB assignments, to check a hand computation in code.
"""

import streamlit as st

from app_pages import state
from app_pages.state import ExercisesPage, lang, option_labels, page_state, tr
from app_pages.widgets import recording, resources, scratch_work
from app_pages.widgets.current_profile import current_profile_id
from app_pages.widgets.question_view import question_view
from tutor.i18n import has
from tutor.sessions.exercises import (
    CODE_DIALECTS,
    DEFAULT_DIFFICULTY,
    DIFFICULTIES,
    numbers_as_code,
    parse_share_params,
)
from tutor.sessions.question_session import from_scratch, to_scratch

PAGE = "exercises"
TEMPLATE_KEY, DIFFICULTY_KEY = "ex_template", "ex_difficulty"
SHARE_PARAMS = ("template", "seed", "difficulty")

st.title(tr("exercises.title"))
st.caption(tr("exercises.intro"))
record = recording.recorder()
rerate = recording.rerater()
questions = resources.exercise_questions()  # template -> its generated question
names = list(questions)
page = page_state(ExercisesPage)
run = state.question_queue(PAGE, current_profile_id())


def problem_of(session) -> tuple | None:
    if session is None or session.variant is None:
        return None
    variant = session.variant
    return variant.template, variant.seed, variant.difficulty


def open_problem(template: str, seed: int | None, difficulty: str, scratch=None) -> None:
    """Put this problem on screen: from the scratch work when it is this very problem."""
    question = questions[template]
    restored = from_scratch(scratch, question) if scratch else None
    if restored is not None and problem_of(restored) == (template, seed, difficulty):
        run.resume(restored)
    else:
        run.open(question, seed=seed, difficulty=difficulty)
    state.set_widget_value(TEMPLATE_KEY, template)
    state.set_widget_value(DIFFICULTY_KEY, difficulty)


def new_problem() -> None:
    """The picker changed, or "New variant": the chosen template and difficulty, fresh numbers."""
    open_problem(state.widget_value(TEMPLATE_KEY), None, state.widget_value(DIFFICULTY_KEY))


linked = parse_share_params(st.query_params, names)
if state.first_visit(PAGE, current_profile_id()):
    scratch = scratch_work.load(PAGE)
    if linked is not None:
        open_problem(*linked, scratch=scratch)
    else:
        if "template" in st.query_params:
            st.warning(tr("exercises.bad_link"))
        variant = (scratch or {}).get("variant") if isinstance(scratch, dict) else None
        if isinstance(variant, dict) and variant.get("template") in questions:
            open_problem(variant["template"], variant.get("seed"), variant.get("difficulty"),
                         scratch)
        if run.current is None:
            open_problem(names[0], None, DEFAULT_DIFFICULTY)
elif linked is not None and linked != page.url_problem:
    open_problem(*linked)  # the URL was changed by hand in this tab (not by this page)

session = run.current
template, seed, difficulty = problem_of(session)
question = questions[template]
for name, value in zip(SHARE_PARAMS, (template, str(seed), difficulty), strict=True):
    if st.query_params.get(name) != value:
        st.query_params[name] = value
page.url_problem = (template, seed, difficulty)


def template_title(name: str) -> str:
    key = f"exercises.template_title.{name}"
    return tr(key) if has(key, lang()) else name


def share_link() -> str:
    query = "&".join(f"{k}={v}" for k, v in
                     {"template": template, "seed": seed, "difficulty": difficulty,
                      "lang": lang()}.items())
    base = (getattr(st.context, "url", None) or "").split("?")[0]
    return f"{base}?{query}"


pick, level, button = st.columns([5, 3, 2], vertical_alignment="bottom")
pick.selectbox(tr("exercises.template"), names, key=TEMPLATE_KEY, on_change=new_problem,
               format_func=option_labels(lambda name: f"exercises.template_title.{name}"))
level.segmented_control(tr("exercises.difficulty"), DIFFICULTIES, key=DIFFICULTY_KEY,
                        format_func=option_labels(lambda d: f"common.difficulty.{d}"),
                        required=True, on_change=new_problem)
button.button(tr("exercises.new_variant"), help=tr("exercises.new_variant_help"),
              icon=":material/casino:", on_click=new_problem, width="stretch")

with st.container(border=True):
    st.header(template_title(template))
    tools = st.container(horizontal=True, gap="small")  # wraps onto two lines on a phone
    with tools.popover(tr("exercises.copy_numbers"), icon=":material/content_copy:"):
        st.caption(tr("exercises.copy_help"))
        for tab, dialect in zip(st.tabs(["NumPy", "MATLAB"]), CODE_DIALECTS, strict=True):
            code = numbers_as_code(session.variant.params, dialect)
            if code is None:
                tab.info(tr("exercises.too_many_numbers", template=template, seed=seed,
                            difficulty=difficulty))
            else:  # st.code's own button copies the text
                tab.code(code, language="python" if dialect == "numpy" else "matlab")
    with tools.popover(tr("exercises.share"), icon=":material/link:"):
        st.caption(tr("exercises.share_help"))
        st.code(share_link(), language=None)
    question_view(question, session, lang(), key=PAGE, record=record, rerate=rerate)
scratch_work.sync(PAGE, to_scratch(session))
