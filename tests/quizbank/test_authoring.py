"""Editing a question as YAML: templates, live validation with lines, saving into an instructor's
file (comments kept, never invalid, never the shipped bank), mal-rules from the Analytics page."""

from __future__ import annotations

from pathlib import Path

import pytest

from quizbank import SHIPPED_BANK, BankCache, load_bank
from quizbank.author_templates import TYPES, template_yaml
from quizbank.author_tests import run_question_tests
from quizbank.authoring import (
    AuthorTestsFailed,
    SaveRefused,
    add_malrule,
    check_source,
    question_yaml,
    save_source,
)
from quizbank.grading import grade

SHIPPED = load_bank()
SHIPPED_ID = next(iter(SHIPPED.questions))
MY_FILE = """\
# My course's questions (this comment must survive a save)
questions:
  # the first question
  - id: keep-me
    type: numeric   # a number
    topic: residual-basics
    difficulty: easy
    source: {text: gradient-propagation, section: "1"}
    prompt: {en: "Compute 2."}
    solution: {en: "2"}
    answer: 2.0
    tolerance: {kind: absolute, value: 0.1}
"""


@pytest.mark.parametrize("kind", TYPES)
def test_every_template_validates_and_passes_its_author_tests(kind):
    assert len(TYPES) == 7
    draft = check_source(template_yaml(kind), SHIPPED)
    assert draft.ok, draft.problems
    outcomes = run_question_tests(draft.question, lambda k: "-", grade, "en")
    assert all(o.passed for o in outcomes), [str(o) for o in outcomes]


@pytest.mark.parametrize("edit, line, field, words", [
    (("difficulty: medium", "difficulty: impossible"), 5, "difficulty", "easy"),
    (("answer: 1.5", "answer: [1.5"), None, "-", "YAML syntax error"),
    (("tolerance: {kind: relative, value: 1.0e-3}", "tolerance: {kind: relative}"), 16,
     "tolerance.value", "missing"),
    (("id: my-numeric-question", "id: !!python/object:os.system x"), 1, "-", "tags are not"),
])
def test_validation_names_the_line_in_the_edited_text(edit, line, field, words):
    text = template_yaml("numeric").replace(*edit)
    draft = check_source(text, SHIPPED)
    assert not draft.ok
    problem = draft.problems[0]
    assert words in problem.message
    assert problem.field == field
    if line is not None:
        assert problem.line == line


def test_an_id_already_in_the_bank_is_refused_unless_it_is_the_one_edited():
    text = template_yaml("numeric", SHIPPED_ID)
    (problem,) = check_source(text, SHIPPED).problems
    assert "duplicate id; also defined at" in problem.message and problem.line == 1
    assert check_source(text, SHIPPED, replaces=SHIPPED_ID).problems == ()


def test_followups_must_exist():
    text = template_yaml("interview").replace("followups: []", "followups: [no-such-question]")
    (problem,) = check_source(text, SHIPPED).problems
    assert problem.field == "followups[0]" and "no question has id" in problem.message


def test_a_list_is_not_one_question():
    assert "one question" in check_source("- a\n- b\n", SHIPPED).problems[0].message


@pytest.fixture
def folder(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "course.yaml").write_text(MY_FILE, encoding="utf-8")
    return mine


def live(folder):
    return BankCache([SHIPPED_BANK, folder]).current()


def test_save_appends_and_keeps_the_rest_of_the_file_as_it_was(folder):
    path = save_source(template_yaml("expression"), live(folder).bank, folder=folder,
                      file_name="course.yaml")
    text = path.read_text(encoding="utf-8")
    assert text.startswith(MY_FILE)  # comments, order and spelling of the rest untouched
    current = live(folder)
    assert current.withheld == ()
    assert current.bank.questions["my-expression-question"].answer == "(I + W)^T g"


def test_save_replaces_the_edited_question_in_place(folder):
    bank = live(folder).bank
    edited = question_yaml(bank, "keep-me").replace("answer: 2.0", "answer: 3.0")
    assert "# a number" in edited  # its own comments come with it
    save_source(edited, bank, folder=folder, file_name="course.yaml", replaces="keep-me")
    text = (folder / "course.yaml").read_text(encoding="utf-8")
    assert "answer: 3.0" in text and "answer: 2.0" not in text
    assert text.count("id: keep-me") == 1 and "# the first question" in text


def test_saving_under_a_new_id_adds_a_question_and_keeps_the_old_one(folder):
    # Regression: the editor held another question after a save; saving it replaced the first.
    bank = live(folder).bank
    edited = question_yaml(bank, "keep-me").replace("id: keep-me", "id: renamed")
    save_source(edited, bank, folder=folder, file_name="course.yaml", replaces="keep-me")
    assert set(live(folder).bank.questions) - set(SHIPPED.questions) == {"keep-me", "renamed"}


def test_an_invalid_question_is_never_written(folder):
    before = (folder / "course.yaml").read_text(encoding="utf-8")
    with pytest.raises(SaveRefused) as refused:
        save_source(template_yaml("numeric").replace("medium", "impossible"), live(folder).bank,
                   folder=folder, file_name="course.yaml")
    assert refused.value.problems[0].field == "difficulty"
    assert (folder / "course.yaml").read_text(encoding="utf-8") == before
    assert sorted(p.name for p in folder.iterdir()) == ["course.yaml"]  # no temporary left


def failing_test_yaml() -> str:
    """The numeric template with one more author test, which says a wrong answer is correct."""
    text = template_yaml("numeric")
    assert "\ntests:\n" in text
    return text.replace("\ntests:\n", '\ntests:\n  - {answer: "2.5", verdict: correct}\n', 1)


def test_a_question_whose_author_tests_fail_is_never_saved(folder):
    before = (folder / "course.yaml").read_text(encoding="utf-8")
    text = failing_test_yaml()
    assert check_source(text, live(folder).bank).ok  # it validates: only its tests fail
    with pytest.raises(AuthorTestsFailed) as refused:
        save_source(text, live(folder).bank, folder=folder, file_name="course.yaml")
    [problem] = refused.value.problems
    assert problem.field == "tests[0]" and "expects correct, the grader says wrong" in \
        problem.message
    assert text.splitlines()[problem.line - 1].lstrip().startswith('- {answer: "2.5"')
    assert [o.passed for o in refused.value.outcomes].count(False) == 1
    assert (folder / "course.yaml").read_text(encoding="utf-8") == before
    assert "my-numeric-question" not in live(folder).bank.questions


def test_a_question_whose_author_tests_pass_is_saved(folder):
    save_source(template_yaml("numeric"), live(folder).bank, folder=folder,
               file_name="course.yaml")
    assert "my-numeric-question" in live(folder).bank.questions


@pytest.mark.parametrize(("dropped", "missing"), [('  en: "Scalar', "en"), ('  zh: "标量', "zh")])
def test_a_prompt_in_one_language_validates_with_a_warning_naming_it(dropped, missing):
    text = template_yaml("numeric")
    lines = text.splitlines(keepends=True)
    [k] = [k for k, line in enumerate(lines) if line.startswith(dropped)]
    draft = check_source("".join(lines[:k] + lines[k + 1:]), SHIPPED)
    assert draft.ok  # one language is allowed: learners of the other see it
    [warning] = draft.warnings
    assert (warning.field, warning.missing) == ("prompt", missing)
    assert lines[warning.line - 1].startswith(("prompt:", "  zh:", "  en:"))
    assert check_source(text, SHIPPED).warnings == ()


def test_warnings_name_nested_fields():
    text = template_yaml("choice")
    draft = check_source(text, SHIPPED)
    assert draft.ok and draft.warnings == ()
    both = 'text: {zh: "$x + F(x)$", en: "$x + F(x)$"}'
    assert both in text
    draft = check_source(text.replace(both, 'text: {zh: "$x + F(x)$"}'), SHIPPED)
    assert [(w.field, w.missing) for w in draft.warnings] == [("options[0].text", "en")]


@pytest.mark.parametrize("file_name", ["../escape.yaml", "/etc/x.yaml", "a/b.yaml", "x.txt", ""])
def test_file_names_stay_inside_the_folder(folder, file_name):
    with pytest.raises(SaveRefused):
        save_source(template_yaml("numeric"), live(folder).bank, folder=folder,
                   file_name=file_name)


def test_the_shipped_bank_is_never_written():
    first = sorted(SHIPPED_BANK.glob("*.yaml"))[0]
    before = first.read_text(encoding="utf-8")
    with pytest.raises(SaveRefused, match="shipped bank"):
        save_source(template_yaml("numeric"), SHIPPED, folder=SHIPPED_BANK, file_name=first.name)
    with pytest.raises(SaveRefused, match="shipped bank"):
        add_malrule(SHIPPED, SHIPPED_ID, "x", {"en": "no"})
    assert first.read_text(encoding="utf-8") == before


def test_a_file_that_is_not_plain_yaml_is_never_parsed_by_the_round_trip_reader(folder):
    (folder / "evil.yaml").write_text("questions: !!python/object/apply:os.system [echo hi]\n",
                                      encoding="utf-8")
    with pytest.raises(SaveRefused) as refused:
        save_source(template_yaml("numeric"), live(folder).bank, folder=folder,
                   file_name="evil.yaml")
    assert "tags are not allowed" in refused.value.problems[0].message


def test_a_class_of_wrong_answers_becomes_a_malrule_with_its_author_test(folder):
    bank = live(folder).bank
    add_malrule(bank, "keep-me", "4", {"en": "You doubled it.", "zh": "你把它加倍了。"})
    question = live(folder).bank.questions["keep-me"]
    assert grade(question, "4.0", lang="zh").malrule == "你把它加倍了。"
    assert [(t.answer, t.verdict.value) for t in question.tests] == [("4", "wrong")]
    assert "# the first question" in (folder / "course.yaml").read_text(encoding="utf-8")


def test_templates_follow_the_glossary():
    from quizbank.glossary import load_glossary, text_violations

    terms = load_glossary()
    for kind in TYPES:
        question = check_source(template_yaml(kind), SHIPPED).question
        for text in question.localized_fields():
            for lang in ("zh", "en"):
                assert text_violations(text.get(lang), lang, terms) == [], (kind, lang)


def test_templates_are_bilingual():
    for kind in TYPES:
        question = check_source(template_yaml(kind), SHIPPED).question
        assert all(t.is_bilingual for t in question.localized_fields()), kind


def test_shipped_question_text_can_be_opened_for_a_copy():
    text = question_yaml(SHIPPED, SHIPPED_ID)
    assert text.startswith(f"id: {SHIPPED_ID}")
    assert check_source(text, SHIPPED, replaces=SHIPPED_ID).ok
    assert Path(SHIPPED.location(SHIPPED_ID).path).exists()


def std_question_yaml(declared: str = "") -> str:
    """An expression question whose variable is only meaningful when positive (He's std)."""
    return (
        "id: my-he-std\ntype: expression\ntopic: residual-basics\ndifficulty: easy\n"
        'source: {text: gradient-propagation, section: "1"}\n'
        'prompt: {zh: "He 初始化的标准差？", en: "The standard deviation of He init?"}\n'
        'solution: {zh: "$\\\\sqrt{2/m}$", en: "$\\\\sqrt{2/m}$"}\n'
        'answer: "\\\\sqrt{2/m}"\nsymbols: [m]\n' + declared)


def test_a_variable_under_a_root_not_declared_positive_is_a_warning_with_its_line():
    text = std_question_yaml()
    draft = check_source(text, SHIPPED)
    assert draft.ok  # allowed: the grader then samples negative m too
    [warning] = draft.undeclared_positive
    assert (warning.name, warning.reason, warning.field) == ("m", "root_or_log", "symbols")
    assert text.splitlines()[warning.line - 1].startswith("symbols:")
    assert check_source(text + "positive: [m]\n", SHIPPED).undeclared_positive == ()
