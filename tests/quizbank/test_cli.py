"""`quizbank schema | stats | test`, and the shipped bank through the same commands."""

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from grader import Result, Verdict
from quizbank import SHIPPED_BANK, load_bank
from quizbank import author_tests as author_tests_module
from quizbank.cli import main
from quizbank.schema import bank_file_schema
from quizbank.stats import bank_stats

from .conftest import VALID_BANK

SHIPPED_FILES = sorted(SHIPPED_BANK.rglob("*.yaml"))
REPO = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def schema() -> dict:
    return bank_file_schema()


def test_schema_command_prints_the_schema(capsys, schema):
    assert main(["schema"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(json.dumps(schema))
    jsonschema.Draft202012Validator.check_schema(printed)


def test_shipped_schema_file_is_up_to_date(capsys):
    """Editors read quizbank/bank.schema.json; regenerate: quizbank schema > quizbank/bank.schema.json"""
    main(["schema"])
    assert (REPO / "quizbank" / "bank.schema.json").read_text(
        encoding="utf-8"
    ) == capsys.readouterr().out


@pytest.mark.parametrize(
    "path", [VALID_BANK / "all_types.yaml", *SHIPPED_FILES], ids=lambda p: p.name
)
def test_schema_accepts_every_valid_and_shipped_file(schema, path):
    jsonschema.validate(yaml.safe_load(path.read_text(encoding="utf-8")), schema)


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda q: q.update(type="essay"), "unknown type"),
        (lambda q: q.update(colour="red"), "unknown field"),
        (lambda q: q.pop("solution"), "missing field"),
        (lambda q: q.update(prompt={}), "no language"),
        (lambda q: q.update(difficulty="extreme"), "not in the enum"),
        (lambda q: q["tolerance"].update(kind="percent"), "tolerance kind"),
        (lambda q: q.update(answer="0.4"), "answer as text"),
    ],
)
def test_schema_refuses_what_the_models_refuse(schema, sample, change, reason):
    question = sample("numeric")
    change(question)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"questions": [question]}, schema)


def test_stats_counts_by_type_topic_difficulty_and_language(capsys):
    assert main(["stats", str(VALID_BANK), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["total"] == 7
    assert set(stats["by_type"].values()) == {1}
    assert stats["by_topic"]["jacobian"] == 2 and stats["by_topic"]["lstm"] == 0
    assert stats["by_difficulty"] == {"easy": 2, "medium": 4, "hard": 1}
    # the interview's misconception keywords are in English only
    assert (stats["bilingual"], stats["en_only_fields"], stats["zh_only_fields"]) == (6, 1, 0)
    assert stats["author_tests"] == 10


def test_stats_table(capsys):
    assert main(["stats", str(VALID_BANK)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("7 questions, 10 author tests\n")
    assert "both zh and en in every field     6 of 7" in out


def test_test_command_without_grader_says_so_and_exits_2(monkeypatch, capsys):
    def missing():
        raise author_tests_module.GraderUnavailable("the grader is not available (test)")

    monkeypatch.setattr("quizbank.cli.import_grade_question", missing)
    assert main(["test", str(VALID_BANK)]) == 2
    assert (
        "cannot run author tests: the grader is not available" in capsys.readouterr().err
    )


def fake_grader(question, answer, *, lang, variant):
    """Marks correct exactly the answers the fixture's first test of each question gives."""
    first = question.tests[0].answer
    if question.type == "generated":
        assert variant == ("variant", question.template, 7) and set(answer) == {"grad_x", "loss"}
        assert all(text != "key" for text in answer.values())  # "key" replaced by the answer key
        return Result(Verdict.CORRECT)
    if answer == "(I + W) g":
        return Result(Verdict.WRONG, feedback="You forgot the transpose.")
    verdict = Verdict.CORRECT if answer == first else Verdict.WRONG
    return Result(verdict, feedback=f"graded in {lang}")


@pytest.fixture
def no_compute(monkeypatch):
    """Generated questions' variants without running compute (the fake grader checks them)."""
    monkeypatch.setattr("quizbank.variants.variant_for",
                        lambda question, seed: ("variant", question.template, seed))
    monkeypatch.setattr(author_tests_module, "_answer_with_keys",
                        lambda answer, variant: {k: "[1]" for k in answer})


def test_test_command_reports_failures_like_a_test_runner(monkeypatch, capsys, tmp_path,
                                                         no_compute):
    bank_file = tmp_path / "bank.yaml"
    text = (VALID_BANK / "all_types.yaml").read_text(encoding="utf-8")
    # The fake grader says "correct" to [b]; expecting "wrong" must fail at that test's line.
    bank_file.write_text(
        text.replace("{answer: [a], verdict: correct}", "{answer: [a], verdict: wrong}"),
        encoding="utf-8",
    )
    monkeypatch.setattr("quizbank.cli.import_grade_question", lambda: fake_grader)
    assert main(["test", str(bank_file), "--lang", "zh"]) == 1
    out = capsys.readouterr().out.splitlines()
    line = next(
        i for i, t in enumerate(text.splitlines(), 1) if "{answer: [a], verdict: correct}" in t
    )
    assert out == [
        f"{bank_file}:{line}: fx-choice: test #1: expected wrong got correct (graded in zh)",
        "9 passed, 1 failed",
    ]


def test_a_grader_crash_is_a_failed_test_not_a_traceback(monkeypatch, capsys, no_compute):
    def crashing(question, answer, *, lang, variant):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr("quizbank.cli.import_grade_question", lambda: crashing)
    assert main(["test", str(VALID_BANK)]) == 1
    out = capsys.readouterr().out
    assert "fx-numeric: test #1: expected correct got error (ZeroDivisionError: boom)" in out
    assert out.endswith("0 passed, 10 failed\n")


def test_shipped_bank_validates(capsys):
    assert main(["validate"]) == 0
    assert capsys.readouterr().out.startswith("ok: ")
    assert len(load_bank()) >= 1


def test_loading_the_bank_imports_neither_torch_nor_the_grader():
    code = (
        "import sys, quizbank; quizbank.load_bank(); "
        "print(sorted(m for m in ('torch', 'sympy', 'grader') if m in sys.modules))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_test_command_with_the_real_grader(tmp_path, capsys):
    assert main(["test", str(VALID_BANK)]) == 0
    assert capsys.readouterr().out == "10 passed, 0 failed\n"

    text = (VALID_BANK / "all_types.yaml").read_text(encoding="utf-8")
    wrong_expectation = '{answer: "(I + W) g", verdict: correct}'
    broken = tmp_path / "bank.yaml"
    broken.write_text(
        text.replace('{answer: "(I + W) g", verdict: wrong}', wrong_expectation), encoding="utf-8"
    )
    line = next(
        i for i, t in enumerate(broken.read_text().splitlines(), 1) if wrong_expectation in t
    )
    assert main(["test", str(broken)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(
        f"{broken}:{line}: fx-expression: test #2: expected correct got wrong ("
    )
    assert "transpose" in out[0]  # the mal-rule's feedback
    assert out[1:] == ["9 passed, 1 failed"]


def test_every_shipped_author_test_passes(capsys):
    """The shipped bank's author tests, through the real grader: the bank's own unit tests."""
    code = main(["test"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.splitlines()[-1].endswith(" passed, 0 failed")


def test_shipped_bank_is_bilingual_everywhere():
    """Everything drawn from the source texts carries both zh and en (issue 2)."""
    bank = load_bank()
    stats = bank_stats(bank)
    monolingual = [
        q.id
        for q in bank
        if not all(t.is_bilingual for t in q.localized_fields())
        or not all(p.keywords.is_bilingual for p in getattr(q, "rubric", []))
    ]
    assert monolingual == [] and stats.bilingual == stats.total


def test_the_shipped_bank_has_every_text_in_both_languages(capsys):
    assert main(["validate", str(SHIPPED_BANK)]) == 0
    out = capsys.readouterr().out
    assert "warning" not in out and out.endswith(", no problems\n")


def test_validate_warns_of_a_prompt_in_one_language_and_still_passes(tmp_path, capsys):
    question = {"id": "en-only", "type": "numeric", "topic": "residual-basics",
                "difficulty": "easy", "source": {"text": "gradient-propagation", "section": "1"},
                "prompt": {"zh": "计算 2。"}, "solution": {"zh": "2", "en": "2"}, "answer": 2.0,
                "tolerance": {"kind": "absolute", "value": 0.1}}
    path = tmp_path / "mine.yaml"
    path.write_text(yaml.safe_dump({"questions": [question]}, allow_unicode=True),
                    encoding="utf-8")
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"warning: {path}:") and ": en-only: prompt: no English text" in out[0]
    assert out[-1] == "ok: 1 question in 1 file, no problems, 1 warning"
