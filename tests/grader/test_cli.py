"""`python -m grader check`: the JSON Lines contract, end to end through a subprocess."""

import json
import os
import subprocess
import sys

FIELDS = {"id", "correct", "score", "feedback", "interpreted", "error", "first_wrong_step",
          "elapsed_ms"}


def run_cli(lines):
    proc = subprocess.run([sys.executable, "-m", "grader", "check"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_one_line_out_per_line_in_with_exact_fields_in_order():
    requests = [
        {"id": "a", "kind": "expression", "expected": "1 + F'(x)", "answer": "1+F′(x)",
         "functions": ["F"]},
        {"id": "b", "kind": "numeric", "expected": [0.4, 2.05], "answer": "［0.4，2.05］",
         "rtol": 1e-3, "unknown_field": 1},
        {"id": "c", "kind": "derivation", "expected": "1 + F'(x)",
         "answer": ["diff(x,x) + diff(F(x),x)", "F'(x)"], "start": "d/dx (x + F(x))",
         "functions": ["F"], "lang": "zh"},
        {"id": "d", "kind": "expression", "expected": "(I+W)^T g", "answer": "(I+W) g",
         "matrices": ["W", "g"]},
    ]
    lines = [json.dumps(r, ensure_ascii=False) for r in requests]
    lines.insert(2, "{this is not json")
    lines.insert(3, '"a string"')
    out = run_cli(lines)
    assert len(out) == 6
    assert all(set(o) == FIELDS for o in out)
    assert [o["id"] for o in out] == ["a", "b", None, None, "c", "d"]
    assert out[0]["correct"] and out[1]["correct"]
    assert out[2]["error"] and out[3]["error"]
    assert out[4]["first_wrong_step"] == 2 and not out[4]["correct"]
    assert "第 2 行" in out[4]["feedback"]
    assert not out[5]["correct"] and "For example" in out[5]["feedback"]
    assert all(isinstance(o["elapsed_ms"], float) for o in out)


def test_cases_that_need_the_symbolic_check_go_to_the_worker():
    # No sample point is real here, so sampling cannot decide: sympy (in the worker) does.
    request = {"id": "s", "kind": "expression", "expected": "sqrt(-1 - x^2)",
               "answer": "sqrt(-(1 + x^2))"}
    for flags in ([], ["--contained-only"]):
        proc = subprocess.run([sys.executable, "-m", "grader", "check", *flags],
                              input=json.dumps(request) + "\n", capture_output=True, text=True,
                              timeout=60)
        (out,) = [json.loads(line) for line in proc.stdout.splitlines()]
        assert out["correct"] is True, out


def test_bytes_that_are_not_utf8_get_an_error_line():
    good = json.dumps({"id": "ok", "kind": "numeric", "expected": 2, "answer": "1+1"}).encode()
    bad = b'{"id": "bad", "kind": "numeric", "expected": 2, "answer": "\xff\xfe"}'
    proc = subprocess.run([sys.executable, "-m", "grader", "check"],
                          input=bad + b"\n" + b"\xff\n" + good + b"\n", capture_output=True,
                          timeout=60, env={**os.environ, "LANG": "C", "LC_ALL": "C"})
    out = [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines()]
    assert [o["id"] for o in out] == ["bad", None, "ok"]
    assert out[0]["error"] and out[1]["error"] and out[2]["correct"]
