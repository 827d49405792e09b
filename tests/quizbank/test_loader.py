"""Broken bank files: every kind gives `path:line: id: field: message`, exit 1, no traceback,
and runs no code. Lines are those of the offending value (marked `# <-` below)."""

import subprocess
import sys
from pathlib import Path

import pytest

from quizbank import BankError, load_bank
from quizbank.cli import main
from quizbank.yaml_reader import MAX_FILE_BYTES

from .conftest import VALID_BANK

BASE = """\
questions:
  - id: q-one
    type: numeric
    topic: worked-example
    difficulty: easy
    source: {text: gradient-propagation, section: "6.4"}
    prompt:
      zh: "求 y"
      en: "Compute y"
    solution: {zh: "解", en: "Solution"}
    answer: 1.5
    tolerance: {kind: relative, value: 1.0e-3}
"""
ALL_TYPES = (VALID_BANK / "all_types.yaml").read_text(encoding="utf-8")
CANARY = "/tmp/quizbank-canary-must-not-exist"

BILLION_LAUGHS = (
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]  # <-\n'
    + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)
    )
    + "questions: *i\n"
)


def edit(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


# (case name, file text, expected question id, field, message part); line = the `# <-` line
CASES = [
    (
        "syntax-error",
        edit(BASE, "    answer: 1.5", "    answer: 1.5: 2  # <-"),
        "-",
        "-",
        "YAML syntax error: mapping values are not allowed",
    ),
    (
        "unclosed-flow",
        edit(BASE, "value: 1.0e-3}\n", "value: 1.0e-3  # <-"),
        "-",
        "-",
        "YAML syntax error: did not find expected ',' or '}'",
    ),
    (
        "unknown-field",
        edit(BASE, "    answer: 1.5", "    answer: 1.5\n    colour: red  # <-"),
        "q-one",
        "colour",
        "unknown field",
    ),
    (
        "wrong-type",
        edit(BASE, "difficulty: easy", "difficulty: 3  # <-"),
        "q-one",
        "difficulty",
        "'easy', 'medium' or 'hard'",
    ),
    (
        "nested-wrong-type",
        edit(BASE, '      en: "Compute y"', "      en: 5  # <-"),
        "q-one",
        "prompt.en",
        "valid string",
    ),
    (
        "bad-tolerance",
        edit(BASE, "value: 1.0e-3}", "value: -1}  # <-"),
        "q-one",
        "tolerance",
        "relative tolerance must be positive",
    ),
    (
        "unknown-question-type",
        edit(BASE, "type: numeric", "type: essay  # <-"),
        "q-one",
        "type",
        "unknown question type 'essay'",
    ),
    (
        "missing-field",
        edit(
            edit(BASE, "  - id: q-one", "  - id: q-one  # <-"),
            '    solution: {zh: "解", en: "Solution"}\n',
            "",
        ),
        "q-one",
        "solution",
        "required field is missing",
    ),
    (
        "dangling-followup",
        edit(
            ALL_TYPES, "followups: [fx-expression]", "followups: [fx-expression, fx-missing]  # <-"
        ),
        "fx-interview",
        "followups[1]",
        "no question has id 'fx-missing'",
    ),
    (
        "unknown-template",
        edit(ALL_TYPES, "template: linear_residual_block", "template: no_such_template  # <-"),
        "fx-generated",
        "template",
        "unknown compute template 'no_such_template'",
    ),
    (
        "unknown-template-answer",
        edit(ALL_TYPES, "asks: [grad_x, loss]", "asks: [grad_x, loss,\n           gradient]  # <-"),
        "fx-generated",
        "asks[2]",
        "has no answer 'gradient'",
    ),
    (
        "python-tag",
        edit(
            BASE,
            "    answer: 1.5",
            f'    answer: !!python/object/apply:os.system ["touch {CANARY}"]  # <-',
        ),
        "-",
        "-",
        "YAML tags are not allowed (!!python/object/apply:os.system)",
    ),
    (
        "python-new-tag",
        edit(
            BASE,
            "    answer: 1.5",
            f'    answer: !!python/object/new:subprocess.Popen [["touch", "{CANARY}"]]  # <-',
        ),
        "-",
        "-",
        "YAML tags are not allowed",
    ),
    (
        "local-tag",
        edit(BASE, "answer: 1.5", "answer: !number 1.5  # <-"),
        "-",
        "-",
        "YAML tags are not allowed (!number)",
    ),
    ("alias-bomb", BILLION_LAUGHS, "-", "-", "anchors are not allowed (&a)"),
    (
        "merge-key",
        edit(BASE, "    answer: 1.5", "    <<: {answer: 1.5}  # <-"),
        "-",
        "-",
        "merge keys (<<) are not allowed",
    ),
    (
        "duplicate-key",
        edit(BASE, "    answer: 1.5", "    answer: 1.5\n    answer: 2.5  # <-"),
        "-",
        "-",
        "duplicate key 'answer' in one mapping",
    ),
    (
        "deep-nesting",
        "questions: " + "[" * 500 + "]" * 500 + "  # <-\n",
        "-",
        "-",
        "nesting deeper than",
    ),
    ("not-a-bank", "- id: q-one  # <-\n", "-", "questions", "a bank file is a mapping"),
    ("empty", "# <-\n", "-", "-", "file is empty"),
]


def expected_line(text: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), start=1) if "# <-" in line)


def write_case(folder: Path, name: str, text: str) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def _no_canary():
    Path(CANARY).unlink(missing_ok=True)
    yield
    assert not Path(CANARY).exists(), "a YAML tag ran code"


def printed_where(place: str, question_id: str, field: str) -> str:
    """How a problem's place is printed: "-" (not in a question, not in a field) is left out."""
    return ": ".join([place, *(p for p in (question_id, field) if p != "-"), ""])


@pytest.mark.parametrize(
    ("name", "text", "question_id", "field", "message"), CASES, ids=[c[0] for c in CASES]
)
def test_broken_file_reports_path_line_and_exits_1(
    tmp_path, capsys, name, text, question_id, field, message
):
    path = write_case(tmp_path, name, text)
    with pytest.raises(BankError) as caught:
        load_bank(path)
    line = expected_line(text)
    found = [(p.line, p.question_id, p.field, p.message) for p in caught.value.problems]
    assert any(
        (ln, qid, f) == (line, question_id, field) and message in m for ln, qid, f, m in found
    ), found

    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert printed_where(f"{path}:{line}", question_id, field) in out
    assert "Traceback" not in out and ": -:" not in out


@pytest.mark.parametrize(
    ("name", "content", "line", "message"),
    [
        (
            "latin1",
            "questions:\n  - id: caf\xe9\n".encode("latin-1"),
            2,
            "not UTF-8 text (byte 0xe9",
        ),
        ("utf16", "questions: []\n".encode("utf-16"), 1, "not UTF-8 text"),
        ("oversize", b"# padding\n" * (MAX_FILE_BYTES // 10 + 1), 1, "the limit is 1048576"),
        ("control-char", b"questions:\n  - id: a\x07b\n", 2, "control characters are not allowed"),
    ],
)
def test_unreadable_bytes_report_path_line(tmp_path, capsys, name, content, line, message):
    path = tmp_path / f"{name}.yaml"
    path.write_bytes(content)
    with pytest.raises(BankError) as caught:
        load_bank(path)
    [problem] = caught.value.problems
    assert (problem.line, problem.field) == (line, "-") and message in problem.message
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:{line}: " in out and message in out and ": -:" not in out


def test_duplicate_ids_are_reported_at_both_places(tmp_path, capsys):
    (tmp_path / "sub").mkdir()
    first = write_case(tmp_path, "a", BASE)
    second = write_case(tmp_path / "sub", "b", "# another file\n" + BASE)
    with pytest.raises(BankError) as caught:
        load_bank(tmp_path)
    found = sorted((p.path, p.line, p.message) for p in caught.value.problems)
    assert found == [
        (str(first), 2, f"duplicate id; also defined at {second}:3"),
        (str(second), 3, f"duplicate id; also defined at {first}:2"),
    ]
    assert main(["validate", str(tmp_path)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{first}:2: q-one: id: duplicate id; also defined at {second}:3",
        f"{second}:3: q-one: id: duplicate id; also defined at {first}:2",
        "2 problems found",
    ]


def test_all_problems_of_a_folder_come_at_once(tmp_path):
    for name, text, *_ in CASES:
        write_case(tmp_path, name, text)
    with pytest.raises(BankError) as caught:
        load_bank(tmp_path)
    reported_files = {Path(p.path).stem for p in caught.value.problems}
    # dangling-followup and unknown-template repeat the fixture's ids: duplicates, also reported
    assert reported_files == {name for name, *_ in CASES}


def test_cli_in_a_subprocess_reports_every_file_without_traceback(tmp_path):
    for name, text, *_ in CASES:
        if "fx-" not in text:  # keep the ids unique across this folder
            write_case(tmp_path, name, text)
    run = subprocess.run(
        [sys.executable, "-m", "quizbank", "validate", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).parents[2],
    )
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    for name, text, question_id, field, _ in CASES:
        if "fx-" not in text:
            where = printed_where(f"{tmp_path / name}.yaml:{expected_line(text)}", question_id,
                                  field)
            assert where in run.stdout


def test_valid_folder_passes_with_a_summary(capsys):
    assert main(["validate", str(VALID_BANK)]) == 0
    assert capsys.readouterr().out == "ok: 7 questions in 1 file, no problems\n"


@pytest.mark.parametrize("target", ["missing-dir", "empty-dir"])
def test_nothing_to_load_is_a_problem_not_a_crash(tmp_path, capsys, target):
    path = tmp_path / target
    if target == "empty-dir":
        path.mkdir()
    assert main(["validate", str(path)]) == 1
    assert str(path) in capsys.readouterr().out
