"""A warm, contained worker process that does all grading (and so all sympy work).

The child is a fresh interpreter (`python -m grader.worker_main`, never a fork of the app), talks
JSON lines over its stdin/stdout, limits its own address space (RLIMIT_AS), and is killed by the
supervisor when a request takes longer than the hard timeout. A spare child is kept warm, so a
killed worker is replaced at once. A lock around the pipe makes one Worker safe to share between
the app's threads.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
import time

from .kinds.feedback import result
from .messages import language, message
from .result import Result

HARD_TIMEOUT_S = 1.5  # every answer comes back within 2 s, kill and reply included
STARTUP_TIMEOUT_S = 60.0  # a cold interpreter importing numpy and sympy on a busy machine


class _Child:
    """One worker process and the bytes read from it so far."""

    def __init__(self, test_hooks: bool) -> None:
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
                   MKL_NUM_THREADS="1")
        if test_hooks:
            env["GRADER_WORKER_TEST_HOOKS"] = "1"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "grader.worker_main"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, close_fds=True,
            cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        self.buffer = b""
        self.ready = False

    def alive(self) -> bool:
        return self.process.poll() is None

    def wait_ready(self) -> None:
        if not self.ready:
            line = self.read_line(STARTUP_TIMEOUT_S)
            if line is None or json.loads(line).get("ready") is not True:
                self.kill()
                raise RuntimeError("grader worker did not start")
            self.ready = True

    def send(self, data: bytes) -> None:
        self.process.stdin.write(data + b"\n")
        self.process.stdin.flush()

    def read_line(self, timeout: float) -> bytes | None:
        deadline = time.monotonic() + timeout
        fd = self.process.stdout.fileno()
        while b"\n" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            readable, _, _ = select.select([fd], [], [], remaining)
            if not readable:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                return None  # the child died
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def kill(self) -> None:
        try:
            self.process.kill()
            self.process.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            pass
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()
            except OSError:
                pass


class Worker:
    """Send requests to a contained child process; replace the child after a timeout or crash."""

    def __init__(self, timeout: float = HARD_TIMEOUT_S, test_hooks: bool = False,
                 keep_spare: bool = True) -> None:
        self.timeout = timeout
        self.test_hooks = test_hooks
        self.keep_spare = keep_spare
        self._lock = threading.Lock()
        self._child: _Child | None = None
        self._spare: _Child | None = None
        self.restarts = 0

    def _ensure_running(self) -> _Child:
        if self._child is not None and not self._child.alive():
            self._discard()
        if self._child is None:
            spare, self._spare = self._spare, None
            self._child = spare if spare is not None and spare.alive() else _Child(self.test_hooks)
        if self.keep_spare and self._spare is None:
            self._spare = _Child(self.test_hooks)  # warms up in the background
        self._child.wait_ready()
        return self._child

    def _discard(self) -> None:
        if self._child is not None:
            self._child.kill()
            self.restarts += 1
        self._child = None

    @property
    def pid(self) -> int | None:
        return self._child.process.pid if self._child is not None else None

    def start(self) -> None:
        """Start the child and wait until it is warm."""
        with self._lock:
            self._ensure_running()

    def prewarm(self) -> None:
        """Start the child without waiting: it warms up while the caller does other work."""
        with self._lock:
            if self._child is None:
                self._child = _Child(self.test_hooks)

    def call(self, job: str, payload: object, lang: str = "en") -> Result:
        try:
            data = json.dumps({"job": job, "payload": payload}, ensure_ascii=False).encode()
        except (TypeError, ValueError) as err:
            text = message("bad_request", lang, reason=f"not JSON-serializable ({err})")
            return result(feedback=text, error=text)
        with self._lock:
            try:
                child = self._ensure_running()
            except (RuntimeError, OSError):
                text = message("cannot_evaluate", lang)
                return result(feedback=text, error=f"{text} (grader worker unavailable)")
            try:
                child.send(data)
                line = child.read_line(self.timeout)
            except (BrokenPipeError, OSError):
                line = None
            if line is not None:
                return Result.from_wire(json.loads(line))
            died = not child.alive()
            self._discard()  # hung or crashed: kill it; the warm spare takes over next time
            if self.keep_spare and self._spare is None:
                self._spare = _Child(self.test_hooks)
            elif not self.keep_spare:
                self._child = _Child(self.test_hooks)  # the replacement warms up right away
            text = message("cannot_evaluate" if died else "timeout", lang)
            return result(feedback=text, error=text)

    def grade(self, request: dict) -> Result:
        lang = language(request.get("lang") if isinstance(request, dict) else None)
        return self.call("grade", request, lang)

    def close(self) -> None:
        with self._lock:
            for child in (self._child, self._spare):
                if child is not None:
                    child.kill()
            self._child = self._spare = None


_shared: Worker | None = None
_shared_lock = threading.Lock()


def shared_worker() -> Worker:
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Worker()
        return _shared
