"""Start and stop the real Streamlit server, and drive headless Chromium: shared by the browser
tests and `bench/bench_app_cold_start.py` (which loads this file by path)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STREAMLIT = ROOT / ".venv" / "bin" / "streamlit"
PYTHON = ROOT / ".venv" / "bin" / "python"
SERVER_OPTIONS = ("--server.headless", "true", "--browser.gatherUsageStats", "false",
                  "--server.fileWatcherType", "none")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
# The app root's attribute while a script run is in progress ("running") or done ("notRunning").
APP_IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Server:
    process: subprocess.Popen
    url: str
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


def app_command(script: Path | str, port: int, *options: str) -> list[str]:
    """The command that serves `script` on 127.0.0.1:`port`: the app (a checkout's
    `streamlit_app.py`) the way `make run` starts it, `python -m server_tuning` (run from that
    checkout); any other script with `streamlit run`."""
    script = Path(script)
    address = ("--server.port", str(port), "--server.address", "127.0.0.1")
    if script.name == "streamlit_app.py" and (script.parent / "server_tuning" / "__main__.py").exists():
        return [str(PYTHON), "-m", "server_tuning", *address, *options]
    if script.name == "streamlit_app.py" and (script.parent / "app_pages" / "server.py").exists():
        return [str(PYTHON), "-m", "app_pages.server", *address, *options]  # a checkout before it
    return [str(STREAMLIT), "run", str(script), *address, *options]


def start_server(script: Path | str, *, port: int | None = None, env: dict | None = None,
                 log_path: Path | None = None, cwd: Path = ROOT) -> Server:
    """Serve `script` headless on a free local port (see app_command; returns at once, see
    wait_ready). The app's checkout is the working directory: `cwd` must be it."""
    port = port or free_port()
    log_path = log_path or Path(os.devnull)
    log = open(log_path, "w")  # noqa: SIM115 - closed by the child's exit
    process = subprocess.Popen(
        app_command(script, port, *SERVER_OPTIONS), cwd=cwd, env={**os.environ, **(env or {})},
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    return Server(process, f"http://127.0.0.1:{port}", log_path)


def wait_ready(server: Server, timeout: float = 60.0, poll: float = 0.02) -> None:
    """Block until the server answers its health check (or fail with its log)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"streamlit exited with {server.process.returncode}:\n{server.log()}")
        try:
            with urllib.request.urlopen(f"{server.url}/_stcore/health", timeout=1) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(poll)
    raise TimeoutError(f"streamlit not ready after {timeout}s:\n{server.log()}")


def stop_server(server: Server) -> None:
    """Stop the server's process group (the server and anything it started), politely first."""
    if server.process.poll() is not None:
        return
    pgid = os.getpgid(server.process.pid)
    os.killpg(pgid, signal.SIGTERM)
    try:
        server.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(pgid, signal.SIGKILL)
        server.process.wait(timeout=10)
    # Its children (the compute and grader workers) too: one still exiting would take a core
    # from whatever runs next (a cold-start benchmark's next run, the next test's server).
    deadline = time.monotonic() + 10
    while _group_running(pgid) and time.monotonic() < deadline:
        if time.monotonic() > deadline - 5:
            with contextlib.suppress(ProcessLookupError):  # gone since
                os.killpg(pgid, signal.SIGKILL)
        time.sleep(0.02)


def _group_running(pgid: int) -> bool:
    """Whether any process of the group is still running (zombies, already exited, do not
    count: whoever adopted them reaps them)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


def launch_chromium(playwright):
    """Debian's Chromium, headless (Playwright cannot download its own browsers here)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)


# Resolves once the page has gone `ms` without a DOM change (or after `cap` ms, for a page with a
# ticking clock). The script's end is not the page's: Streamlit loads an element's code (markdown,
# KaTeX, st.html) on first use, so formulas and styles are painted up to half a second after the
# run has finished (measured on a question with six formulas: 0, then 2, then 6 over 0.5 s).
_QUIET_DOM = """([ms, cap]) => new Promise(resolve => {
  const done = () => { observer.disconnect(); clearTimeout(quiet); clearTimeout(limit); resolve(); };
  const observer = new MutationObserver(() => { clearTimeout(quiet); quiet = setTimeout(done, ms); });
  let quiet = setTimeout(done, ms);
  const limit = setTimeout(done, cap);
  observer.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})"""


def wait_idle(page, timeout: float = 30_000) -> None:
    """Wait until the app has finished its current script run (and any fragment run) and the page
    has painted what the run sent."""
    page.wait_for_selector(APP_IDLE, timeout=timeout)
    page.evaluate(_QUIET_DOM, [250, 5_000])
    page.wait_for_selector(APP_IDLE, timeout=timeout)


# In-page clocks for the cold-start benchmarks. Playwright's own waits re-check on a back-off
# (after 20, 50, 100, 100 ms, then every 500 ms), so a time read from them is rounded up by as
# much as half a second; these are read from the page instead, on the wall clock (epoch ms).
PAGE_CLOCK = """
window.__pageClock = {lastChange: Date.now(), connected: null};
new MutationObserver(() => { window.__pageClock.lastChange = Date.now(); })
  .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
window.WebSocket = class extends window.WebSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("open", () => { window.__pageClock.connected ??= Date.now(); });
  }
};
"""
_DRAWN = """sel => {
  const heading = document.querySelector('[data-testid="stMain"] h1');
  if (!heading || !document.querySelector(sel)) return false;
  const box = heading.getBoundingClientRect();
  return box.width > 0 && box.height > 0 ? Date.now() : false;
}"""
_QUIET = "ms => Date.now() - window.__pageClock.lastChange >= ms"


@dataclass(frozen=True)
class FirstPage:
    """Wall-clock times (seconds since the epoch) of one page load, read in the page."""

    connected: float  # the app's websocket open: Streamlit's own JavaScript has loaded and run
    drawn: float  # the heading visible and the script run finished (checked every frame)
    settled: float  # the last change to the page before a quiet spell (widgets, formulas)


def first_page_clock(page, url: str, *, quiet_ms: int = 500, timeout: float = 60_000) -> FirstPage:
    """Open `url` and time it: see FirstPage. "Settled" waits for `quiet_ms` without a change, so
    that widgets whose code arrives late, typeset formulas and a rerun the first run asked for
    are all in."""
    page.add_init_script(PAGE_CLOCK)
    page.goto(url, wait_until="commit")
    drawn = page.wait_for_function(_DRAWN, arg=APP_IDLE, polling="raf", timeout=timeout).json_value()
    page.wait_for_function(_QUIET, arg=quiet_ms, polling=50, timeout=timeout)
    clock = page.evaluate("window.__pageClock")
    return FirstPage(clock["connected"] / 1000, drawn / 1000, max(drawn, clock["lastChange"]) / 1000)
