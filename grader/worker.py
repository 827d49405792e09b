"""A warm, contained worker process that does all grading (and so all sympy work).

The child is a fresh interpreter (`python -m grader.worker_main`, never a fork of the app), talks
JSON lines over its stdin/stdout, limits its own address space (RLIMIT_AS), and is killed by the
supervisor when a request takes longer than the hard timeout. A replacement is started at once,
so it is warm by the time the next answer arrives. A lock around the pipe makes one Worker safe
to share between the app's threads.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
import time

from .feedback import result
from .messages import message

HARD_TIMEOUT_S = 1.5  # every answer comes back within 2 s, kill and reply included
STARTUP_TIMEOUT_S = 30.0  # a cold interpreter importing numpy on a busy machine


class Worker:
    """Send requests to a contained child process; replace the child after a timeout or crash."""

    def __init__(self, timeout: float = HARD_TIMEOUT_S, test_hooks: bool = False) -> None:
        self.timeout = timeout
        self.test_hooks = test_hooks
        self._lock = threading.Lock()
        self._process: subprocess.Popen | None = None
        self._buffer = b""
        self._ready = False
        self.restarts = 0

    # -- process management ---------------------------------------------------------------------
    def _spawn(self) -> None:
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
                   MKL_NUM_THREADS="1")
        if self.test_hooks:
            env["GRADER_WORKER_TEST_HOOKS"] = "1"
        self._process = subprocess.Popen(
            [sys.executable, "-m", "grader.worker_main"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, close_fds=True,
            cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        self._buffer, self._ready = b"", False

    def _kill(self) -> None:
        if self._process is not None:
            try:
                self._process.kill()
                self._process.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                pass
            for stream in (self._process.stdin, self._process.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
            self.restarts += 1
        self._process = None

    def _replace(self) -> None:
        """Kill the child and start the next one now, so it warms up while nobody waits."""
        self._kill()
        self._spawn()

    def _ensure_running(self) -> None:
        if self._process is None or self._process.poll() is not None:
            if self._process is not None:
                self._kill()
            self._spawn()
        if not self._ready:
            line = self._read_line(STARTUP_TIMEOUT_S)
            if line is None or json.loads(line).get("ready") is not True:
                self._kill()
                raise RuntimeError("grader worker did not start")
            self._ready = True

    def _read_line(self, timeout: float) -> bytes | None:
        deadline = time.monotonic() + timeout
        fd = self._process.stdout.fileno()
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            readable, _, _ = select.select([fd], [], [], remaining)
            if not readable:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                return None  # the child died
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    # -- requests -------------------------------------------------------------------------------
    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def start(self) -> None:
        with self._lock:
            self._ensure_running()

    def call(self, job: str, payload: object, lang: str = "en") -> dict:
        with self._lock:
            self._ensure_running()
            try:
                data = json.dumps({"job": job, "payload": payload}, ensure_ascii=False)
            except (TypeError, ValueError) as err:
                text = message("bad_request", lang, reason=f"not JSON-serializable ({err})")
                return result(feedback=text, error=text)
            try:
                self._process.stdin.write(data.encode() + b"\n")
                self._process.stdin.flush()
                line = self._read_line(self.timeout)
            except (BrokenPipeError, OSError):
                line = None
            if line is not None:
                return json.loads(line)
            died = self._process.poll() is not None
            self._replace()  # hung or crashed: kill it; a fresh child warms up meanwhile
            text = message("cannot_evaluate" if died else "timeout", lang)
            return result(feedback=text, error=text)

    def grade(self, request: dict) -> dict:
        lang = request.get("lang", "en") if isinstance(request, dict) else "en"
        return self.call("grade", request, lang if lang in ("en", "zh") else "en")

    def close(self) -> None:
        with self._lock:
            self._kill()


_shared: Worker | None = None
_shared_lock = threading.Lock()


def shared_worker() -> Worker:
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Worker()
        return _shared
