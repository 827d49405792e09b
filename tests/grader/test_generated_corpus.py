"""bench/corpus/generated.jsonl: answers to compute's problems whose verdicts come from exact
arithmetic in bench/corpus/make_generated.py, not from the grader. The file must be what the
script writes (so it cannot go stale), and the grader must reach every verdict."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np

from grader.kinds.request import grade_request

CORPUS = Path(__file__).resolve().parents[2] / "bench" / "corpus"
GENERATED = CORPUS / "generated.jsonl"


def corpus() -> list[dict]:
    return [json.loads(line) for line in GENERATED.read_text(encoding="utf-8").splitlines()]


def graded_verdict(line: dict) -> tuple[str, dict]:
    """The grader's verdict in the corpus's words. A wrong answer must be read and judged wrong:
    an error (unreadable, misconfigured) is not agreement."""
    graded = grade_request(line)
    if graded.error:
        return "error", graded
    return ("correct" if graded.correct else "wrong"), graded


def test_file_is_what_the_script_writes():
    spec = importlib.util.spec_from_file_location("make_generated", CORPUS / "make_generated.py")
    script = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = script  # dataclasses look their module up there
    try:
        spec.loader.exec_module(script)
    finally:
        del sys.modules[spec.name]
    fresh = [json.loads(line) for line in script.render().splitlines()]
    stale = "generated.jsonl is stale: run .venv/bin/python bench/corpus/make_generated.py"
    assert [line["id"] for line in fresh] == [line["id"] for line in corpus()], stale
    for new, old in zip(fresh, corpus(), strict=True):
        # torch's float64 kernels may differ in the last bit between CPUs: values are compared
        # to 1e-12, everything else (answers, verdicts, tolerances) exactly.
        assert np.allclose(new.pop("expected"), old.pop("expected"), rtol=1e-12, atol=0), stale
        assert new == old, stale


def test_grader_reaches_every_verdict():
    failures = []
    for line in corpus():
        got, graded = graded_verdict(line)
        if got != line["verdict"]:
            failures.append(f"{line['id']}: answer {line['answer']!r}, expected {line['verdict']}, "
                            f"graded {got}: {graded['feedback']}")
    assert not failures, f"{len(failures)} verdicts differ:\n" + "\n".join(failures)
