"""What follows an answer: the verdict with everything the grader explained, the tries left, the
rating recorded and when the question comes back (changeable after a right answer), hints one at
a time, and after the reveal the worked solution, the right options and the keys.

Grader feedback may quote what the learner typed, so it is shown as plain text (`st.text`,
`st.code`) or LaTeX from the parsed tree; only bank-authored text (hints, solutions, mal-rule
feedback, option texts) and our own strings go through Markdown.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import streamlit as st

from app_pages.state import lang as current_lang
from app_pages.state import widget_value
from app_pages.widgets.answer_inputs import answer_label
from app_pages.widgets.bank_text import bank_images, bank_markdown, images_as_text
from tutor.i18n import t
from tutor.rating import Phase
from tutor.sessions.exercises import format_value
from tutor.sessions.question_session import Graded, QuestionSession, kind_of

VERDICT_TEST_ID = "verdict"  # the e2e tests and the submit benchmark wait for this marker
# Inside it, for an answer that could not be read (not an attempt: nothing is recorded); the load
# generator counts the other verdicts against the attempts stored.
UNREADABLE_TEST_ID = "verdict-unreadable"

# Types whose feedback is built only from grader messages and bank text (option and step
# texts): safe for Markdown. Other feedback may quote what the learner typed: plain text only.
MARKDOWN_FEEDBACK = ("choice", "ordering")


def verdict(graded: Graded, lang: str, kind: str = "", *, number: int = 0) -> None:
    """Correct / not quite / could not be read, with everything the grader explained. `number`
    counts the submissions of this visit: browser tests wait for `.st-key-verdict-<n>` to know
    the verdict on screen is the new one, not the previous try's."""
    with st.container(key=VERDICT_TEST_ID), st.container(key=f"{VERDICT_TEST_ID}-{number}"):
        _verdict(graded, lang, kind)


def _verdict(graded: Graded, lang: str, kind: str) -> None:
    result = graded.result
    if result.unreadable:
        st.container(key=UNREADABLE_TEST_ID)
        st.warning(t("practice.unreadable", lang), icon=":material/help:")
        st.caption(t("practice.unreadable_not_counted", lang))
        st.code(result.feedback or result.error or "", language=None, wrap_lines=True)
        return
    if graded.gave_up:  # "comes back tomorrow" only once the database has scheduled it
        if graded.rating is not None:
            key = "practice.gave_up"
        elif graded.phase is Phase.REPEAT:  # stored, and the store decided it was practice
            key = "practice.solution_shown"
        else:  # not in the database yet
            key = "practice.gave_up_unrecorded"
        st.info(t(key, lang),
                icon=":material/menu_book:")
        return
    if graded.correct:
        st.success(t("practice.correct", lang), icon=":material/check_circle:")
    else:
        st.error(t("practice.wrong", lang), icon=":material/cancel:")
    if graded.phase is Phase.AFTER_REVEAL:
        st.caption(t("practice.after_reveal", lang))
    if 0 < graded.score < 1:
        st.caption(t("practice.score", lang, score=graded.score))
    if result.interpreted:
        st.caption(t("practice.interpreted_as", lang))
        st.latex(result.interpreted)
    if result.parts:
        parts(result, lang)
    if graded.correct:
        return
    if result.malrule:  # bank text, authored with $LaTeX$
        st.info(f"**{t('practice.malrule', lang)}** — {images_as_text(result.malrule)}",
                icon=":material/lightbulb:")
    elif kind in MARKDOWN_FEEDBACK and result.feedback:
        st.markdown(images_as_text(result.feedback))
    elif result.feedback and not result.parts:
        st.text(result.feedback)


def repeat_note(session: QuestionSession, lang: str) -> None:
    """When the store recorded this visit's answers as practice (the question was already tried
    or its solution seen, is not due, and no new variant was drawn): say so, and when it comes
    back for review. Drawn where the rating panel is, after the answer was recorded."""
    graded = next((g for g in reversed(session.graded) if g.phase is Phase.REPEAT), None)
    if graded is None:
        return
    with st.container(key="repeat-note"):
        if graded.due is None:
            st.caption(t("practice.repeat_not_counted_undated", lang))
        else:
            st.caption(t("practice.repeat_not_counted", lang, date=local_date(graded.due)))


def local_date(moment: datetime) -> str:
    """The day of `moment` in the learner's time zone (the browser's), as 2026-03-02."""
    from app_pages.widgets.attempt_history import learner_zone  # pandas: only when a date is shown

    return moment.astimezone(learner_zone()).date().isoformat()


def parts(result, lang: str) -> None:
    """A generated question's answers one by one: right or not, and the grader's reason."""
    for part in result.parts:
        ok = part.result.correct
        icon, colour = (":material/check_circle:", "green") if ok else (":material/cancel:", "red")
        label = t("common.verdict." + ("correct" if ok else "wrong"), lang)
        st.markdown(f":{colour}[{icon}] {answer_label(part.name, lang)} · :{colour}[{label}]")
        if not ok and part.result.feedback:
            st.text(part.result.feedback)


def tries_status(session: QuestionSession, kind: str, lang: str | None = None) -> None:
    """How many tries are left, while the question is open and the last try was wrong."""
    lang = lang or current_lang()
    last = session.last
    if session.revealed or last is None or last.phase is None or last.correct:
        return
    left = session.tries_left
    one = left == 1
    text = t("practice.tries_left_one", lang) if one else t("practice.tries_left", lang, n=left)
    st.info(text, icon=":material/replay:")


def interval_text(due: datetime | None, now: datetime, lang: str | None = None) -> str:
    from tutor.review import days_until

    lang = lang or current_lang()
    if due is None:
        return ""
    days = days_until(due, now)
    if days == 0:
        return t("practice.back_today", lang)
    if days == 1:
        return t("practice.back_tomorrow", lang)
    return t("practice.back_in_days", lang, n=days)


def choice_labels(choices: tuple[tuple[int, datetime], ...], now: datetime, lang: str
                  ) -> tuple[dict[int, str], str | None]:
    """Each rating's label with when it brings the question back ("Good · back in 2 days"), as
    Anki labels its buttons; when every choice brings it back at the same time (after an Again
    earlier the same day FSRS gives Hard, Good and Easy the same next day), the ratings alone and
    that time once, to be said under them."""
    backs = {r: interval_text(d, now, lang) for r, d in choices}
    names = {r: t(f"practice.rating.{r}", lang) for r, _ in choices}
    if len(choices) > 1 and len(set(backs.values())) == 1:
        return names, next(iter(backs.values()))
    return {r: t("practice.rating_choice", lang, rating=names[r], back=backs[r])
            for r, _ in choices}, None


def rating_panel(rating: int | None, due: datetime | None,
                 choices: tuple[tuple[int, datetime], ...], *, key: str,
                 on_change: Callable[[int], object] | None, lang: str | None = None) -> None:
    """The rating recorded and when the question comes back; after a right answer the learner
    may pick Hard / Good / Easy instead (each labelled with its interval, as Anki does)."""
    if rating is None:
        return
    lang = lang or current_lang()
    from tutor.store import utc_now

    now = utc_now()
    recorded = t("practice.recorded_as", lang, rating=t(f"practice.rating.{rating}", lang),
                 back=interval_text(due, now, lang))
    if not choices or on_change is None:
        # The line alone (after a wrong answer, most runs that show a rating): no container
        # around it, which would draw the same and cost a message of its own on every run.
        st.markdown(recorded)
        return
    with st.container(key=f"{key}.rating".replace(".", "-")):
        st.markdown(recorded)
        labels, same_back = choice_labels(choices, now, lang)
        widget = f"{key}.rating.{rating}"  # a new widget once the rating changed

        def changed() -> None:
            picked = widget_value(widget)
            if picked is not None and picked != rating:
                on_change(picked)

        st.segmented_control(t("practice.change_rating", lang), list(labels),
                             format_func=labels.__getitem__, default=rating, key=widget,
                             required=True, on_change=changed)
        if same_back:
            st.caption(t("practice.choices_same_due", lang, back=same_back))


def hints(question, session: QuestionSession, lang: str, key: str) -> None:
    """Revealed hints, and a button for the next one ("Show a hint (1/3)") until the reveal."""
    total = session.hints_total(question)
    if total == 0:
        return
    for n, text in enumerate(session.visible_hints(question, lang), start=1):
        st.info(f"**{t('practice.hint_label', lang, n=n)}** — {images_as_text(text)}",
                icon=":material/tips_and_updates:")
        bank_images(text, question.id, lang)
    if session.can_show_hint(question) and not session.revealed:
        label = t("practice.hint_button", lang, shown=session.hints_shown + 1, total=total)
        # A callback runs before the rerun, so the new hint shows at once.
        st.button(label, key=f"{key}.hint", icon=":material/lightbulb:",
                  on_click=session.show_hint, args=(question,))


def solution(question, session: QuestionSession, lang: str) -> None:
    """After the reveal: the worked solution (with this variant's numbers for a generated
    question), the right options of a choice question, the keys of a generated one."""
    kind = kind_of(question)
    with st.expander(t("practice.solution", lang), expanded=True, icon=":material/menu_book:"):
        if kind == "choice":
            choice_key(question, session, lang)
        if kind == "generated" and session.variant is not None:
            generated_keys(question, session.variant, lang)
        bank_markdown(question.solution.get(lang), question.id, lang)
        if kind == "generated" and session.variant is not None:
            st.markdown(session.variant.solution.get(lang) or "")


def choice_key(question, session: QuestionSession, lang: str) -> None:
    """Every option marked right or wrong, the learner's picks named, partial credit in words."""
    picked = set()
    answered = next((g for g in reversed(session.graded)
                     if g.phase is not None and isinstance(g.answer, list)), None)
    if answered is not None:
        picked = set(answered.answer)
    lines = []
    for option in question.options:
        mark = ":green[:material/check_circle:]" if option.correct else ":red[:material/cancel:]"
        mine = f" · _{t('practice.your_pick', lang)}_" if option.id in picked else ""
        lines.append(f"- {mark} {images_as_text(option.text.get(lang))}{mine}")
        if option.id in picked and not option.correct and option.feedback:
            lines.append(f"    - {images_as_text(option.feedback.get(lang))}")
    st.markdown(f"**{t('practice.right_options', lang)}**\n\n" + "\n".join(lines))
    if question.multiple and answered is not None and not answered.correct:
        correct = {o.id for o in question.options if o.correct}
        hits, wrong = len(picked & correct), len(picked - correct)
        st.caption(t("practice.partial_credit", lang, hits=hits, total=len(correct), wrong=wrong,
                     score=answered.score))


def generated_keys(question, variant, lang: str) -> None:
    """The key of every asked answer, typed the way the learner would type it."""
    rows = [f"- {answer_label(ask, lang)}: `{format_value(variant.answers[ask])}`"
            for ask in question.asks if ask in variant.answers]
    st.markdown(f"**{t('practice.keys', lang)}**\n\n" + "\n".join(rows))
