"""Problems computed in a separate worker process, so the caller's heap never holds torch.

    import compute.worker
    compute.worker.start()          # once, e.g. when the app server starts (route(): no waiting)
    compute.generate("linear_residual_block", seed=7)   # same call, same dict: built in the worker

After `start()`, `compute.generate` and `compute.series.deep_mlp_grad_norms` (the two calls that
need torch) send their (already validated) arguments to one long-lived child,
`python -m compute.worker_main`, and return its JSON reply, which is the very dict the call
returns in-process (every template's result is plain JSON: numbers, lists, strings). Errors come
back as the same `ParamsError` / `TemplateError`. The process handling (spawn, JSON lines, timeout,
kill, replacement; a lock makes it safe to share between threads) is `contained.Supervisor`'s; a
child that died or hung is replaced on the next call.

Why: the app server is one Python process serving every learner; torch adds ~190 MiB and
~140,000 objects to its heap, and importing it (1.5-4 s) inside a script run stalls every session.
"""

from __future__ import annotations

import threading

from compute.errors import ParamsError, TemplateError
from contained import NoReply, Supervisor, WorkerUnavailable

STARTUP_TIMEOUT_S = 120.0  # a cold interpreter importing torch on a busy machine
CALL_TIMEOUT_S = 30.0  # the slowest template takes ~10 ms; this only catches a hung child


class WorkerError(RuntimeError):
    """The worker could not answer (it did not start, died or hung)."""


class ComputeWorker:
    """One child process running `compute.worker_main`, started on first use.

    No spare child (torch twice would cost what the worker saves); a child that hung is killed
    and the next call starts a fresh one; a request whose child had died (killed, out of memory)
    is sent once more to a fresh child, since these requests are our own, never untrusted."""

    def __init__(self, call_timeout: float = CALL_TIMEOUT_S) -> None:
        self.call_timeout = call_timeout
        self._supervisor = Supervisor("compute.worker_main", startup_timeout=STARTUP_TIMEOUT_S,
                                      retry_if_died=True)

    @property
    def pid(self) -> int | None:
        return self._supervisor.pid

    @property
    def restarts(self) -> int:
        """Children replaced so far (found dead, or killed after a hang)."""
        return self._supervisor.restarts

    def start(self) -> None:
        """Start the child (if not running) and wait until it has torch loaded."""
        try:
            self._supervisor.start()
        except WorkerUnavailable as exc:
            raise WorkerError("the compute worker did not start") from exc

    def call(self, job: str, arguments: dict) -> dict:
        """Run `job` in the child; its result, or the compute error it raised."""
        try:
            reply = self._supervisor.request({"job": job, "arguments": arguments},
                                             self.call_timeout)
        except WorkerUnavailable as exc:
            raise WorkerError("the compute worker did not start") from exc
        except NoReply as exc:
            raise WorkerError(f"the compute worker did not answer {job}") from exc
        if "result" in reply:
            return reply["result"]
        error = reply.get("error", {})
        if error.get("type") == "ParamsError":
            raise ParamsError(error["template"], [tuple(p) for p in error["problems"]])
        if error.get("type") == "TemplateError":
            raise TemplateError(error["message"])
        raise WorkerError(f"{job} failed in the compute worker: {error.get('message')}")

    def close(self) -> None:
        self._supervisor.close()


_active: ComputeWorker | None = None
_active_lock = threading.Lock()


def route() -> ComputeWorker:
    """Send this process's torch work to a worker from now on (idempotent). The child starts on
    the first call, or at once with `start()`."""
    global _active
    with _active_lock:
        if _active is None:
            _active = ComputeWorker()
        return _active


def start() -> ComputeWorker:
    """`route()`, then start the child and wait until it is warm."""
    worker = route()
    worker.start()
    return worker


def active() -> ComputeWorker | None:
    """The worker this process routes to, or None: compute here."""
    return _active


def stop() -> None:
    """Compute in this process again; the worker exits."""
    global _active
    with _active_lock:
        worker, _active = _active, None
    if worker is not None:
        worker.close()
