"""Questions: every question of the bank with the current profile's status (new / correct / wrong,
next review), filtered by topic, type, difficulty and status, searched by text in both languages;
each one opens in Practice (`practice?q=<id>`)."""

from datetime import UTC
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import streamlit as st

from app_pages.state import QuestionListPage, lang, option_labels, page_state, tr
from app_pages.widgets import progress, resources
from app_pages.widgets.current_profile import current_profile_id, frame_params
from app_pages.widgets.plain_text import markdown_escaped
from app_pages.widgets.text_limits import cut_note, limited
from quizbank.enums import Difficulty, QuestionType, Topic
from tutor.sessions.question_list import STATUS_FILTERS, Row, SearchIndex, Status, question_rows
from tutor.store import TutorError, utc_now

PAGE_SIZE = 30
BADGES = {Status.NEW: "gray", Status.CORRECT: "green", Status.WRONG: "red"}


@st.cache_resource(show_spinner=False)
def search_index() -> SearchIndex:
    """Each question's searchable text (both languages), one index per server that follows the
    live bank (rebuilt when the bank changes, issue 22)."""
    return SearchIndex()


def learner_zone():
    try:
        return ZoneInfo(st.context.timezone or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def due_label(row: Row) -> str:
    if row.due is None:
        return ""
    if row.due_now:
        return f":orange-badge[{tr('questions.due_now')}]"
    return tr("questions.due_on", date=row.due.astimezone(learner_zone()).date().isoformat())


def question_row(row: Row, title: str) -> None:
    with st.container(horizontal=True, vertical_alignment="center", gap="small",
                      key=f"question-row-{row.question_id}"):
        st.markdown(f":{BADGES[row.status]}-badge[{tr(f'questions.status.{row.status.value}')}]",
                    width="content")
        st.page_link("app_pages/practice.py", label=markdown_escaped(title), icon=":material/edit_note:",
                     query_params={"q": row.question_id, **frame_params()}, width="stretch")
        details = " · ".join((tr(f"practice.topic.{row.topic}"), tr(f"practice.type.{row.type}"),
                              tr(f"practice.difficulty.{row.difficulty}")))
        st.caption(" · ".join(filter(None, (details, due_label(row)))), width="content")


st.title(tr("questions.title"))
st.caption(tr("questions.intro"))
bank = resources.bank()

query = st.text_input(tr("questions.search"), placeholder=tr("questions.search_placeholder"),
                      icon=":material/search:", **limited("questions.query", 200))
cut_note("questions.query", 200, lang())
cols = st.columns(4)
topics = cols[0].multiselect(tr("practice.topics"), [t.value for t in Topic], key="questions.topics",
                             format_func=option_labels(lambda v: f"practice.topic.{v}"),
                             placeholder=tr("practice.any"))
types = cols[1].multiselect(tr("practice.types"), [t.value for t in QuestionType], key="questions.types",
                            format_func=option_labels(lambda v: f"practice.type.{v}"),
                            placeholder=tr("practice.any"))
levels = cols[2].multiselect(tr("practice.difficulties"), [d.value for d in Difficulty],
                             key="questions.levels", placeholder=tr("practice.any"),
                             format_func=option_labels(lambda v: f"practice.difficulty.{v}"))
statuses = cols[3].multiselect(tr("questions.status_filter"), STATUS_FILTERS, key="questions.statuses",
                               format_func=option_labels(lambda v: f"questions.filter.{v}"),
                               placeholder=tr("practice.any"))

cards = []
db = progress.store()
profile = current_profile_id()
if db is not None and profile is not None:
    try:
        cards = db.list_cards(profile)
    except TutorError as exc:
        st.warning(exc.message(lang()), icon=":material/database:")

chosen = bank.filter(topics=topics or None, types=types or None, difficulties=levels or None)
rows = question_rows(chosen, cards, now=utc_now(), query=query or "", statuses=statuses,
                     haystacks=search_index().haystacks(bank))
st.caption(tr("questions.count", n=len(rows), total=len(bank.questions)))

# A longer list only on request: the first screenful renders at once.
selection = (query, tuple(topics), tuple(types), tuple(levels), tuple(statuses))
page = page_state(QuestionListPage)
if page.shown_for != selection:
    page.shown_for, page.shown = selection, PAGE_SIZE
shown = page.shown

if not rows:
    st.info(tr("questions.none_match"), icon=":material/search_off:")
# A long title wraps inside its row (on a phone it ran off the screen's right edge).
st.html('<style>.st-key-question_list [data-testid="stPageLink"] p {white-space: normal}'
        '.st-key-question_list [data-testid="stElementContainer"] {min-width: 0}</style>')
with st.container(key="question_list"):
    for row in rows[:shown]:
        question_row(row, resources.question_title(bank.questions[row.question_id], lang()))


def show_more() -> None:
    page.shown = shown + PAGE_SIZE


if len(rows) > shown:
    st.button(tr("questions.show_more", n=min(PAGE_SIZE, len(rows) - shown), left=len(rows) - shown),
              key="questions.more", icon=":material/expand_more:",
              on_click=show_more)
