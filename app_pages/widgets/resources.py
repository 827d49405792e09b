"""Immutable things shared by every session, built once per server process."""

from __future__ import annotations

import streamlit as st


@st.cache_resource(show_spinner=False)
def bank():
    """The validated shipped bank (read-only after loading, so safe to share)."""
    import quizbank

    return quizbank.load_bank()


def question(question_id: str):
    return bank().questions.get(question_id)


@st.cache_data(max_entries=512, show_spinner=False)
def generated_problem(template: str, seed: int, difficulty: str) -> dict:
    """One variant of a generated question (deterministic in its arguments, so cacheable)."""
    import compute

    return compute.generate(template, seed=seed, difficulty=difficulty)
