"""One word per concept for a verdict (issue 26, item 2), checked by walking the code (ast):

- no typed record (a dataclass, NamedTuple or pydantic model field) and no parameter annotates a
  verdict as a string: a field or parameter named `verdict` (or `*_verdict`), and the author
  test's `expected` / `got`, is typed with an enum;
- no verdict is compared with a word (`x.verdict == "correct"`, a SQL column `== "wrong"`);
- one `Verdict` enum (the grader's), no `LineStatus`; quizbank's `ExpectedVerdict` says its
  values in the grader's words.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from grader import Result, Verdict
from quizbank import ExpectedVerdict
from quizbank.author_tests import verdict_of

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("grader", "quizbank", "tutor", "app_pages", "compute")
# fields that hold a verdict under another name: (class, field)
VERDICT_FIELDS = {("TestOutcome", "expected"), ("TestOutcome", "got")}
WORD_TYPES = {"str", "Literal", "Any", "object"}


def _sources() -> list[tuple[str, ast.Module]]:
    files = [p for package in PACKAGES for p in sorted((REPO / package).rglob("*.py"))]
    files.append(REPO / "streamlit_app.py")
    return [(str(p.relative_to(REPO)), ast.parse(p.read_text(encoding="utf-8"))) for p in files]


SOURCES = _sources()


def _is_verdict_name(name: str) -> bool:
    return name == "verdict" or name.endswith("_verdict")


def _names_in(annotation: ast.expr) -> set[str]:
    found = set()
    for node in ast.walk(annotation):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found |= _names_in(ast.parse(node.value, mode="eval").body)  # a string annotation
    return found


def _verdict_annotations():
    """(where, annotation) of every class field and parameter that holds a verdict."""
    for path, tree in SOURCES:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                        name = item.target.id
                        if _is_verdict_name(name) or (node.name, name) in VERDICT_FIELDS:
                            yield f"{path}:{item.lineno} {node.name}.{name}", item.annotation
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
                for arg in arguments:
                    if _is_verdict_name(arg.arg) and arg.annotation is not None:
                        yield f"{path}:{node.lineno} {node.name}({arg.arg})", arg.annotation


def test_the_walk_finds_the_typed_records():
    found = {where.split(" ")[1] for where, _ in _verdict_annotations()}
    assert {"NewAttempt.verdict", "AttemptRecord.verdict", "QuestionTime.verdict",
            "LearnerAnswer.verdict", "AttemptOut.verdict", "TestOutcome.got",
            "TestOutcome.expected", "Result.verdict", "RubricOutcome.verdict",
            "Outcome.verdict"} <= found


def test_no_typed_record_holds_a_verdict_as_a_word():
    as_words = [f"{where}: {ast.unparse(annotation)}" for where, annotation in _verdict_annotations()
                if _names_in(annotation) & WORD_TYPES]
    assert as_words == []


def _mentions_verdict(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and _is_verdict_name(node.id)) or (
        isinstance(node, ast.Attribute) and _is_verdict_name(node.attr))


def test_no_verdict_is_compared_with_a_word():
    found = []
    for path, tree in SOURCES:
        for node in ast.walk(tree):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            words = [s for s in sides if isinstance(s, ast.Constant) and isinstance(s.value, str)
                     or isinstance(s, ast.Tuple | ast.List | ast.Set)
                     and any(isinstance(e, ast.Constant) and isinstance(e.value, str)
                             for e in s.elts)]
            if words and any(_mentions_verdict(s) for s in sides):
                found.append(f"{path}:{node.lineno}: {ast.unparse(node)}")
    assert found == []


def _enum_classes():
    for path, tree in SOURCES:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(b, ast.Name) and b.id in ("StrEnum", "Enum", "IntEnum")
                    for b in node.bases):
                yield path, node.name


def test_one_verdict_enum_and_no_second_name_for_a_line_status():
    enums = list(_enum_classes())
    assert [path for path, name in enums if name == "Verdict"] == ["grader/result.py"]
    assert [path for path, name in enums if name == "StepStatus"] == ["grader/result.py"]
    assert [(path, name) for path, name in enums if "Verdict" in name and name != "Verdict"] == [
        ("quizbank/enums.py", "ExpectedVerdict")]
    assert [path for path, name in enums if name == "LineStatus"] == []


def test_an_expected_verdict_is_written_in_the_graders_words():
    assert {v.value for v in ExpectedVerdict} <= {v.value for v in Verdict}


@pytest.mark.parametrize(("verdict", "expected"), [
    (Verdict.CORRECT, ExpectedVerdict.CORRECT), (Verdict.PARTIAL, ExpectedVerdict.WRONG),
    (Verdict.WRONG, ExpectedVerdict.WRONG), (Verdict.UNREADABLE, ExpectedVerdict.UNREADABLE)])
def test_each_graders_verdict_is_the_expected_verdict_an_author_writes(verdict, expected):
    result = Result(verdict, error="cannot read" if verdict is Verdict.UNREADABLE else None)
    assert verdict_of(result) is expected
