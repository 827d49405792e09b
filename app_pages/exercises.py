"""Exercises: a generated problem with fresh numbers, answered in a form and graded per answer.

The problem is named by (template, seed, difficulty), mirrored into the URL so the link reopens it.
Building and grading live in `tutor.exercises`; this page only lays them out.
"""

import time

import streamlit as st

from app_pages.state import lang, option_labels, tr
from tutor import exercises as ex
from tutor.i18n import has

TEMPLATE_KEY, SEED_KEY, DIFFICULTY_KEY = "ex_template", "ex_seed", "ex_difficulty"
WRITTEN_KEY, RESULT_KEY, READING_KEY, STARTED_KEY = "ex_written", "ex_result", "ex_reading", "ex_started"


@st.cache_data(max_entries=512, show_spinner=False)
def build_exercise(template: str, seed: int, difficulty: str) -> ex.Exercise:
    # Pure in (template, seed, difficulty): the same problem for everyone, so share the cache.
    return ex.build_exercise(template, seed, difficulty)


@st.cache_data(show_spinner=False)
def templates() -> list[dict]:
    return ex.list_exercise_templates()


def choose_problem(names: list[str]) -> tuple[str, int, str]:
    """The problem to show: a new link wins over the session, which wins over the defaults."""
    linked = ex.parse_share_params(dict(st.query_params), names)
    if linked and linked != st.session_state.get(WRITTEN_KEY):
        st.session_state[TEMPLATE_KEY], st.session_state[SEED_KEY], st.session_state[DIFFICULTY_KEY] = linked
    elif "template" in st.query_params and not linked and WRITTEN_KEY not in st.session_state:
        st.warning(tr("exercises.bad_link"))
    st.session_state.setdefault(TEMPLATE_KEY, names[0])
    st.session_state.setdefault(SEED_KEY, ex.draw_seed())
    st.session_state.setdefault(DIFFICULTY_KEY, ex.DEFAULT_DIFFICULTY)

    pick, level, button = st.columns([5, 3, 2], vertical_alignment="bottom")
    pick.selectbox(tr("exercises.template"), names, key=TEMPLATE_KEY,
                   format_func=option_labels(lambda name: f"exercises.template_title.{name}"))
    level.segmented_control(tr("exercises.difficulty"), ex.DIFFICULTIES, key=DIFFICULTY_KEY,
                            format_func=option_labels(lambda d: f"common.difficulty.{d}"),
                            required=True)
    button.button(tr("exercises.new_variant"), help=tr("exercises.new_variant_help"),
                  icon=":material/casino:", on_click=new_variant, width="stretch")
    return st.session_state[TEMPLATE_KEY], st.session_state[SEED_KEY], st.session_state[DIFFICULTY_KEY]


def template_title(name: str) -> str:
    key = f"exercises.template_title.{name}"
    return tr(key) if has(key, lang()) else name


def new_variant() -> None:
    st.session_state[SEED_KEY] = ex.draw_seed()


def share_link(problem: ex.Exercise) -> str:
    params = problem.share_params() | {"lang": lang()}
    query = "&".join(f"{k}={v}" for k, v in params.items())
    base = (getattr(st.context, "url", None) or "").split("?")[0]
    return f"{base}?{query}"


def answer_label(name: str) -> str:
    key = f"exercises.answer.{name}"
    return tr(key) if has(key, lang()) else name


def placeholder(expected) -> str:
    shape = ex.answer_shape(expected)
    example = ex.shape_example(shape)
    if not shape:
        return tr("exercises.placeholder.number", example=example)
    if len(shape) == 1:
        return tr("exercises.placeholder.vector", n=shape[0], example=example)
    return tr("exercises.placeholder.matrix", rows=shape[0], cols=shape[1], example=example)


def answer_form(problem: ex.Exercise, form_id: str) -> None:
    kind, value = ex.tolerance_value(problem.tolerance)
    with st.form(f"ex_form_{form_id}", border=True):
        st.markdown(f"**{tr('exercises.your_answers')}**")
        st.caption(tr("exercises.input_help", example="2.05, -1.5e-3",
                      tolerance=tr(f"exercises.tolerance.{kind}", value=value)))
        typed = {name: st.text_input(answer_label(name), key=f"ex_answer_{form_id}_{name}",
                                     placeholder=placeholder(problem.expected[name]))
                 for name in problem.asks}
        read_col, submit_col = st.columns([1, 1])
        reading = read_col.form_submit_button(tr("exercises.check_reading"),
                                              icon=":material/visibility:", width="stretch")
        submitted = submit_col.form_submit_button(tr("exercises.submit"), type="primary",
                                                  icon=":material/check:", width="stretch")
    if reading:
        st.session_state[READING_KEY] = (form_id, typed)
    if submitted:
        started = st.session_state.get(STARTED_KEY, (None, time.monotonic()))[1]
        result = ex.grade_exercise(problem, typed, lang=lang(), seconds=time.monotonic() - started)
        st.session_state[RESULT_KEY] = (form_id, result)


def show_reading(typed: dict) -> None:
    import grader

    with st.container(border=True):
        st.markdown(f"**{tr('exercises.reading_title')}**")
        for name, text in typed.items():
            st.markdown(answer_label(name))
            if not text.strip():
                st.caption(tr("exercises.reading_empty"))
                continue
            preview = grader.preview(text, lang=lang())
            if preview.get("interpreted"):
                st.latex(preview["interpreted"])
                if preview.get("note"):  # the grader's own sentence, no learner text in it
                    st.caption(preview["note"])
            else:
                # The grader's message may quote the learner's text: never render it as Markdown.
                st.error(tr("exercises.reading_error"), icon=":material/error:")
                details = "\n".join(filter(None, (preview.get("error"), preview.get("caret"))))
                st.code(details, language=None, wrap_lines=True)


def show_result(result: ex.ExerciseResult) -> None:
    total, correct = len(result.answers), sum(a.correct for a in result.answers)
    message = tr(f"exercises.result.{result.verdict}", correct=correct, total=total)
    {"correct": st.success, "partial": st.warning}.get(result.verdict, st.error)(message)
    for answer in result.answers:
        icon = ":material/check_circle:" if answer.correct else ":material/cancel:"
        color = "green" if answer.correct else "red"
        key = ex.format_value(result.exercise.expected[answer.name])
        with st.container(border=True):
            st.markdown(f":{color}[{icon}] **{answer_label(answer.name)}** · "
                        f":{color}[{tr('common.verdict.' + _verdict_key(answer.verdict))}]")
            if answer.correct:
                continue
            if not answer.answer:
                st.caption(tr("exercises.blank"))
            else:
                st.caption(tr("exercises.your_answer"))
                st.code(answer.answer, language=None)  # learner text: never Markdown or HTML
                if answer.interpreted:
                    st.caption(tr("exercises.interpreted"))
                    st.latex(answer.interpreted)
                if answer.feedback or answer.error:
                    # Grader feedback may quote the learner's text under a caret: keep it verbatim.
                    st.code(answer.feedback or answer.error, language=None, wrap_lines=True)
            st.caption(f"{tr('exercises.key')}: `{key}`")


def _verdict_key(verdict: str) -> str:
    return "invalid" if verdict == "error" else verdict


names = [t["name"] for t in templates()]
st.title(tr("exercises.title"))
st.caption(tr("exercises.intro"))
template, seed, difficulty = choose_problem(names)
problem = build_exercise(template, seed, difficulty)
form_id = f"{template}_{seed}_{difficulty}"
st.query_params.update(problem.share_params())
st.session_state[WRITTEN_KEY] = (template, seed, difficulty)
if st.session_state.get(STARTED_KEY, (None,))[0] != form_id:
    st.session_state[STARTED_KEY] = (form_id, time.monotonic())

with st.container(border=True):
    head, link = st.columns([3, 1], vertical_alignment="center")
    head.subheader(tr("exercises.problem"))
    description = next(t["description"] for t in templates() if t["name"] == template)
    head.caption(" · ".join(((description.get(lang()) or template_title(template)).rstrip("。."),
                             tr(f"common.difficulty.{difficulty}"), tr("exercises.seed", seed=seed))))
    with link.popover(tr("exercises.share"), icon=":material/link:"):
        st.caption(tr("exercises.share_help"))
        st.code(share_link(problem), language=None)
    st.markdown(problem.prompt[lang()])

problem_col, answer_col = st.columns([1, 1], gap="large")
with problem_col:
    answer_form(problem, form_id)
    reading = st.session_state.get(READING_KEY)
    if reading and reading[0] == form_id:
        show_reading(reading[1])
with answer_col:
    graded = st.session_state.get(RESULT_KEY)
    attempted = bool(graded and graded[0] == form_id)
    if attempted:
        show_result(graded[1])
    else:
        st.info(tr("exercises.solution_hint"), icon=":material/menu_book:")
if attempted:
    with st.expander(tr("exercises.solution"), expanded=True, icon=":material/menu_book:"):
        st.markdown(problem.solution[lang()])
