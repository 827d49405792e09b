"""Immutable things shared by every session, built once per server process."""

from __future__ import annotations

import threading

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
    return bank().questions.get(question_id)


def question_title(question, lang: str, limit: int = 90) -> str:
    """The first line of a question's prompt, shortened: a label for links and buttons."""
    text = question.prompt.get(lang).strip()
    line = text.splitlines()[0] if text else text
    return line if len(line) <= limit else line[: limit - 1] + "…"


@st.cache_data(max_entries=512, show_spinner=False)
def generated_problem(template: str, seed: int, difficulty: str) -> dict:
    """One variant of a generated question (deterministic in its arguments, so cacheable)."""
    import compute

    return compute.generate(template, seed=seed, difficulty=difficulty)


@st.cache_resource(show_spinner=False)
def warm_grader() -> threading.Thread:
    """Start the grader's contained worker once per server, in the background. Most answers are
    graded without it; the first one that needs the symbolic check then does not wait for the
    worker process to start (~0.5 s, much longer on a busy machine)."""
    import grader

    warmer = threading.Thread(target=grader.warm_up, name="grader-warm-up", daemon=True)
    warmer.start()
    return warmer
