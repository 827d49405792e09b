"""Pieces of the Analytics page: the item table, its charts, and one question's wrong-answer
classes with "turn this class into a mal-rule". The numbers come from tutor.analytics and
tutor.answer_classes; learners appear only as counts (no names, no one learner's answers)."""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from app_pages.state import tr, tr_n
from app_pages.widgets.resources import question_title
from app_pages.widgets.tables import data_table


@st.cache_data(max_entries=8, show_spinner=False)
def item_table(_store, version: tuple[int, int]) -> pd.DataFrame:
    """The statistics of every question, recomputed only when an attempt was recorded."""
    from tutor.analytics import item_statistics
    from tutor.attempt_table import read_attempt_table

    return item_statistics(read_attempt_table(_store))


def with_bank(frame: pd.DataFrame, bank, lang: str) -> pd.DataFrame:
    """Adds each question's type, topic and title (questions no longer in the bank say so)."""
    def field(qid, pick, missing):
        question = bank.questions.get(qid)
        return pick(question) if question is not None else missing

    out = frame.copy()
    out["type"] = [field(q, lambda x: str(x.type), "-") for q in out["question"]]
    out["title"] = [field(q, lambda x: question_title(x, lang, 70), tr("analytics.not_in_bank"))
                    for q in out["question"]]
    out["flag_text"] = [", ".join(tr(f"analytics.flag.{f}") for f in flags)
                        for flags in out["flags"]]
    return out


def scatter(frame: pd.DataFrame) -> None:
    """Difficulty (first-try correct) against discrimination; flagged questions stand out."""
    data = frame.dropna(subset=["first_try_correct"]).assign(
        flagged=lambda f: f["flags"].map(bool).map({True: tr("analytics.flagged"),
                                                    False: tr("analytics.not_flagged")}))
    data = data[["question", "title", "learners", "first_try_correct", "discrimination",
                 "flagged", "flag_text"]].fillna({"discrimination": 0.0})
    chart = alt.Chart(data).mark_circle(opacity=0.75).encode(
        x=alt.X("first_try_correct:Q", title=tr("analytics.col_first_try"),
                scale=alt.Scale(domain=[0, 1]), axis=alt.Axis(format="%")),
        y=alt.Y("discrimination:Q", title=tr("analytics.col_discrimination"),
                scale=alt.Scale(domain=[-1, 1])),
        size=alt.Size("learners:Q", title=tr("analytics.col_learners")),
        color=alt.Color("flagged:N", title=None,
                        scale=alt.Scale(range=["#D9480F", "#2F6FEB"])),
        tooltip=[alt.Tooltip("question:N", title=tr("analytics.col_question")),
                 alt.Tooltip("title:N", title=tr("analytics.col_title")),
                 alt.Tooltip("learners:Q", title=tr("analytics.col_learners")),
                 alt.Tooltip("first_try_correct:Q", format=".0%",
                             title=tr("analytics.col_first_try")),
                 alt.Tooltip("discrimination:Q", format=".2f",
                             title=tr("analytics.col_discrimination")),
                 alt.Tooltip("flag_text:N", title=tr("analytics.col_flags"))])
    rule = alt.Chart(pd.DataFrame({"y": [0]})).mark_rule(strokeDash=[4, 4]).encode(y="y:Q")
    st.altair_chart(chart + rule, width="stretch")


def statistics_table(frame: pd.DataFrame) -> None:
    shown = frame[["question", "title", "learners", "first_try_correct", "discrimination",
                   "median_seconds", "hint_rate", "reveal_rate", "flag_text"]]
    data_table(shown, hide_index=True, width="stretch", column_config={
        "question": tr("analytics.col_question"), "title": tr("analytics.col_title"),
        "learners": st.column_config.NumberColumn(tr("analytics.col_learners")),
        "first_try_correct": st.column_config.ProgressColumn(
            tr("analytics.col_first_try"), min_value=0.0, max_value=1.0, format="percent"),
        "discrimination": st.column_config.NumberColumn(tr("analytics.col_discrimination"),
                                                        format="%.2f"),
        "median_seconds": st.column_config.NumberColumn(tr("analytics.col_median_time"),
                                                        format="%.0f s"),
        "hint_rate": st.column_config.NumberColumn(tr("analytics.col_hints"), format="percent"),
        "reveal_rate": st.column_config.NumberColumn(tr("analytics.col_reveals"),
                                                     format="percent"),
        "flag_text": tr("analytics.col_flags"),
    })


def flag_list(flagged: pd.DataFrame) -> None:
    """One line per flagged question: what is wrong with it, then its numbers."""
    for row in flagged.itertuples():
        st.markdown(tr("analytics.flag_line", flags=row.flag_text, question=row.question,
                       learners=tr_n("analytics.learners_n", row.learners),
                       rate=row.first_try_correct))


def classes_chart(classes) -> None:
    data = pd.DataFrame({"answer": [c.representative for c in classes],
                         "learners": [c.learners for c in classes]})
    chart = alt.Chart(data).mark_bar(color="#2F6FEB").encode(
        x=alt.X("learners:Q", title=tr("analytics.col_learners")),
        y=alt.Y("answer:N", sort="-x", title=None),
        tooltip=[alt.Tooltip("answer:N", title=tr("analytics.class_answer")),
                 alt.Tooltip("learners:Q", title=tr("analytics.col_learners"))])
    st.altair_chart(chart, width="stretch")


def interpreted(question, text: str, lang: str) -> str | None:
    import grader

    declared = {name: tuple(getattr(question, name, ()) or ())
                for name in ("symbols", "functions", "matrices")}
    return grader.preview(text, lang=lang, **declared).get("interpreted")


def answer_class(question, cls, k: int, lang: str, editable: bool, on_malrule) -> None:
    """One class: how many learners, its reading, its spellings, and the mal-rule form."""
    from quizbank.grading import grade

    with st.container(border=True):
        st.markdown(tr("analytics.class_head", k=k, learners=tr_n("analytics.learners_n", cls.learners),
                       answers=tr_n("analytics.answers_n", cls.answers)))
        latex = interpreted(question, cls.representative, lang)
        cols = st.columns([1, 1])
        with cols[0]:
            st.caption(tr("analytics.class_answer"))
            st.code(cls.representative, language=None)
        with cols[1]:
            st.caption(tr("practice.interpreted_as"))
            if latex:
                st.latex(latex)
            else:
                st.caption(tr("analytics.unreadable"))
        if len(cls.spellings) > 1:
            # Learners' text: shown as plain text, never as Markdown.
            st.caption(tr("analytics.spellings"))
            st.text("\n".join(f"{text}   ({n})" for text, n in cls.spellings[:8]))
        current = grade(question, cls.representative, lang=lang)
        if current.malrule:
            st.info(tr("analytics.has_feedback", feedback=current.malrule))
            return
        with st.form(f"analytics.malrule.{question.id}.{k}", border=False):
            zh = st.text_input(tr("analytics.feedback_zh"), key=f"analytics.fb.zh.{k}")
            en = st.text_input(tr("analytics.feedback_en"), key=f"analytics.fb.en.{k}")
            pressed = st.form_submit_button(tr("analytics.make_malrule"),
                                            icon=":material/add_comment:")
        if pressed:
            if not (zh.strip() or en.strip()):
                st.warning(tr("analytics.feedback_needed"))
            elif not editable:
                st.warning(tr("analytics.shipped_question"))
                st.code(malrule_snippet(cls.representative, zh, en), language="yaml")
            else:
                on_malrule(cls.representative, {"zh": zh, "en": en})


def malrule_snippet(answer: str, zh: str, en: str) -> str:
    import json

    return (f"malrules:\n  - answer: {json.dumps(answer, ensure_ascii=False)}\n"
            f"    feedback: {{zh: {json.dumps(zh, ensure_ascii=False)}, "
            f"en: {json.dumps(en, ensure_ascii=False)}}}\n"
            f"tests:\n  - {{answer: {json.dumps(answer, ensure_ascii=False)}, verdict: wrong}}\n")
