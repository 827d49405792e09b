"""bench/corpus/generated.jsonl: answers to compute's problems whose verdicts come from exact
arithmetic in bench/corpus/make_generated.py, not from the grader. The file must be exactly what
the script writes (so it cannot go stale), and the grader must reach every verdict."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from grader.engine import grade_request

CORPUS = Path(__file__).resolve().parents[2] / "bench" / "corpus"
GENERATED = CORPUS / "generated.jsonl"

ZERO_SIGFIGS = ("grader bug: under sigfigs an entry that is exactly 0 cannot be typed; '0', "
                "'0.00' and '0.000' all count as 1 significant figure, so the answer gets "
                "'Give 3 significant figures (you gave 1)'")
# Lines the grader gets wrong, with why. Strict: when the grader is fixed these start passing,
# and the entry must go.
KNOWN_GRADER_BUGS = {
    "prenorm_postnorm_jacobian/easy-1/J_pre/nested": ZERO_SIGFIGS,
    "prenorm_postnorm_jacobian/easy-1/J_pre/semicolon-rows": ZERO_SIGFIGS,
    "prenorm_postnorm_jacobian/easy-1/J_pre/semicolon-rows-commas": ZERO_SIGFIGS,
}


def corpus() -> list[dict]:
    return [json.loads(line) for line in GENERATED.read_text(encoding="utf-8").splitlines()]


def graded_verdict(line: dict) -> tuple[str, dict]:
    """The grader's verdict in the corpus's words. A wrong answer must be read and judged wrong:
    an error (unreadable, misconfigured) is not agreement."""
    graded = grade_request(line)
    if graded["error"]:
        return "error", graded
    return ("correct" if graded["correct"] else "wrong"), graded


def test_file_is_what_the_script_writes():
    spec = importlib.util.spec_from_file_location("make_generated", CORPUS / "make_generated.py")
    script = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = script  # dataclasses look their module up there
    try:
        spec.loader.exec_module(script)
    finally:
        del sys.modules[spec.name]
    assert script.render() == GENERATED.read_text(encoding="utf-8"), (
        "generated.jsonl is stale: run .venv/bin/python bench/corpus/make_generated.py")


def test_known_bugs_name_lines_of_the_corpus():
    assert set(KNOWN_GRADER_BUGS) <= {line["id"] for line in corpus()}


def test_grader_reaches_every_verdict():
    failures = []
    for line in corpus():
        if line["id"] in KNOWN_GRADER_BUGS:
            continue
        got, graded = graded_verdict(line)
        if got != line["verdict"]:
            failures.append(f"{line['id']}: answer {line['answer']!r}, expected {line['verdict']}, "
                            f"graded {got}: {graded['feedback']}")
    assert not failures, f"{len(failures)} verdicts differ:\n" + "\n".join(failures)


@pytest.mark.parametrize("line_id", [
    pytest.param(line_id, marks=pytest.mark.xfail(strict=True, reason=reason))
    for line_id, reason in KNOWN_GRADER_BUGS.items()])
def test_known_grader_bug(line_id):
    line = next(line for line in corpus() if line["id"] == line_id)
    got, graded = graded_verdict(line)
    assert got == line["verdict"], f"answer {line['answer']!r}: {graded['feedback']}"
