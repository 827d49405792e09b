"""Hostile input through the real contained worker: no code runs, every answer comes back with a
message, a killed worker is replaced, and the next answer grades normally. (How fast they come
back, within 2 s each, is measured by bench/bench_time_bounds.py: a wall-clock bound fails with
the machine's load, not with the code.)"""

import pytest

from grader.worker import Worker


@pytest.fixture(scope="module")
def worker():
    w = Worker(test_hooks=True)
    w.start()
    yield w
    w.close()


def hostile_answers(sentinel):
    touch = f"touch {sentinel}"
    return [
        f"__import__('os').system('{touch}')",
        f'__import__("os").system("{touch}")',
        f"eval(\"__import__('os').system('{touch}')\")",
        f"exec('import os; os.system(\"{touch}\")')",
        f"open('{sentinel}', 'w')",
        "().__class__.__bases__[0].__subclasses__()",
        "x.__class__",
        "F.__globals__",
        "getattr(x, '__class__')",
        "lambda: 0",
        "import os",
        "${7*7}",
        "x; import os",
        "9^9^9^9",
        "9**9**9**9",
        "10^10^10",
        "99999999!",
        "(" * 5000 + "x" + ")" * 5000,
        "[" * 5000 + "x" + "]" * 5000,
        "x+" * 50000 + "x",
        "1" * 100_000,
        "x\x00",
        "\x00" * 100,
        "x\x00__import__('os')",
        r"\input{/etc/passwd}",
        r"\include{/etc/passwd}",
        r"\def\a{\a}\a",
        r"\newcommand{\a}{\a}\a",
        r"\mathbf{__import__}",
        "nan",
        "1e309",
        "NaN + x",
        "1/0",  # undefined: unreadable, with a message (issue 10, item 7)
        "inf - inf",
        # notations of issue 10: each bounded by the same limits
        "sin^99999999 x",
        "sin^(9^9^9) x",
        "d^99F/dx^99",
        "∂" * 500,
        "$" * 1000,
        "log_{" + "9" * 18 + "}(x)",
        r"\log_{" + "x" * 5000 + "}",
        "max(" + "x," * 5000 + "x)",
        "root(x, 0.000001)",
        r"\sqrt[0.000001]{x}",
        "9.54x10^999999",
        "sin^2 " * 300 + "x",
        "9,5" * 400,
        "≈" * 300 + "1",
        # exact arithmetic of issue 10: exponents, factorials and binomials stay bounded
        "x^10001",
        "1001!",
        "(10^50)!",
        "binomial(10^9, 5*10^8)",
        "factorial(10^6)",
    ]  # inf, -inf and ∞ are read and graded wrong: tests/grader/test_undefined_values.py


def test_template_syntax_is_only_grouping(worker):
    r = worker.grade({"kind": "expression", "expected": "x", "answer": "{{7*7}}"})
    assert r.interpreted == r"7 \cdot 7" and not r.correct


def test_no_code_runs_and_every_answer_returns_with_a_message(worker, tmp_path):
    sentinel = tmp_path / "pwned"
    for answer in hostile_answers(sentinel):
        for kind, expected in (("expression", "x + F(x)"), ("numeric", 1.0)):
            r = worker.grade({"kind": kind, "expected": expected, "answer": answer,
                              "functions": ["F"]})
            assert r.correct is False
            assert r.error, (kind, answer[:60], r.feedback)
    assert not sentinel.exists()


def test_the_apps_entry_point_keeps_the_same_guarantees(worker, tmp_path, monkeypatch):
    """`grader.check` grades in the app's own process first: hostile text must be as harmless
    there (and the next answer still grades)."""
    import grader
    from grader import api

    monkeypatch.setattr(api, "shared_worker", lambda: worker)
    sentinel = tmp_path / "pwned"
    for answer in hostile_answers(sentinel):
        for kind, expected in (("expression", "x + F(x)"), ("numeric", 1.0)):
            r = grader.check({"kind": kind, "expected": expected, "answer": answer,
                              "functions": ["F"]})
            assert r.correct is False and r.error, (kind, answer[:60], r.feedback)
    assert not sentinel.exists()
    assert grader.check({"kind": "expression", "expected": "x^2", "answer": "x*x"}).correct


@pytest.mark.parametrize(
    "request_",
    [
        {"kind": "expression", "expected": "x", "answer": "x", "functions": ["__import__"]},
        {"kind": "expression", "expected": "x", "answer": "x", "matrices": ["os.system"]},
        {"kind": "expression", "expected": "x", "answer": "x", "symbols": [{"a": 1}]},
        {"kind": "expression", "expected": "__import__('os')", "answer": "x"},
        {"kind": "numeric", "expected": "__import__('os')", "answer": "1"},
        {"kind": "eval", "expected": "x", "answer": "x"},
        {"kind": "numeric", "expected": 1, "answer": "1", "rtol": "1e-3"},
        {"kind": "numeric", "expected": 1, "answer": "1", "sigfigs": 99},
        {"kind": "derivation", "expected": None, "answer": [{"x": 1}]},
        ["not", "an", "object"],
    ],
)
def test_hostile_requests_are_refused_with_a_message(worker, request_):
    r = worker.grade(request_)
    assert r.error and r.correct is False


def test_worker_is_killed_after_a_hang_and_replaced(worker):
    before_pid, before_restarts = worker.pid, worker.restarts
    r = worker.call("sleep", 30)  # answered when the hard timeout (1.5 s) kills it, not at 30 s
    assert r.error and "too long" in r.error
    assert worker.restarts == before_restarts + 1
    ok = worker.grade({"kind": "expression", "expected": "x^2", "answer": "x*x"})
    assert ok.correct is True
    assert worker.pid != before_pid


def test_worker_that_dies_is_replaced(worker):
    r = worker.call("crash", None)
    assert r.error
    assert worker.grade({"kind": "numeric", "expected": 2, "answer": "1+1"}).correct


def test_memory_limit_stops_a_huge_allocation(worker):
    r = worker.call("allocate", 4096)  # 4 GB: over the worker's address-space limit
    assert r.error == "out of memory"
    assert worker.grade({"kind": "numeric", "expected": 2, "answer": "1+1"}).correct


def test_hostile_answers_through_the_cli_fast_path(tmp_path):
    """The CLI grades in-process when no sympy is needed: the same guarantees must hold there."""
    import json
    import subprocess
    import sys

    sentinel = tmp_path / "pwned"
    lines = [json.dumps({"id": str(i), "kind": "expression", "expected": "x + F(x)",
                         "answer": a, "functions": ["F"]})
             for i, a in enumerate(hostile_answers(sentinel))]
    proc = subprocess.run([sys.executable, "-m", "grader", "check"], input="\n".join(lines),
                          capture_output=True, text=True, timeout=120)
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == len(lines)
    assert all(o["error"] and not o["correct"] for o in out)
    assert not sentinel.exists()


def test_shared_worker_is_safe_across_threads():
    from concurrent.futures import ThreadPoolExecutor

    import grader

    requests = [{"id": str(i), "kind": "expression", "expected": f"x + {i}",
                 "answer": f"{i} + x" if i % 2 else f"x + {i + 1}"} for i in range(40)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(grader.check, requests))
    assert [r.id for r in results] == [r["id"] for r in requests]
    assert [r.correct for r in results] == [i % 2 == 1 for i in range(40)]
