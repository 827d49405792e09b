"""Immutable things shared by every session, built once per server process."""

from __future__ import annotations

import threading

import streamlit as st


@st.cache_resource(show_spinner=False)
def bank():
    """The validated shipped bank (read-only after loading, so safe to share)."""
    import quizbank

    return quizbank.load_bank()


def question(question_id: str):
    return catalog().get(question_id)


def question_title(question, lang: str, limit: int = 90) -> str:
    """The first line of a question's prompt, shortened: a label for links and buttons. It is
    cut outside any `$…$` formula and `**…**` emphasis, so a label never shows raw markup."""
    text = question.prompt.get(lang).strip()
    line = text.splitlines()[0] if text else text
    if len(line) <= limit:
        return line
    cut = line[: limit - 1]
    for mark in ("$", "**"):
        if cut.count(mark) % 2:  # an opened formula or emphasis: end before it
            cut = cut[: cut.rindex(mark)]
    return cut.rstrip() + "…"


@st.cache_data(show_spinner=False)
def templates() -> list[dict]:
    """Every compute template's listing (name, description, answers); never imports torch."""
    import compute

    return compute.list_templates()


@st.cache_resource(show_spinner=False)
def exercise_questions() -> dict:
    """Template name -> the generated question Exercises practise it with (app_pages.flows.exercises)."""
    from app_pages.flows.exercises import exercise_questions as build

    return build(bank().questions.values(), templates())


def catalog() -> dict:
    """Every question a learner can meet, by id: the bank's and the exercises made from templates
    the bank has no question for (`exercise:<template>`)."""
    return {**{q.id: q for q in exercise_questions().values()}, **bank().questions}


@st.cache_resource(show_spinner=False)
def warm_grader() -> threading.Thread:
    """Start the grader's contained worker once per server, in the background. Most answers are
    graded without it; the first one that needs the symbolic check then does not wait for the
    worker process to start (~0.5 s, much longer on a busy machine)."""
    import grader

    warmer = threading.Thread(target=grader.warm_up, name="grader-warm-up", daemon=True)
    warmer.start()
    return warmer
