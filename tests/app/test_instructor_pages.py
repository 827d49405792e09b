"""The Author and Analytics pages in AppTest (the plain text box stands in for the code editor,
which AppTest cannot type into; the browser test types into the real one)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from streamlit.testing.v1 import AppTest

from app_pages.state import AuthorPage, page_key
from grader import Verdict
from quizbank.author_templates import template_yaml
from tests.app.shell_helpers import APP, TIMEOUT
from tutor.store import NewAttempt, ProgressStore


@pytest.fixture
def instructor_env(tmp_path, monkeypatch):
    monkeypatch.setenv("TUTOR_BANK_PATHS", str(tmp_path / "bank"))
    monkeypatch.setenv("TUTOR_DATABASE_URL", f"sqlite:///{tmp_path / 'p.db'}")
    return tmp_path


def open_page(page: str, lang: str = "en") -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    at.query_params["lang"] = lang
    at.switch_page(f"app_pages/{page}.py")
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("lang, title", [("en", "Author questions"), ("zh", "编写题目")])
def test_author_page_opens_with_a_valid_template_in_both_languages(instructor_env, lang, title):
    at = open_page("author", lang)
    assert at.title[0].value == title
    assert len(at.success) == 1  # "valid"
    assert len(at.tabs) == 2  # the preview in 中文 and English


def test_typing_an_error_shows_its_line_and_save_is_refused(instructor_env):
    at = open_page("author")
    at.toggle(key="author.plain").set_value(True).run()
    (box,) = at.text_area
    box.set_value(template_yaml("numeric").replace("difficulty: medium", "difficulty: hardest"))
    at.run()
    assert "line 5 · difficulty" in at.error[0].value
    at.button(key="author.save_button").click().run()
    assert not (instructor_env / "bank").exists()  # nothing written
    at.text_area[0].set_value(template_yaml("numeric")).run()
    assert not at.error and at.success[0].value.startswith("Valid")


def test_save_writes_into_the_instructor_folder_and_the_bank_sees_it(instructor_env):
    at = open_page("author")
    at.toggle(key="author.plain").set_value(True).run()
    at.text_area[0].set_value(template_yaml("expression", "apptest-formula")).run()
    at.text_input(key=f"author.file.{at.session_state[page_key(AuthorPage)].version}").set_value(
        "mine.yaml").run()
    at.button(key="author.save_button").click().run()
    assert not at.exception, at.exception
    saved = (instructor_env / "bank" / "mine.yaml").read_text(encoding="utf-8")
    assert "id: apptest-formula" in saved
    assert any("Saved apptest-formula" in s.value for s in at.success)


def with_a_failing_test() -> str:
    # A valid question, one of whose three author tests says a wrong answer is correct.
    return template_yaml("numeric").replace(
        "\ntests:\n", '\ntests:\n  - {answer: "2.5", verdict: correct}\n', 1)


@pytest.mark.parametrize("lang, refused, summary", [
    ("en", "Not saved: 1 of its 3 author tests fails.", "2 passed, 1 failed"),
    ("zh", "未保存：3 个作者测试中有 1 个没有通过。", "通过 2 个"),
])
def test_save_is_refused_while_an_author_test_fails(instructor_env, lang, refused, summary):
    at = open_page("author", lang)
    at.toggle(key="author.plain").set_value(True).run()
    at.text_area[0].set_value(with_a_failing_test()).run()
    assert len(at.success) == 1 and not at.error  # it validates
    at.button(key="author.save_button").click().run()
    assert not at.exception, at.exception
    assert not (instructor_env / "bank").exists()  # nothing written, nothing live
    assert at.error[0].value.startswith(refused)
    assert any(summary in e.value for e in at.error[1:])  # the tests' results, the failing one
    assert not any("practise it now" in s.value or "练习" in s.value for s in at.success)


def test_a_save_refused_for_its_file_name_says_why_without_placeholders(instructor_env):
    at = open_page("author")
    at.text_input(key=f"author.file.{at.session_state[page_key(AuthorPage)].version}").set_value(
        "../out.yaml").run()
    at.button(key="author.save_button").click().run()
    text = "\n".join(e.value for e in at.error)
    assert "a file name is letters" in text and "line ?" not in text and "-:" not in text


@pytest.mark.parametrize("lang, warning", [
    ("en", "prompt: no English text, so English learners see the 中文 text instead; add `en:`"),
    ("zh", "prompt：没有English文本，English学习者会看到中文文本；请补上 `en:`"),
])
def test_a_prompt_without_english_is_valid_with_a_warning(instructor_env, lang, warning):
    text = template_yaml("numeric")
    [english] = [line for line in text.splitlines(keepends=True) if line.startswith('  en: "Scalar')]
    at = open_page("author", lang)
    at.toggle(key="author.plain").set_value(True).run()
    at.text_area[0].set_value(text.replace(english, "")).run()
    assert len(at.success) == 1  # valid: it can be saved
    assert warning in at.warning[0].value
    at.text_area[0].set_value(text).run()
    assert not at.warning


@pytest.mark.parametrize("lang, warning", [
    ("en", "line 9 · symbols: `m` is under a square root or a logarithm in the expected answer, "
           "so it is only meaningful when positive; declare `positive: [m]`"),
    ("zh", "第 9 行 · symbols：`m` 在标准答案中位于平方根或对数之内，只有取正值才有意义；"
           "请声明 `positive: [m]`"),
])
def test_a_variable_only_meaningful_when_positive_is_a_warning_until_declared(
        instructor_env, lang, warning):
    from tests.quizbank.test_authoring import std_question_yaml

    at = open_page("author", lang)
    at.toggle(key="author.plain").set_value(True).run()
    at.text_area[0].set_value(std_question_yaml()).run()
    assert len(at.success) == 1  # valid: it can be saved
    assert warning in at.warning[0].value
    at.text_area[0].set_value(std_question_yaml("positive: [m]\n")).run()
    assert not at.warning


@pytest.mark.parametrize("lang, first_tab", [("en", "English"), ("zh", "中文")])
def test_the_author_page_opens_as_it_is_with_the_preview_in_the_interface_language(
        instructor_env, lang, first_tab):
    at = open_page("author", lang)
    # The template box names the template in the editor, and the preview opens on the
    # interface's language (st.tabs shows its first tab).
    assert at.selectbox(key="author.kind").value == "numeric"
    assert "type: numeric" in at.session_state[page_key(AuthorPage)].source
    assert [t.label for t in at.tabs][0] == first_tab


def test_author_and_mutation_tests_run_in_place(instructor_env):
    at = open_page("author")
    at.button(key="author.run_tests").click().run()
    assert any("2 passed, 0 failed" in s.value for s in at.success)
    at.button(key="author.run_mutations").click().run()
    assert any("mutants rejected" in s.value for s in at.success)
    changes = list(at.dataframe[0].value["change"])
    assert "every entry 10 tolerances too high" in changes and "mal-rule #1" in changes
    assert not any("_" in change for change in changes), changes  # no raw names


def test_every_mutation_kind_has_a_label_in_both_languages():
    import re
    from pathlib import Path

    from tutor.i18n import has

    root = Path(__file__).parents[2]
    sources = (root / "grader" / "mutants.py").read_text() + (
        root / "quizbank" / "mutations.py").read_text()
    kinds = set(re.findall(r'yield "([a-z_0-9]+)"', sources))
    kinds |= set(re.findall(r'\(\("([a-z_0-9]+)", ', sources))
    kinds |= set(re.findall(r'\("([a-z_0-9]+)", (?:_map|_first_entry|transposed|Neg|1|-1)',
                            sources))
    kinds |= set(re.findall(r'kind = "([a-z_]+)" if .* else "([a-z_]+)"', sources)[0])
    kinds |= set(re.findall(r'\("([a-z_0-9]+)",\n', sources))  # a pair split over two lines
    kinds |= {"key", "mutate", "malrule"}
    assert {"tolerance_x10_up", "tolerance_x10_down_first", "drop_identity", "exponent_down",
            "transpose"} <= kinds, kinds
    missing = [(lang, k) for k in sorted(kinds) for lang in ("en", "zh")
               if not has(f"author.mutation_kind.{k}", lang)]
    assert missing == []


def test_analytics_without_attempts_says_so(instructor_env):
    at = open_page("analytics")
    assert at.info[0].value.startswith("No attempts yet")


def test_analytics_shows_counts_never_names(instructor_env):
    store = ProgressStore.open()
    rng = random.Random(1)
    names = [f"Learner{k}Secret" for k in range(8)]
    for name in names:
        profile = store.create_profile(name)
        for qid in ("basics-residual-from-target", "worked-grad-x-expression"):
            verdict = rng.choice(["correct", "wrong"])
            store.record_attempt(profile.id, NewAttempt(qid, Verdict(verdict), answer="H(x)"),
                                 now=datetime(2026, 5, 1, tzinfo=UTC))
    store.close()
    at = open_page("analytics")
    at.selectbox(key="analytics.question").set_value("basics-residual-from-target").run()
    assert not at.exception, at.exception
    shown = " ".join(str(e.value) for kind in ("markdown", "caption", "text", "code", "metric")
                     for e in getattr(at, kind))
    assert "learners" in shown
    assert not any(name in shown for name in names)


def test_the_preview_seed_box_refuses_a_seed_it_cannot_use(instructor_env):
    at = open_page("author")
    at.toggle(key="author.plain").set_value(True).run()
    at.text_area[0].set_value(template_yaml("generated")).run()
    at.text_input(key="author.seed").input("1e9").run()
    assert not at.exception
    assert [e.value for e in at.error] == ["Type a whole number from 1 to 99,999. Still using 7."]
