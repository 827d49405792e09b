"""What every session of a server process shares, each built once per process and holding no
learner's state: the bank (re-read when one of its files changes), the compute templates and the
exercise questions made from them, the progress store."""

from __future__ import annotations

import functools
import os
import re

import streamlit as st


@st.cache_resource(show_spinner=False)
def bank_cache():
    """One cache of the bank files per server: the shipped bank and the instructor folders."""
    import quizbank

    return quizbank.BankCache(quizbank.configured_folders().all)


def live_bank():
    """The bank as its files are now, with the files withheld for problems (quizbank.live)."""
    return bank_cache().current()


def bank():
    """The validated bank: shipped and instructor questions, re-read when a file changes (a
    stat of each file per call; the same object while nothing changed, so safe to share)."""
    return live_bank().bank


def question(question_id: str):
    return catalog().get(question_id)


def question_title(question, lang: str, limit: int = 90) -> str:
    """The first line of a question's prompt as plain text (no `$…$`, no Markdown), shortened:
    a label for options, links and buttons."""
    text = question.prompt.get(lang).strip()
    line = _first_plain_line(re.split(r"\n\s*\n", text, maxsplit=1)[0])
    return line if len(line) <= limit else line[: limit - 1] + "…"


@functools.lru_cache(maxsize=8192)
def _first_plain_line(paragraph: str) -> str:
    # The whole first paragraph is made plain before its first line is taken: **bold** may run
    # over a line break. A pure function of bank text, so shared by every session: the data
    # pages title a few hundred questions per run (Analytics, the Class page's stuck list, the
    # Dashboard's tables), and the LaTeX-to-text conversion was most of their time.
    from app_pages.widgets.plain_text import plain_text

    plain = plain_text(paragraph).strip()
    return plain.splitlines()[0].strip() if plain else plain


@st.cache_data(show_spinner=False)
def templates() -> list[dict]:
    """Every compute template's listing (name, description, answers); never imports torch."""
    import compute

    return compute.list_templates()


@st.cache_resource(show_spinner=False)
def _exercise_questions_built() -> list:
    """One slot per server: (the bank they were made from, template name -> question)."""
    return [(None, {})]


def exercise_questions(current=None) -> dict:
    """Template name -> the generated question Exercises practise it with
    (tutor.sessions.exercises), made again when the bank changes (an instructor may add a
    generated question for a template).
    `current` is the bank when the caller has it already (each `bank()` stats its files)."""
    from tutor.sessions.exercises import exercise_questions as build

    if current is None:
        current = bank()
    slot = _exercise_questions_built()
    made_from, questions = slot[0]  # one read: another session may replace the slot meanwhile
    if made_from is not current:
        questions = build(current.questions.values(), templates())
        slot[0] = (current, questions)
    return questions


def catalog() -> dict:
    """Every question a learner can meet, by id: the bank's and the exercises made from templates
    the bank has no question for (`exercise:<template>`)."""
    current = bank()
    return {**{q.id: q for q in exercise_questions(current).values()}, **current.questions}


@st.cache_resource(show_spinner=False)
def _open_store(url: str | None):
    # A connection pool (thread-safe), opened once per server and database URL; errors are not
    # cached, so a locked or missing file is retried on the next run.
    from tutor.store import ProgressStore

    return ProgressStore.open(url)


def progress_store():
    """The progress store (`tutor.store.ProgressStore`) for `$TUTOR_DATABASE_URL`, shared by every
    session; raises `tutor.store.StoreUnavailable` when it cannot be opened."""
    from tutor.store import ENV_URL

    return _open_store(os.environ.get(ENV_URL))
