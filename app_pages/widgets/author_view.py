"""Pieces of the Author page: the YAML editor, validation messages, the learner's-eye preview,
author and mutation test results, and Moodle XML in and out. The logic is in quizbank.authoring,
quizbank.mutations and quizbank.moodle; this module only draws."""

from __future__ import annotations

import hashlib
import random
import re

import streamlit as st

from app_pages.state import LANGUAGE_NAMES, AuthorPage, page_state, tr, tr_n
from app_pages.widgets.tables import data_table
from app_pages.widgets.uploader_css import uploader_css
from quizbank.authoring import EDITOR_PATH
from tutor.i18n import has
from tutor.sessions.question_session import open_session

EDITOR_LINES = (18, 40)  # the code editor's height in lines: (min, max)


def yaml_editor(initial: str, version: int, plain: bool) -> str | None:
    """The text in the editor, or None before the first change. The editor gets `initial` once
    per `version` (bump it to load other text): passing the live text back would overwrite
    what the instructor typed while the page was rerunning."""
    if plain:
        return st.text_area(tr("author.editor_label"), value=initial, height=480,
                            key=f"author.plain.{version}")
    from code_editor import code_editor

    response = code_editor(initial, lang="yaml", height=list(EDITOR_LINES),
                           response_mode="debounce", key=f"author.code.{version}",
                           options={"wrap": True, "tabSize": 2, "useSoftTabs": True,
                                    "showPrintMargin": False, "showLineNumbers": True,
                                    # Ace's keyboard mode: Tab leaves the editor instead of
                                    # indenting (no keyboard trap, WCAG 2.1.2), Enter goes in,
                                    # Escape out; its input box is then named (our label first:
                                    # set before the mode, which names the box when it is set)
                                    "textInputAriaLabel": tr("author.editor_label"),
                                    "enableKeyboardAccessibility": True},
                           # No pop-up completions: they swallow keys and offer Python words.
                           # Ace's GitHub theme (a file of the component): its "streamlit_light" theme
                           # @imports its font from Google Fonts (the app must work offline).
                           props={"enableLiveAutocompletion": False, "enableSnippets": False,
                                  "enableBasicAutocompletion": False, "tabSize": 2,
                                  "theme": "github"})
    if response and response.get("type") in ("change", "submit"):
        return response.get("text", "")
    return None


def problems_list(problems) -> None:
    """Each problem as `line N · field: message` (lines of the editor's text)."""
    if not problems:
        st.success(tr("author.valid"), icon=":material/check_circle:")
        return
    lines = [problem_text(p) for p in problems]
    st.error(tr_n("author.problems", len(problems)) + "\n\n" + "\n".join(
        f"- {line}" for line in lines), icon=":material/error:")


def warnings_list(warnings) -> None:
    """Text in one language only: allowed (learners see the other language), but said."""
    if warnings:
        lines = [tr("author.one_language", place=place_text(w), missing=LANGUAGE_NAMES[w.missing],
                    shown=LANGUAGE_NAMES[w.shown_instead], code=w.missing) for w in warnings]
        st.warning(tr_n("author.warnings", len(warnings)) + "\n\n" + "\n".join(
            f"- {line}" for line in lines), icon=":material/translate:")


def positive_warnings_list(warnings) -> None:
    """A variable only meaningful when positive and not declared so: allowed (the grader then
    samples negative values too), but said, with the line to add."""
    if warnings:
        lines = [tr("author.undeclared_positive", place=place_text(w), name=w.name,
                    why=tr(f"author.positive_why.{w.reason}")) for w in warnings]
        st.warning(tr_n("author.warnings", len(warnings)) + "\n\n" + "\n".join(
            f"- {line}" for line in lines), icon=":material/function:")


def place_text(problem) -> str:
    """`line 3 · options[1].feedback`, leaving out a line or field that is not known; a problem
    in a file (not in the editor's text) starts with the file's name."""
    place = [] if problem.path == EDITOR_PATH else [problem.path]
    place += [tr("author.problem_at_line", line=problem.line)] if problem.line is not None else []
    place += [problem.field] if problem.field != "-" else []
    return " · ".join(place)


def problem_text(problem) -> str:
    """`line 3 · options[1].feedback: message` (just the message when nothing says where)."""
    place = place_text(problem)
    return tr("author.problem_line", place=place, message=problem.message) if place else problem.message


def preview(question, preview_lang: str, seed: int) -> None:
    """The question exactly as a learner sees it (graded, never recorded), then all hints and the
    solution at once."""
    from app_pages.widgets.question_view import question_view

    sessions = page_state(AuthorPage).preview_sessions
    digest = hashlib.sha256(question.model_dump_json().encode()).hexdigest()[:12]
    name = f"{question.id}.{preview_lang}.{seed}.{digest}"
    if name not in sessions:  # a generated question's variant is built once, for `seed`
        sessions[name] = open_session(question, rng=random.Random(seed), serial=len(sessions),
                                      seed=seed)
    question_view(question, sessions[name], preview_lang, key=f"author.preview.{preview_lang}",
                  record=None)
    with st.expander(tr("author.all_hints_and_solution"), icon=":material/visibility:"):
        for k, hint in enumerate(question.hints, start=1):
            st.markdown(f"**{tr('author.hint_n', n=k)}** {hint.get(preview_lang)}")
        st.markdown(f"**{tr('author.solution')}**")
        st.markdown(question.solution.get(preview_lang))


def author_test_results(outcomes) -> None:
    if not outcomes:
        st.info(tr("author.no_tests"))
        return
    failed = [o for o in outcomes if not o.passed]
    summary = tr("author.tests_summary", passed=len(outcomes) - len(failed), failed=len(failed))
    (st.error if failed else st.success)(summary)
    for o in outcomes:
        mark = "✅" if o.passed else "❌"
        st.markdown(f"{mark} {tr('author.test_line', number=o.number, expected=o.expected.value, got=o.got_text)}"
                    + (f" — {o.feedback}" if o.feedback and not o.passed else ""))


def mutation_results(outcomes) -> None:
    if not outcomes:
        st.info(tr("author.no_mutants"))
        return
    bad = [o for o in outcomes if not o.passed]
    summary = tr("author.mutants_summary",
                 killed=tr_n("author.mutants_killed", sum(o.status == "killed" for o in outcomes)),
                 justified=tr_n("author.mutants_justified",
                                sum(o.status == "justified" for o in outcomes)),
                 failed=tr_n("author.mutants_failed", len(bad)))
    (st.error if bad else st.success)(summary)
    rows = [{tr("author.col_kind"): mutation_kind_label(o.kind), tr("author.col_mutant"): o.mutant,
             tr("author.col_status"): tr(f"author.status.{o.status}"),
             tr("author.col_detail"): o.detail} for o in outcomes]
    data_table(rows, hide_index=True, width="stretch")


def mutation_kind_label(kind: str) -> str:
    """What a mutant changed, in words (`quizbank.mutations` and `grader.mutants` name it
    `tolerance_x10_up`, `malrule #2`); an unknown kind is shown as it is."""
    number = re.fullmatch(r"malrule #(\d+)", kind)
    if number:
        return tr("author.mutation_kind.malrule", n=int(number.group(1)))
    key = f"author.mutation_kind.{kind}"
    return tr(key) if has(key) else kind


def notes_list(notes) -> None:
    for note in notes:
        st.text("• " + tr(f"author.moodle.note.{note.code}", **note.params))


MOODLE_UPLOADER_BOX = "moodle_uploader"  # the container whose uploader shows our own words


def moodle_uploader_css() -> str:
    """The Moodle uploader's button and note in the interface's language (uploader_css.py)."""
    from quizbank.moodle.imports import MAX_BYTES

    return uploader_css(MOODLE_UPLOADER_BOX, tr("author.moodle_upload_button"),
                        tr("author.moodle_upload_note", mb=MAX_BYTES // (1024 * 1024)))


def moodle_tools(bank, folders) -> None:
    """Export a selection as Moodle XML; import a Moodle XML file into a new bank file, with the
    images its questions show in the folder named after that file."""
    from pathlib import Path

    from quizbank.authoring import SaveRefused, save_new_file
    from quizbank.images import images_folder
    from quizbank.moodle import MoodleImportRefused, export_moodle, import_moodle, questions_yaml

    export_col, import_col = st.columns(2)
    with export_col:
        st.markdown(f"**{tr('author.moodle_export')}**")
        chosen = st.multiselect(tr("author.moodle_pick"), sorted(bank.questions),
                                key="author.moodle.pick", placeholder=tr("author.moodle_all"))
        if st.button(tr("author.moodle_prepare"), key="author.moodle.prepare",
                     icon=":material/upload_file:"):
            page_state(AuthorPage).moodle_export = export_moodle(
                [bank.questions[i] for i in chosen] if chosen else bank,
                image_folder=lambda qid: images_folder(Path(bank.location(qid).path)))
        prepared = page_state(AuthorPage).moodle_export
        if prepared is not None:
            xml, notes = prepared
            st.download_button(tr("author.moodle_download"), xml,
                               file_name="residual-tutor.xml", mime="application/xml",
                               icon=":material/download:", key="author.moodle.download")
            if notes:
                with st.expander(tr_n("author.moodle_notes", len(notes))):
                    notes_list(notes)
    with import_col:
        st.markdown(f"**{tr('author.moodle_import')}**")
        # Any file: a wrong one gets the import's own translated refusal, not Streamlit's
        # English "Invalid file extension" error.
        st.html(moodle_uploader_css())
        with st.container(key=MOODLE_UPLOADER_BOX):
            upload = st.file_uploader(tr("author.moodle_file"), key="author.moodle.upload")
        if upload is None:
            return
        # Read once per file and bank, not on every rerun (a file may be 20 MB of images).
        reading = (upload.file_id, frozenset(bank.questions))
        cached = page_state(AuthorPage).moodle_reading
        if cached is None or cached[0] != reading:
            try:
                cached = (reading, import_moodle(upload.getvalue(), taken_ids=set(bank.questions)))
            except MoodleImportRefused as refused:
                cached = (reading, refused)
            page_state(AuthorPage).moodle_reading = cached
        imported = cached[1]
        if isinstance(imported, MoodleImportRefused):
            st.error(tr(f"author.moodle.refused.{imported.code}", **imported.params))
            return
        st.info(tr_n("author.moodle_imported", len(imported.questions)))
        notes_list(imported.notes)
        if imported.questions:
            text = questions_yaml(imported.questions)
            name = st.text_input(tr("author.file_name"), value="moodle-import.yaml",
                                 key="author.moodle.name")
            if imported.images:
                st.caption(tr_n("author.moodle_images", len(imported.images),
                                folder=images_folder(Path(name)).name + "/"))
            if st.button(tr("author.moodle_save"), key="author.moodle.save",
                         icon=":material/save:"):
                try:
                    path = save_new_file(text, bank, folder=folders.author_folder,
                                         file_name=name, images=imported.images)
                except SaveRefused as refused:
                    problems_list(refused.problems)
                else:
                    st.success(tr("author.moodle_saved", path=str(path)))
