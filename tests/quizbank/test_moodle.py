"""Moodle XML in and out.

The files under fixtures/moodle/ were written by hand from Moodle's documented "Moodle XML
format" and the shape of the files Moodle 4.x writes (CDATA, multilang spans, `\\( \\)` maths,
hints, tags, a category); no file written by Moodle itself could be fetched on this machine.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from defusedxml.ElementTree import fromstring

from quizbank import load_bank, parse_bank
from quizbank.cli import main
from quizbank.moodle import (
    ImportDefaults,
    MoodleImportRefused,
    export_moodle,
    import_moodle,
    questions_yaml,
)
from quizbank.moodle.export import EXPORTERS
from quizbank.moodle.imports import MAX_BYTES
from quizbank.moodle.markup import html_to_markdown, localized_to_html, markdown_to_html
from quizbank.moodle.notes import ENGLISH
from quizbank.yaml_reader import parse_yaml_text

from .conftest import VALID_BANK

MOODLE = Path(__file__).parent / "fixtures" / "moodle"
SHIPPED = load_bank()
FIXTURE_BANK = load_bank(VALID_BANK)
EXPORTABLE = [q for q in [*SHIPPED, *FIXTURE_BANK]
              if q.type in EXPORTERS and not (q.type == "numeric" and isinstance(q.answer, list))]
# Moodle's grade options (question/engine/lib.php get_grade_options); an imported fraction must be
# within 1e-5 of one of them or Moodle refuses the file.
MOODLE_GRADES = [100, 90, 83.33333, 80, 75, 70, 66.66667, 60, 50, 40, 33.33333, 30, 25, 20,
                 16.66667, 14.28571, 12.5, 11.11111, 10, 5, 0]


def roundtrip(question):
    xml, _ = export_moodle([question])
    imported = import_moodle(xml)
    assert imported.notes == [] or all(n.code != "invalid" for n in imported.notes)
    (data,) = imported.questions
    return parse_bank({"questions": [data]}).questions[question.id]


@pytest.mark.parametrize("question", EXPORTABLE, ids=lambda q: q.id)
def test_every_mapped_question_survives_a_round_trip(question):
    # Regression: author tests (and numeric mal-rules) were lost on the way (issue 22).
    back = roundtrip(question)
    assert back.model_dump() == question.model_dump()


def test_every_mapped_type_is_covered_by_the_round_trip():
    assert {q.type for q in EXPORTABLE} == set(EXPORTERS)


def test_unmapped_types_and_vectors_are_reported_not_exported():
    skipped = [q for q in FIXTURE_BANK if q not in EXPORTABLE]
    xml, notes = export_moodle(skipped)
    assert fromstring(xml).findall("question")[1:] == []  # only the category
    assert {n.code for n in notes} == {"skipped_type", "skipped_vector"}
    assert {n.params["question"] for n in notes} == {q.id for q in skipped}


def test_the_export_is_moodle_shaped():
    xml, _ = export_moodle(EXPORTABLE)
    root = fromstring(xml)
    category, *questions = root.findall("question")
    assert category.get("type") == "category" and category.findtext("category/text")
    for element in questions:
        assert element.get("type") in {"multichoice", "numerical", "shortanswer", "ordering"}
        for tag in ("name/text", "questiontext/text", "generalfeedback/text", "idnumber"):
            assert element.find(tag) is not None, tag
        assert element.find("questiontext").get("format") == "html"
        if element.get("type") == "multichoice":
            fractions = [float(a.get("fraction")) for a in element.findall("answer")]
            assert math.isclose(sum(f for f in fractions if f > 0), 100, abs_tol=1e-4)
            for fraction in fractions:
                assert any(abs(abs(fraction) - g) < 1e-5 for g in MOODLE_GRADES), fraction


def test_maths_and_languages_use_moodle_notation():
    question = SHIPPED.questions[next(q.id for q in EXPORTABLE if "$" in q.prompt.en)]
    xml, _ = export_moodle([question])
    text = fromstring(xml).findall("question")[1].findtext("questiontext/text")
    assert '<span lang="en" class="multilang">' in text
    assert '<span lang="zh_cn" class="multilang">' in text
    assert "\\(" in text and "$" not in text


@pytest.mark.parametrize("key, tolerance, expected", [
    (2.0, {"kind": "absolute", "value": 0.01}, 0.01),
    (-4.0, {"kind": "relative", "value": 1.0e-3}, 4.0e-3),
    (9.54e-7, {"kind": "sigfigs", "value": 3}, 5.0e-10),  # half a unit in the 3rd figure
    (3325.26, {"kind": "sigfigs", "value": 2}, 50.0),
])
def test_numeric_tolerances_become_absolute(sample, key, tolerance, expected):
    data = sample("numeric") | {"answer": key, "tolerance": tolerance, "tests": []}
    question = parse_bank({"questions": [data]}).questions[data["id"]]
    xml, notes = export_moodle([question])
    exported = float(fromstring(xml).findall("question")[1].findtext("answer/tolerance"))
    assert math.isclose(exported, expected, rel_tol=1e-12)
    assert (notes == []) == (tolerance["kind"] == "absolute")


def test_a_star_in_a_formula_is_not_a_moodle_wildcard(sample):
    data = sample("expression") | {"answer": "2*W^T g", "malrules": [], "tests": []}
    question = parse_bank({"questions": [data]}).questions[data["id"]]
    xml, _ = export_moodle([question])
    assert fromstring(xml).findall("question")[1].findtext("answer/text") == "2\\*W^T g"
    assert roundtrip(question).answer == "2*W^T g"


# --- importing files Moodle writes -------------------------------------------------------------

@pytest.fixture(scope="module")
def course():
    return import_moodle((MOODLE / "course_export.xml").read_bytes(), ImportDefaults(
        topic="residual-basics", difficulty="easy", source_text="residual-connection",
        section="DL 101"))


def imported(course, qid):
    data = next(q for q in course.questions if q["id"] == qid)
    return parse_bank({"questions": [data]}).questions[qid]


def notes_for(course, qid):
    return {n.code for n in course.notes if n.params.get("question") == qid}


def test_single_choice_with_both_languages_and_maths(course):
    q = imported(course, "residual-output")
    assert q.prompt.en == "What does a residual block output, given $F$?"
    assert q.prompt.zh == "给定 $F$，残差模块输出什么？"
    assert q.solution.zh == "模块把输入加回去：$y = x + F(x)$。"
    assert [o.text.en for o in q.options] == ["$x + F(x)$", "$F(x)$", "$x \\cdot F(x)$"]
    assert [o.correct for o in q.options] == [True, False, False]
    assert q.options[1].feedback.zh == "少了恒等路径。"
    assert q.hints[0].en == "Think of the **identity** path."
    assert q.tags == ["residual-form", "category:default-for-dl-101/residuals"]
    assert (q.topic.value, q.difficulty.value, q.source.text.value, q.source.section) == (
        "residual-basics", "easy", "residual-connection", "DL 101")
    # Moodle's combined feedback has no place here: named, not dropped silently (issue 22).
    assert notes_for(course, "residual-output") == {"defaults_used", "wrong_option_feedback",
                                                    "not_kept"}


def test_multiple_choice_scripts_are_dropped_and_reported(course):
    q = imported(course, "pre-ln-facts")  # no idnumber: made from the name
    assert q.multiple and [o.correct for o in q.options] == [True, True, False]
    assert "alert" not in q.prompt.en and "script" not in q.prompt.en
    assert {"dropped_html", "renamed_id", "no_solution"} <= notes_for(course, "pre-ln-facts")


def test_true_false_becomes_a_two_option_choice(course):
    q = imported(course, "vanishing-never")
    assert [(o.id, o.correct) for o in q.options] == [("true", False), ("false", True)]
    assert q.options[0].feedback.en == "Not impossible: less likely."


def test_numerical_with_tolerance_units_and_a_catch_all(course):
    q = imported(course, "gradient-multiplier")
    assert q.answer == 3325.26
    assert (q.tolerance.kind.value, q.tolerance.value) == ("absolute", 0.5)
    assert "\\$5" in q.prompt.en  # a dollar in the text stays a dollar, not maths
    assert {"units_dropped", "wildcard"} <= notes_for(course, "gradient-multiplier")


def test_formula_short_answer_becomes_an_expression_with_its_malrules(course):
    q = imported(course, "scalar-derivative")
    assert (q.answer, q.symbols) == ("1 + a", ["a"])
    assert [(r.answer, r.feedback.en) for r in q.malrules] == [
        ("a", "You dropped the identity term.")]
    assert {"partial_credit", "declared_symbols"} <= notes_for(course, "scalar-derivative")


def test_ordering_follows_the_positions_not_the_file_order(course):
    q = imported(course, "preln-order")
    assert [s.text.en for s in q.steps] == ["LayerNorm the input", "Apply the sub-layer $F$",
                                            "Add the input back"]


def test_what_cannot_be_mapped_is_reported(course):
    ids = {q["id"] for q in course.questions}
    assert "capital-city" not in ids
    assert "not_a_formula" in notes_for(course, "capital-city")
    unmapped = {n.params["type"] for n in course.notes if n.code == "unmapped_type"}
    assert unmapped == {"essay", "multianswer"}


def test_imported_questions_write_a_bank_file_the_loader_accepts(course, tmp_path):
    text = questions_yaml(course.questions)
    document, problems = parse_yaml_text(text, "imported.yaml")
    assert problems == []
    assert len(parse_bank(document.data)) == len(course.questions) == 6


def test_imported_ids_never_reuse_taken_ones():
    data = (MOODLE / "course_export.xml").read_bytes()
    result = import_moodle(data, taken_ids={"residual-output"})
    assert "residual-output-2" in {q["id"] for q in result.questions}


# --- hostile files -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["xxe.xml", "billion_laughs.xml"])
def test_entity_attacks_are_refused_with_a_clear_message(name):
    with pytest.raises(MoodleImportRefused) as refused:
        import_moodle((MOODLE / name).read_bytes())
    assert refused.value.code == "dtd"
    assert "XXE" in str(refused.value) and "billion laughs" in str(refused.value)


@pytest.mark.parametrize("data, code", [
    (b"<quiz>" + b" " * MAX_BYTES + b"</quiz>", "too_large"),
    (b"<quiz><question>", "not_xml"),
    (b"<html><body/></html>", "not_moodle"),
    (b"<quiz>" + b'<question type="essay"/>' * 2001 + b"</quiz>", "too_many"),
])
def test_other_bad_files_are_refused(data, code):
    with pytest.raises(MoodleImportRefused) as refused:
        import_moodle(data)
    assert refused.value.code == code


def test_every_note_code_has_an_english_sentence_and_app_translations():
    import app_pages  # noqa: F401 - the Author page shows these: its strings join tutor.i18n
    from tutor.i18n import catalog

    for lang in ("en", "zh"):
        strings = catalog(lang, "author")
        notes = {key.removeprefix("author.moodle.note.").split(".")[0] for key in strings
                 if key.startswith("author.moodle.note.")}
        assert notes == set(ENGLISH), lang
        refused = {key.removeprefix("author.moodle.refused.").split(".")[0] for key in strings
                   if key.startswith("author.moodle.refused.")}
        assert refused == set(MoodleImportRefused.MESSAGES), lang


# --- HTML <-> Markdown ------------------------------------------------------------------------

@pytest.mark.parametrize("markdown", [
    "plain", "**bold** and *italic*", "a `code` span", "inline $x^2 < y$ maths",
    "display $$\\sum_i x_i$$ maths", "line one\nline two", "para one\n\npara two",
    "- one\n- two $x$", "1. first\n2. second", "a & b < c",
    # Regression: a fenced code block lost its indentation and blank lines on the way back.
    "Code:\n\n```python\ndef f(x):\n\n\n    return x < 2  # $5\n```\n\nAfter $x$.",
])
def test_markdown_survives_html_both_ways(markdown):
    assert html_to_markdown(markdown_to_html(markdown)).texts == {"en": markdown}


@pytest.mark.parametrize("html, expected", [
    ('<p onclick="steal()">Hi <a href="javascript:x">there</a></p>', {"en": "Hi there"}),
    ("<p>x<sup>2</sup></p>", {"en": "x^2"}),
    ("<style>p{}</style><p>ok</p>", {"en": "ok"}),
    ("{mlang en}Yes{mlang}{mlang zh_cn}是{mlang}", {"en": "Yes", "zh": "是"}),
    ('<span class="multilang" lang="fr">Oui</span><span class="multilang" lang="en">Yes</span>',
     {"en": "Yes"}),
    ("<p>残差</p>", {"zh": "残差"}),
    ("<pre>a  b\n  c</pre>", {"en": "```\na  b\n  c\n```"}),
    ("Common <span lang='en' class='multilang'>A</span><span lang='zh' class='multilang'>甲</span>",
     {"en": "Common A", "zh": "Common 甲"}),
])
def test_html_is_read_as_text_never_kept(html, expected):
    assert html_to_markdown(html).texts == expected


def test_one_language_is_written_without_spans():
    assert "multilang" not in localized_to_html({"en": "Only English", "zh": None})


# --- command line ------------------------------------------------------------------------------

def test_cli_export_then_import(tmp_path, capsys):
    xml_path, yaml_path = tmp_path / "out.xml", tmp_path / "back.yaml"
    assert main(["moodle-export", str(VALID_BANK), "-o", str(xml_path)]) == 0
    out = capsys.readouterr().out
    assert "exported 3 questions" in out and "not exported" in out
    yaml_path.write_text("", encoding="utf-8")  # exists: needs --force
    assert main(["moodle-import", str(xml_path), "-o", str(yaml_path)]) == 1
    capsys.readouterr()
    assert main(["moodle-import", str(xml_path), "-o", str(yaml_path), "--force"]) == 0
    assert "imported 3 questions" in capsys.readouterr().out
    assert main(["validate", str(yaml_path)]) == 0


def test_cli_import_refuses_an_attack_with_exit_1(tmp_path, capsys):
    code = main(["moodle-import", str(MOODLE / "xxe.xml"), "-o", str(tmp_path / "x.yaml")])
    assert code == 1 and "XXE" in capsys.readouterr().err
    assert not (tmp_path / "x.yaml").exists()
