"""`python -m grader check`: JSON Lines in, JSON Lines out, one warm contained worker for all lines."""

from __future__ import annotations

import argparse
import json
import sys
import time

from .feedback import RESULT_FIELDS, result
from .messages import message
from .worker import HARD_TIMEOUT_S, Worker


def contract_line(request_id: object, graded: dict, elapsed_ms: float) -> str:
    out = {field: graded.get(field) for field in RESULT_FIELDS}
    out["id"] = request_id
    out["elapsed_ms"] = round(elapsed_ms, 3)
    return json.dumps(out, ensure_ascii=False)


def check_stream(lines, out, worker: Worker) -> int:
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
            graded = worker.grade(request)
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
    args = parser.parse_args(argv)
    worker = Worker(timeout=args.timeout)
    try:
        worker.start()  # warm before the first line, so its elapsed_ms is honest
        check_stream(sys.stdin, sys.stdout, worker)
    finally:
        worker.close()
    return 0
