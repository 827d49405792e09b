"""One input per question type. Text answers sit outside the form (Enter shows the "interpreted
as" preview before submitting); everything else sits inside the caller's `st.form`.

Each `*_input` returns the answer in the shape `quizbank.grading.grade` takes, or None when the
learner has not given one yet. Bank text (options, steps) is authored Markdown; learner text is
only ever shown through `st.code` or the grader's LaTeX.
"""

from __future__ import annotations

import random

import streamlit as st

from app_pages.state import tr

TEXT_TYPES = ("numeric", "expression")


def labelled(prefix: str, values):
    """A format_func with each value's label translated now (a lambda calling `tr` later would
    read the language outside the script run, e.g. in AppTest)."""
    return {v: tr(f"{prefix}{v}") for v in values}.__getitem__


def question_type(question) -> str:
    return str(getattr(question.type, "value", question.type))


def declarations(question) -> dict:
    """The names the grader must know to read this question's answers."""
    return {
        "symbols": tuple(getattr(question, "symbols", ()) or ()),
        "functions": tuple(getattr(question, "functions", ()) or ()),
        "matrices": tuple(getattr(question, "matrices", ()) or ()),
    }


def show_preview(text: str, question, lang: str) -> None:
    """The grader's reading of `text`, as LaTeX built from the parsed tree, or why it cannot."""
    if not text.strip():
        st.caption(tr("practice.preview_hint"))
        return
    import grader

    preview = grader.preview(text, lang=lang, **declarations(question))
    if preview.get("interpreted"):
        st.caption(tr("practice.interpreted_as"))
        st.latex(preview["interpreted"])
        if preview.get("note"):  # the grader's own sentence (1/2x is (1/2)·x), no learner text
            st.caption(preview["note"])
    elif preview.get("error"):
        # the message and the caret line quote the learner's text: plain text only
        st.caption(tr("practice.cannot_read_title"))
        st.code("\n".join(x for x in (preview["error"], preview.get("caret")) if x), language=None)


def text_input(question, lang: str, key: str) -> str:
    """Formula or number box with a live preview (outside any form, so Enter reruns)."""
    text = st.text_input(
        tr("practice.your_answer"), key=key, help=tr("practice.answer_help"), autocomplete="off"
    )
    show_preview(text, question, lang)
    return text


def choice_input(question, lang: str, key: str) -> list[str] | None:
    """Radio for one correct option, checkboxes when several may be correct."""
    options = question.options
    if not question.multiple:
        picked = st.radio(
            tr("practice.choose_one"),
            [o.id for o in options],
            format_func=lambda oid: next(o.text.get(lang) for o in options if o.id == oid),
            index=None,
            key=key,
        )
        return None if picked is None else [picked]
    st.caption(tr("practice.choose_all"))
    ticked = [o.id for o in options if st.checkbox(o.text.get(lang), key=f"{key}.{o.id}")]
    return ticked or None


def shuffled_steps(question, seed: int) -> list:
    """The steps in a fixed shuffled order (never the answer order, when there is another)."""
    steps = list(question.steps)
    rng = random.Random(f"{question.id}:{seed}")
    for _ in range(5):
        rng.shuffle(steps)
        if steps != list(question.steps):
            break
    return steps


def ordering_input(question, lang: str, key: str, seed: int = 0) -> list[str] | None:
    """Steps shown lettered; the learner clicks the letters in order (multiselect keeps order)."""
    steps = shuffled_steps(question, seed)
    letters = {s.id: chr(ord("A") + k) for k, s in enumerate(steps)}
    st.markdown("\n".join(f"- **{letters[s.id]}.** {s.text.get(lang)}" for s in steps))
    order = st.multiselect(
        tr("practice.order_help"),
        [s.id for s in steps],
        format_func=lambda sid: letters[sid],
        key=key,
        placeholder="A, B, C …",
    )
    return order or None


def lines_input(key: str, label_key: str = "practice.lines_label", height: int = 160) -> list[str] | None:
    """A line editor: one derivation step per row; blank rows are ignored."""
    text = st.text_area(tr(label_key), key=key, height=height, help=tr("practice.lines_help"))
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines or None


def interview_input(key: str) -> str | None:
    text = st.text_area(tr("practice.interview_answer"), key=key, height=180)
    return text if text.strip() else None


def answer_label(name: str, lang: str) -> str:
    """A template answer's name as the Exercises page words it (e.g. "∇x L" for grad_x)."""
    from tutor.i18n import has

    key = f"exercises.answer.{name}"
    return tr(key) if has(key, lang) else name


def generated_inputs(asks: list[str], lang: str, key: str) -> dict[str, str] | None:
    """One box per asked quantity of a generated problem (numbers, vectors as [a, b])."""
    answers = {name: st.text_input(answer_label(name, lang), key=f"{key}.{name}", autocomplete="off")
               for name in asks}
    return answers if all(v.strip() for v in answers.values()) else None


def confidence_input(key: str) -> str:
    """Low / medium / high, asked with every answer (the review scheduler uses it)."""
    return st.radio(
        tr("practice.confidence"),
        ("low", "medium", "high"),
        index=1,
        format_func=labelled("practice.confidence_", ("low", "medium", "high")),
        horizontal=True,
        key=key,
    )
