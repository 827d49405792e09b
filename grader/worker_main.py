"""Entry point of the contained worker process (`python -m grader.worker_main`).

Protocol (`contained.child`): one JSON object per line on stdin ({"job": "grade", "payload":
request}), one JSON result per line on stdout; the first line written is {"ready": true}, once
sympy is imported and warm. Nothing else may write to the channel: stdout is redirected to
stderr before any grading code runs.
"""

from __future__ import annotations

import json
import os
import time

from contained.child import limit_address_space, open_channel, serve

MEMORY_HEADROOM_BYTES = 768 * 1024 * 1024


def main() -> None:
    channel = open_channel()
    import sympy  # noqa: F401 - warm: the symbolic fallback must not pay for the import

    from .kinds.feedback import result
    from .kinds.request import grade_request
    from .reading.parser import parse
    from .symbolic.equality import symbolic_equal

    grade_request({"kind": "expression", "expected": "x+1", "answer": "1+x"})  # warm caches
    symbolic_equal(parse("sqrt(x)^2")[0], parse("x")[0], budget=30)  # warm sympy's simplify
    limit_address_space(MEMORY_HEADROOM_BYTES)
    hooks = os.environ.get("GRADER_WORKER_TEST_HOOKS") == "1"

    def answer(line: str) -> dict:
        try:
            message = json.loads(line)
            job, payload = message.get("job"), message.get("payload")
            if job == "grade":
                reply = grade_request(payload)
            elif hooks and job == "sleep":  # test hook: a request that hangs
                time.sleep(float(payload))
                reply = result()
            elif hooks and job == "crash":  # test hook: the child dies mid-request
                os._exit(3)
            elif hooks and job == "allocate":  # test hook: try to take `payload` MB at once
                block = bytearray(int(payload) * 1024 * 1024)
                reply = result(feedback=str(len(block)))
            else:
                reply = result(error="unknown job")
        except MemoryError:
            reply = result(error="out of memory")
        except Exception as err:  # noqa: BLE001 - report, never die on one bad request
            reply = result(error=f"internal error: {type(err).__name__}")
        return reply.to_wire()

    serve(channel, answer)


if __name__ == "__main__":
    main()
