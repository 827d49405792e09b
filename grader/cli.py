"""`python -m grader check`: JSON Lines in, JSON Lines out.

Each answer is parsed (with the containment limits) and sampled with numpy in this process; the
bounded symbolic check, when sampling cannot decide, runs in the warm contained worker (hard
kill, memory limit). `--contained-only` sends every answer to the worker.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from .api import grade_fast_then_contained
from .kinds.feedback import result
from .kinds.request import grade_request
from .messages import message
from .result import Result
from .worker import HARD_TIMEOUT_S, Worker


def contract_line(request_id: object, graded: Result, elapsed_ms: float) -> str:
    return json.dumps(graded.timed(request_id, elapsed_ms).to_json(), ensure_ascii=False)


def grade_one(request: object, worker: Worker, in_process: bool) -> Result:
    return grade_fast_then_contained(request, worker) if in_process else worker.grade(request)


def check_stream(lines, out, worker: Worker, in_process: bool = True) -> int:
    count = 0
    for raw in lines:
        if not raw.strip():
            continue
        start = time.perf_counter()
        try:
            request = json.loads(raw)
        except (json.JSONDecodeError, RecursionError) as err:
            text = message("bad_request", "en", reason=f"not JSON ({type(err).__name__})")
            graded, request = result(feedback=text, error=text), {}
        else:
            graded = grade_one(request, worker, in_process)
        request_id = request.get("id") if isinstance(request, dict) else None
        out.write(contract_line(request_id, graded, (time.perf_counter() - start) * 1000) + "\n")
        out.flush()
        count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="grader", description="Grade learners' maths answers.")
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="read JSON Lines requests on stdin, write results")
    check.add_argument("--timeout", type=float, default=HARD_TIMEOUT_S,
                       help="hard wall-clock limit per answer in seconds")
    check.add_argument("--contained-only", action="store_true",
                       help="grade every answer in the worker process (no in-process fast path)")
    args = parser.parse_args(argv)
    # Bytes that are not UTF-8 become U+FFFD (and then a readable error), never a crash.
    sys.stdin.reconfigure(encoding="utf-8", errors="replace")
    sys.stdout.reconfigure(encoding="utf-8")
    # One process is enough here: a killed worker is replaced at once (it warms up while the
    # following lines take the in-process fast path).
    worker = Worker(timeout=args.timeout, keep_spare=False)
    try:
        if args.contained_only:
            worker.start()  # warm before the first line, so its elapsed_ms is honest
        else:
            worker.prewarm()
            grade_request({"kind": "expression", "expected": "x + 1", "answer": "1 + x"})
        check_stream(sys.stdin, sys.stdout, worker, in_process=not args.contained_only)
    finally:
        worker.close()
    return 0
