"""Problems computed in a separate worker process, so the caller's heap never holds torch.

    import compute.worker
    compute.worker.start()          # once, e.g. when the app server starts (route(): no waiting)
    compute.generate("linear_residual_block", seed=7)   # same call, same dict: built in the worker

After `start()`, `compute.generate` and `compute.series.deep_mlp_grad_norms` (the two calls that
need torch) send their (already validated) arguments to one long-lived child,
`python -m compute.worker_main`, and return its JSON reply, which is the very dict the call
returns in-process (every template's result is plain JSON: numbers, lists, strings). Errors come
back as the same `ParamsError` / `TemplateError`. A lock around the pipe makes the worker safe to
share between threads; a child that died or hung is replaced on the next call.

Why: the app server is one Python process serving every learner; torch adds ~190 MiB and
~140,000 objects to its heap, and importing it (1.5-4 s) inside a script run stalls every session.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
import time

from compute.errors import ParamsError, TemplateError

STARTUP_TIMEOUT_S = 120.0  # a cold interpreter importing torch on a busy machine
CALL_TIMEOUT_S = 30.0  # the slowest template takes ~10 ms; this only catches a hung child
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class WorkerError(RuntimeError):
    """The worker could not answer (it did not start, died or hung)."""


class ComputeWorker:
    """One child process running `compute.worker_main`, started on first use."""

    def __init__(self, call_timeout: float = CALL_TIMEOUT_S) -> None:
        self.call_timeout = call_timeout
        self._lock = threading.Lock()
        self._process: subprocess.Popen | None = None
        self._buffer = b""
        self.restarts = 0

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def _spawn(self) -> None:
        env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
                   OPENBLAS_NUM_THREADS="1")
        self._process = subprocess.Popen(
            [sys.executable, "-m", "compute.worker_main"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, close_fds=True, cwd=ROOT)
        self._buffer = b""
        line = self._read_line(STARTUP_TIMEOUT_S)
        if line is None or json.loads(line).get("ready") is not True:
            self._kill()
            raise WorkerError("the compute worker did not start")

    def _read_line(self, timeout: float) -> bytes | None:
        deadline = time.monotonic() + timeout
        fd = self._process.stdout.fileno()
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
                return None
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return None  # the child died
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _kill(self) -> None:
        if self._process is None:
            return
        try:
            self._process.kill()
            self._process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass
        for stream in (self._process.stdin, self._process.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self._process = None

    def start(self) -> None:
        """Start the child (if not running) and wait until it has torch loaded."""
        with self._lock:
            if self._process is None or self._process.poll() is not None:
                self._spawn()

    def call(self, job: str, arguments: dict) -> dict:
        """Run `job` in the child; its result, or the compute error it raised."""
        request = json.dumps({"job": job, "arguments": arguments}).encode() + b"\n"
        with self._lock:
            line = self._exchange(request)
            if line is None and self._exited():
                # The child had died (killed, out of memory) before or while reading this
                # request: a fresh one answers it.
                self.restarts += 1
                self._kill()
                line = self._exchange(request)
            if line is None:
                self._kill()  # hung: the next call starts a fresh child
                raise WorkerError(f"the compute worker did not answer {job}")
        reply = json.loads(line)
        if "result" in reply:
            return reply["result"]
        error = reply.get("error", {})
        if error.get("type") == "ParamsError":
            raise ParamsError(error["template"], [tuple(p) for p in error["problems"]])
        if error.get("type") == "TemplateError":
            raise TemplateError(error["message"])
        raise WorkerError(f"{job} failed in the compute worker: {error.get('message')}")

    def _exited(self) -> bool:
        """Whether the child is gone (a closed pipe is seen a moment before the exit status)."""
        try:
            self._process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return False
        return True

    def _exchange(self, request: bytes) -> bytes | None:
        """One request and its reply line (None: no reply in time, or the child is gone)."""
        if self._process is None or self._process.poll() is not None:
            if self._process is not None:
                self.restarts += 1
                self._kill()
            self._spawn()
        try:
            self._process.stdin.write(request)
            self._process.stdin.flush()
            return self._read_line(self.call_timeout)
        except OSError:
            return None

    def close(self) -> None:
        with self._lock:
            self._kill()


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
