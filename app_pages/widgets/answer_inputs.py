"""One input per question type, outside any form: a typed answer reaches the server when the box
is left or Enter is pressed, so it is shown as the grader reads it ("interpreted as") and saved in
the scratch copy before the learner submits.

Every widget of a question is keyed `<key>.<name>` (name: `text`, `choice`, `choice.<option>`,
`order`, `lines`, `gen.<answer>`, `answer`, `confidence`). `answer_from_state` reads the answer back
from those keys in the shape `quizbank.grading.grade` takes, so a button callback can grade it;
`typed_values` / `restore_typed` carry them through the scratch copy. Bank text (options, steps) is
authored Markdown; learner text is only ever shown through `st.code` or the grader's LaTeX.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import streamlit as st

from app_pages.state import default_widget_value, tr, widget_value
from app_pages.state import lang as current_lang
from app_pages.widgets.assistive import LIVE_PREVIEW
from app_pages.widgets.bank_text import IMAGE_REF, bank_images, images_as_text
from app_pages.widgets.text_limits import cut_note, fitting, limited
from tutor.i18n import has, t
from tutor.sessions.exercises import answer_shape, shape_example
from tutor.sessions.question_session import CONFIDENCES, kind_of

TEXT_TYPES = ("numeric", "expression")
DEFAULT_CONFIDENCE = "medium"


def labelled(prefix: str, values, lang: str | None = None):
    """A format_func with each value's label translated now (a lambda calling `tr` later would
    read the language outside the script run, e.g. in AppTest); `lang` defaults to the learner's."""
    lang = lang or current_lang()
    return {v: t(f"{prefix}{v}", lang) for v in values}.__getitem__


@lru_cache(maxsize=4)  # one entry per language
def _confidence_labels(lang: str) -> dict[str, str]:
    # Built once per language, not on every run (the radio is drawn with every question).
    return {c: t(f"practice.confidence_{c}", lang) for c in CONFIDENCES}


question_type = kind_of


def declarations(question) -> dict:
    """The names the grader must know to read this question's answers."""
    return {
        "symbols": tuple(getattr(question, "symbols", ()) or ()),
        "functions": tuple(getattr(question, "functions", ()) or ()),
        "matrices": tuple(getattr(question, "matrices", ()) or ()),
    }


def widget_names(question) -> list[str]:
    """The names of the widgets that hold this question's answer (and the confidence)."""
    kind = kind_of(question)
    names = {"numeric": ["text"], "expression": ["text"], "derivation": ["lines"],
             "ordering": ["order"], "interview": ["answer"]}.get(kind, [])
    if kind == "choice":
        names = [f"choice.{o.id}" for o in question.options] if question.multiple else ["choice"]
    if kind == "generated":
        names = [f"gen.{ask}" for ask in question.asks]
    return [*names, "confidence"]


def typed_values(question, key: str) -> dict[str, Any]:
    """What the learner has put in this question's widgets (JSON-ready), for the scratch copy."""
    values = {}
    for name in widget_names(question):
        value = widget_value(f"{key}.{name}")
        if value is not None:
            values[name] = list(value) if isinstance(value, list | tuple) else value
    return values


def restore_typed(question, key: str, typed: Mapping[str, Any]) -> None:
    """Put the scratch copy's values back into the widgets before they are drawn (once per
    session)."""
    for name in widget_names(question):
        if name in typed:
            default_widget_value(f"{key}.{name}", typed[name])
    default_widget_value(f"{key}.confidence", DEFAULT_CONFIDENCE)


def answer_from_state(question, key: str) -> Any | None:
    """The answer in the widgets, or None when there is none yet."""
    kind = kind_of(question)
    if kind in TEXT_TYPES:
        text = widget_value(f"{key}.text") or ""
        return text if text.strip() else None
    if kind == "choice":
        if question.multiple:
            ticked = [o.id for o in question.options if widget_value(f"{key}.choice.{o.id}")]
            return ticked or None
        picked = widget_value(f"{key}.choice")
        return None if picked is None else [picked]
    if kind == "ordering":
        return list(widget_value(f"{key}.order") or ()) or None
    if kind == "derivation":  # the grader's split: a pasted block, a chain, remarks left out
        import grader

        text = widget_value(f"{key}.lines") or ""
        pieces = grader.split_derivation(text, **question.declared_fields())
        return [p.text.strip() for p in pieces if not p.remark and p.text.strip()] or None
    if kind == "generated":
        answers = {ask: widget_value(f"{key}.gen.{ask}") or "" for ask in question.asks}
        return answers if any(v.strip() for v in answers.values()) else None
    if kind == "interview":
        text = fitting(widget_value(f"{key}.answer"), MAX_INTERVIEW_ANSWER)
        return text if text.strip() else None
    raise ValueError(f"no input for question type {kind!r}")


def confidence_of(key: str) -> str:
    value = widget_value(f"{key}.confidence")
    return value if value in CONFIDENCES else DEFAULT_CONFIDENCE


# ---- drawing ----------------------------------------------------------------------------------
PREVIEWS_KEPT = 2048  # distinct (text, names, language) previews remembered by the process
PREVIEW_CACHED_CHARS = 400  # longer texts are parsed each time: the cache stays a few MiB at most


@lru_cache(maxsize=PREVIEWS_KEPT)
def _preview(text: str, symbols: tuple, functions: tuple, matrices: tuple, lang: str) -> dict:
    # A pure function of its arguments, so one process-wide cache serves every session: the
    # answer typed in one run is drawn again, unchanged, in the runs that submit it and show the
    # verdict; it is parsed once. The dict is shared: callers only read it.
    import grader

    return grader.preview(text, lang=lang, symbols=symbols, functions=functions,
                          matrices=matrices)


def show_preview(text: str, question, lang: str) -> None:
    """The grader's reading of `text`, as LaTeX built from the parsed tree, or why it cannot."""
    if not text.strip():
        st.caption(t("practice.preview_hint", lang))
        return
    names = declarations(question)
    read = _preview if len(text) <= PREVIEW_CACHED_CHARS else _preview.__wrapped__
    preview = read(text, names["symbols"], names["functions"], names["matrices"], lang)
    if preview.get("interpreted"):
        st.caption(t("practice.interpreted_as", lang))
        st.latex(preview["interpreted"])
        if preview.get("note"):  # the grader's own sentence (1/2x is (1/2)·x), no learner text
            st.caption(preview["note"])
    elif preview.get("error"):
        # the message and the caret line quote the learner's text: plain text only
        st.caption(t("practice.cannot_read_title", lang))
        st.code("\n".join(x for x in (preview["error"], preview.get("caret")) if x), language=None)


def draw_input(question, session, lang: str, key: str) -> None:
    """The answer widgets of `question` (not the confidence)."""
    kind = kind_of(question)
    if kind in TEXT_TYPES:
        text = st.text_input(t("practice.your_answer", lang), key=f"{key}.text",
                             help=t("practice.answer_help", lang), autocomplete="off")
        with st.container(key=f"{LIVE_PREVIEW}-{key}"):  # read aloud when it changes
            show_preview(text, question, lang)
    elif kind == "choice":
        choice_input(question, lang, key)
    elif kind == "ordering":
        ordering_input(question, lang, key, seed=session.order_seed)
    elif kind == "derivation":
        st.text_area(t("practice.lines_label", lang), key=f"{key}.lines", height=160,
                     help=t("practice.lines_help", lang))
    elif kind == "generated":
        generated_inputs(question, session.variant, lang, key)
    else:
        raise ValueError(f"no input for question type {kind!r}")


def choice_input(question, lang: str, key: str) -> None:
    """Radio for one correct option, checkboxes when several may be correct (labels are bank
    Markdown with $LaTeX$, which radio and checkbox labels render; a label cannot hold a picture,
    so an option's images are drawn above the choices, under the option's text)."""
    options = question.options
    for o in options:
        if IMAGE_REF.search(o.text.get(lang)):
            st.caption(images_as_text(o.text.get(lang)))
            bank_images(o.text.get(lang), question.id, lang)
    if not question.multiple:
        texts = {o.id: images_as_text(o.text.get(lang)) for o in options}
        st.radio(t("practice.choose_one", lang), [o.id for o in options], format_func=texts.__getitem__,
                 index=None, key=f"{key}.choice")
        return
    st.caption(t("practice.choose_all", lang))
    for o in options:
        st.checkbox(images_as_text(o.text.get(lang)), key=f"{key}.choice.{o.id}")


def shuffled_steps(question, seed: int) -> list:
    """The steps in a fixed shuffled order (never the answer order, when there is another)."""
    steps = list(question.steps)
    rng = random.Random(f"{question.id}:{seed}")
    for _ in range(5):
        rng.shuffle(steps)
        if steps != list(question.steps):
            break
    return steps


def ordering_input(question, lang: str, key: str, seed: int = 0) -> None:
    """Steps shown lettered; the learner clicks the letters in order (multiselect keeps order)."""
    steps = shuffled_steps(question, seed)
    letters = {s.id: chr(ord("A") + k) for k, s in enumerate(steps)}
    st.markdown("\n".join(f"- **{letters[s.id]}.** {images_as_text(s.text.get(lang))}"
                           for s in steps))
    st.multiselect(t("practice.order_help", lang), [s.id for s in steps],
                   format_func=letters.__getitem__, key=f"{key}.order", placeholder="A, B, C …")


def answer_label(name: str, lang: str) -> str:
    """A template answer's name as learners read it (e.g. "Input gradient ∇x L" for grad_x)."""
    key = f"exercises.answer.{name}"
    return t(key, lang) if has(key, lang) else name


def placeholder(expected) -> str:
    shape = answer_shape(expected)
    example = shape_example(shape)
    if not shape:
        return tr("exercises.placeholder.number", example=example)
    if len(shape) == 1:
        return tr("exercises.placeholder.vector", n=shape[0], example=example)
    return tr("exercises.placeholder.matrix", rows=shape[0], cols=shape[1], example=example)


def generated_inputs(question, variant, lang: str, key: str) -> None:
    """One box per asked quantity, with the shape to type it in and how it is read."""
    for ask in question.asks:
        expected = variant.answers.get(ask) if variant is not None else None
        text = st.text_input(answer_label(ask, lang), key=f"{key}.gen.{ask}", autocomplete="off",
                             placeholder=placeholder(expected) if expected is not None else None)
        if text.strip():
            with st.container(key=f"{LIVE_PREVIEW}-{key}-{ask}"):  # read aloud when it changes
                show_preview(text, question, lang)


# An interview answer is a few minutes of speech: about 600 words, well under the store's limit.
MAX_INTERVIEW_ANSWER = 4000


def interview_answer(key: str) -> str:
    """The typed interview answer, within the limit (read by the buttons' callbacks, which may run
    before the box's own)."""
    return fitting(widget_value(f"{key}.answer"), MAX_INTERVIEW_ANSWER)


def interview_input(key: str, lang: str | None = None) -> None:
    """The answer box, its count against the limit, and a note when a paste did not fit (the
    limit is kept by `text_limits`: Streamlit's own would drop the whole paste)."""
    lang = lang or current_lang()
    box = f"{key}.answer"
    text = st.text_area(t("practice.interview_answer", lang), height=180,
                        help=t("practice.interview_limit", lang, limit=f"{MAX_INTERVIEW_ANSWER:,}"),
                        **limited(box, MAX_INTERVIEW_ANSWER))
    st.caption(t("common.text_count", lang, used=f"{len(text or ''):,}",
                 limit=f"{MAX_INTERVIEW_ANSWER:,}"))
    cut_note(box, MAX_INTERVIEW_ANSWER, lang)


def confidence_input(key: str, lang: str | None = None) -> None:
    """Low / medium / high, asked with every answer (the review scheduler uses it). The default
    is set through the session state, so a scratch copy's value can stand in for it."""
    lang = lang or current_lang()
    default_widget_value(f"{key}.confidence", DEFAULT_CONFIDENCE)
    st.radio(t("practice.confidence", lang), CONFIDENCES,
             format_func=_confidence_labels(lang).__getitem__, horizontal=True,
             key=f"{key}.confidence")
