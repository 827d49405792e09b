"""A warm, contained worker process that does all grading (and so all sympy work).

The child is a fresh interpreter (`python -m grader.worker_main`, never a fork of the app), talks
JSON lines over its stdin/stdout, limits its own address space (RLIMIT_AS), and is killed when a
request takes longer than the hard timeout. A spare child is kept warm, so a killed worker is
replaced at once. The process handling (spawn, JSON lines, timeout, kill, replacement) is
`contained.Supervisor`'s; this module decides what a grading request gets back when the child
cannot answer: always a `Result`, with a message in the learner's language.
"""

from __future__ import annotations

import threading

from contained import NoReply, Supervisor, WorkerUnavailable

from .kinds.feedback import result
from .messages import language, message
from .result import Result

HARD_TIMEOUT_S = 1.5  # every answer comes back within 2 s, kill and reply included
STARTUP_TIMEOUT_S = 60.0  # a cold interpreter importing numpy and sympy on a busy machine


class Worker:
    """Send requests to a contained child process; replace the child after a timeout or crash.

    With `keep_spare` (the app) a second child is always warm; without it (the CLI) the
    replacement starts right after a failure. A request that killed the child is not sent again:
    it would kill the next one too."""

    def __init__(self, timeout: float = HARD_TIMEOUT_S, test_hooks: bool = False,
                 keep_spare: bool = True) -> None:
        self.timeout = timeout
        self.test_hooks = test_hooks
        self.keep_spare = keep_spare
        self._supervisor = Supervisor(
            "grader.worker_main", startup_timeout=STARTUP_TIMEOUT_S,
            env={"GRADER_WORKER_TEST_HOOKS": "1"} if test_hooks else {},
            keep_spare=keep_spare, replace_at_once=True)

    @property
    def pid(self) -> int | None:
        return self._supervisor.pid

    @property
    def restarts(self) -> int:
        """Children replaced so far (killed after a hang, or found dead)."""
        return self._supervisor.restarts

    def start(self) -> None:
        """Start the child and wait until it is warm (RuntimeError if it does not start)."""
        self._supervisor.start()

    def prewarm(self) -> None:
        """Start the child without waiting: it warms up while the caller does other work."""
        self._supervisor.prewarm()

    def call(self, job: str, payload: object, lang: str = "en") -> Result:
        try:
            reply = self._supervisor.request({"job": job, "payload": payload}, self.timeout)
        except (TypeError, ValueError) as err:
            text = message("bad_request", lang, reason=f"not JSON-serializable ({err})")
            return result(feedback=text, error=text)
        except WorkerUnavailable:
            text = message("cannot_evaluate", lang)
            return result(feedback=text, error=f"{text} (grader worker unavailable)")
        except NoReply as failure:  # hung or crashed: killed; the spare takes over next time
            text = message("cannot_evaluate" if failure.died else "timeout", lang)
            return result(feedback=text, error=text)
        return Result.from_wire(reply)

    def grade(self, request: dict) -> Result:
        lang = language(request.get("lang") if isinstance(request, dict) else None)
        return self.call("grade", request, lang)

    def close(self) -> None:
        self._supervisor.close()


_shared: Worker | None = None
_shared_lock = threading.Lock()


def shared_worker() -> Worker:
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Worker()
        return _shared
