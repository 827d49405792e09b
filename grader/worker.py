"""A warm, contained worker process that does all grading (and so all sympy work).

The child limits its own address space (RLIMIT_AS) and is killed by the supervisor when a request
takes longer than the hard timeout; the next request gets a fresh child, forked from a preloaded
forkserver so the replacement is warm within milliseconds. A lock around the pipe makes one
Worker safe to share between the app's threads.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import threading
import time

from .feedback import result
from .messages import message

HARD_TIMEOUT_S = 1.5  # every answer comes back within 2 s, kill and reply included
MEMORY_HEADROOM_BYTES = 768 * 1024 * 1024
_PRELOAD = ["numpy", "sympy", "grader.engine", "grader.build"]


def _limit_memory() -> None:
    try:
        with open("/proc/self/status") as status:
            line = next(x for x in status if x.startswith("VmSize:"))
        current = int(line.split()[1]) * 1024
    except (OSError, StopIteration, ValueError):
        current = 1024 * 1024 * 1024
    limit = current + MEMORY_HEADROOM_BYTES
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _serve(conn, test_hooks: bool) -> None:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    _limit_memory()
    from .engine import grade_request

    while True:
        try:
            job, payload = conn.recv()
        except (EOFError, OSError):
            return
        try:
            if job == "grade":
                reply = grade_request(payload)
            elif job == "sleep" and test_hooks:  # test hook: simulate a request that hangs
                time.sleep(float(payload))
                reply = result()
            elif job == "crash" and test_hooks:  # test hook: simulate the child dying
                os._exit(3)
            else:
                reply = result(error="unknown job")
        except MemoryError:
            reply = result(error=message("cannot_evaluate", "en"))
        except Exception as err:  # noqa: BLE001 - report, never die on one bad request
            reply = result(error=f"internal error: {type(err).__name__}")
        conn.send(reply)


def _context():
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(_PRELOAD)
    return ctx


class Worker:
    """Send requests to a contained child process; replace the child after a timeout or crash."""

    def __init__(self, timeout: float = HARD_TIMEOUT_S, test_hooks: bool = False) -> None:
        self.timeout = timeout
        self.test_hooks = test_hooks
        self._lock = threading.Lock()
        self._process = None
        self._conn = None
        self.restarts = 0

    def _start(self) -> None:
        ctx = _context()
        parent, child = ctx.Pipe()
        process = ctx.Process(target=_serve, args=(child, self.test_hooks), daemon=True)
        process.start()
        child.close()
        self._process, self._conn = process, parent

    def _stop(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.join(timeout=1)
            self._conn.close()
            self.restarts += 1
        self._process = self._conn = None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def call(self, job: str, payload: object, lang: str = "en") -> dict:
        with self._lock:
            if self._process is None or not self._process.is_alive():
                if self._process is not None:
                    self._stop()
                self._start()
            try:
                self._conn.send((job, payload))
                if self._conn.poll(self.timeout):
                    return self._conn.recv()
            except (EOFError, OSError, BrokenPipeError):
                self._stop()
                text = message("cannot_evaluate", lang)
                return result(feedback=text, error=text)
            self._stop()  # hung: kill it; the next call starts a fresh, warm child
            text = message("timeout", lang)
            return result(feedback=text, error=text)

    def grade(self, request: dict) -> dict:
        lang = request.get("lang", "en") if isinstance(request, dict) else "en"
        return self.call("grade", request, lang if lang in ("en", "zh") else "en")

    def close(self) -> None:
        with self._lock:
            if self._process is not None:
                self._conn.close()
                self._process.kill()
                self._process.join(timeout=1)
            self._process = self._conn = None


_shared: Worker | None = None
_shared_lock = threading.Lock()


def shared_worker() -> Worker:
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Worker()
        return _shared
