"""The parent side of a contained worker: spawn, the ready line, JSON lines under a timeout,
kill and replace."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # `-m` finds the packages
THREAD_LIMITS = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


class WorkerUnavailable(RuntimeError):
    """The child did not start (could not be spawned, or never said it was ready in time)."""


class NoReply(RuntimeError):
    """A request got no reply: the child hung (and was killed) or died. `died` says which."""

    def __init__(self, died: bool) -> None:
        super().__init__("the worker died" if died else "the worker did not answer in time")
        self.died = died


class Child:
    """One worker process and the bytes read from it so far."""

    def __init__(self, module: str, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", module], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, env=dict(os.environ, **THREAD_LIMITS, **env),
            close_fds=True, cwd=ROOT)
        self.buffer = b""
        self.ready = False
        self.closed = False  # its end of the pipe closed: it died (seen before the exit status)

    def alive(self) -> bool:
        return not self.closed and self.process.poll() is None

    def wait_ready(self, timeout: float) -> None:
        if self.ready:
            return
        line = self.read_line(timeout)
        if line is None or json.loads(line).get("ready") is not True:
            self.kill()
            raise WorkerUnavailable("the worker did not start")
        self.ready = True

    def send(self, data: bytes) -> None:
        self.process.stdin.write(data + b"\n")
        self.process.stdin.flush()

    def read_line(self, timeout: float) -> bytes | None:
        """The next line, or None when none came within `timeout` or the child is gone."""
        deadline = time.monotonic() + timeout
        fd = self.process.stdout.fileno()
        while b"\n" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
                return None
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                self.closed = True
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def kill(self) -> None:
        try:
            self.process.kill()
            self.process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            pass
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()
            except OSError:
                pass


class Supervisor:
    """Requests to one contained child, one at a time (a lock makes it safe to share between
    threads); a child that hangs is killed, one that died is replaced.

    How a child is replaced is the caller's choice:
    - `keep_spare`: a second child is always warming up, and takes over at once after a failure
      (the price: twice the memory);
    - `replace_at_once` (without a spare): the replacement starts right after a failure, so it
      is warm by the next request; otherwise it starts on the next request;
    - `retry_if_died`: a request whose child turns out to have died (killed between requests,
      out of memory) is sent once more to a fresh child. Not for untrusted requests that may
      themselves kill the child.
    `restarts` counts the children replaced (killed after a hang, or found dead).
    """

    def __init__(self, module: str, *, startup_timeout: float, env: dict[str, str] | None = None,
                 keep_spare: bool = False, replace_at_once: bool = False,
                 retry_if_died: bool = False) -> None:
        self.module = module
        self.startup_timeout = startup_timeout
        self.env = dict(env or {})
        self.keep_spare = keep_spare
        self.replace_at_once = replace_at_once
        self.retry_if_died = retry_if_died
        self.restarts = 0
        self._lock = threading.Lock()
        self._child: Child | None = None
        self._spare: Child | None = None

    @property
    def pid(self) -> int | None:
        return self._child.process.pid if self._child is not None else None

    def start(self) -> None:
        """Start the child (if it is not running) and wait until it is warm."""
        with self._lock:
            self._ensure_running()

    def prewarm(self) -> None:
        """Start the child without waiting: it warms up while the caller does other work."""
        with self._lock:
            if self._child is None:
                self._child = self._spawn()

    def request(self, message: object, timeout: float) -> dict:
        """Send `message` and return the child's reply. TypeError or ValueError (before anything
        is sent) when `message` is not JSON; WorkerUnavailable when no child could be started;
        NoReply when the child hung (it is killed) or died."""
        data = json.dumps(message, ensure_ascii=False).encode()
        with self._lock:
            reply, died = self._exchange(data, timeout)
            if reply is None and died and self.retry_if_died:
                reply, died = self._exchange(data, timeout)
            if reply is None:
                self._replace_after_failure()
                raise NoReply(died)
        return reply

    def close(self) -> None:
        with self._lock:
            for child in (self._child, self._spare):
                if child is not None:
                    child.kill()
            self._child = self._spare = None

    # ---- with the lock held --------------------------------------------------------------------
    def _spawn(self) -> Child:
        try:
            return Child(self.module, self.env)
        except OSError as exc:
            raise WorkerUnavailable(f"the worker could not be spawned ({exc})") from exc

    def _ensure_running(self) -> Child:
        if self._child is not None and not self._child.alive():
            self._discard()  # died since the last request
        if self._child is None:
            spare, self._spare = self._spare, None
            self._child = spare if spare is not None and spare.alive() else self._spawn()
        if self.keep_spare and self._spare is None:
            self._spare = self._spawn_quietly()  # warms up in the background
        try:
            self._child.wait_ready(self.startup_timeout)
        except WorkerUnavailable:
            self._child = None  # wait_ready killed it
            raise
        return self._child

    def _exchange(self, data: bytes, timeout: float) -> tuple[dict | None, bool]:
        """One request and its reply, or (None, whether the child died)."""
        child = self._ensure_running()
        try:
            child.send(data)
            line = child.read_line(timeout)
        except OSError:  # a broken pipe: the child is gone
            child.closed, line = True, None
        if line is not None:
            try:
                return json.loads(line), False
            except ValueError:
                child.kill()  # not a reply: a broken child, replaced like a dead one
                child.closed = True
        died = not child.alive()
        if died:
            self._discard()
        return None, died

    def _discard(self) -> None:
        if self._child is not None:
            self._child.kill()
            self.restarts += 1
        self._child = None

    def _replace_after_failure(self) -> None:
        self._discard()  # hung: killed; died: already gone
        if self.keep_spare and self._spare is None:
            self._spare = self._spawn_quietly()
        elif not self.keep_spare and self.replace_at_once:
            self._child = self._spawn_quietly()

    def _spawn_quietly(self) -> Child | None:
        try:
            return self._spawn()
        except WorkerUnavailable:
            return None  # the next request tries again and reports it
