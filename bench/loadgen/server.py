"""Start the app the way `make run` does (same script, same `.streamlit/config.toml`), on a free
loopback port and a progress database of its own, and stop it again; or N processes behind
HAProxy the way `make serve N=...` does (`scripts/serve.sh`)."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from tests.e2e.server import ROOT, Server, app_command, free_port, stop_server, wait_ready

__all__ = ["ROOT", "Server", "Served", "start_app", "start_served", "stop_server"]


def start_app(database_url: str, *, log_path: Path, extra_args: tuple[str, ...] = (),
              env: dict[str, str] | None = None) -> Server:
    """The app as `make run` starts it (`python -m server_tuning`) on 127.0.0.1, ready to use."""
    port = free_port()
    command = app_command(ROOT / "streamlit_app.py", port, *extra_args)
    log = open(log_path, "w")  # noqa: SIM115 - closed by the child's exit
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        env={**os.environ, **(env or {}), "TUTOR_DATABASE_URL": database_url},
    )
    server = Server(process, f"http://127.0.0.1:{port}", log_path)
    try:
        wait_ready(server)
    except BaseException:
        stop_server(server)
        raise
    return server


@dataclass
class Served:
    """`scripts/serve.sh N` running: the proxy's URL, each app process's own URL, pid and log."""

    server: Server  # the script's process (its group holds the proxy and the apps)
    url: str
    app_urls: list[str]
    pids: list[int]
    logs: list[Path]


def _free_run(size: int) -> int:
    """The first of `size` consecutive free loopback ports."""
    for _ in range(50):
        base = free_port()
        if base + size < 65536 and all(_port_free(base + k) for k in range(1, size)):
            return base
    raise RuntimeError(f"no {size} consecutive free ports")


def _port_free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def start_served(database_url: str, processes: int, run_dir: Path) -> Served:
    """`processes` app processes behind HAProxy as `make serve N=processes` starts them, on free
    loopback ports and `database_url`, ready (every process and the proxy answer)."""
    port, app_base = free_port(), _free_run(processes)
    log = open(run_dir / "serve.log", "w")  # noqa: SIM115 - closed by the child's exit
    process = subprocess.Popen(
        ["bash", str(ROOT / "scripts" / "serve.sh"), str(processes)], cwd=ROOT, stdout=log,
        stderr=subprocess.STDOUT, start_new_session=True,
        env={**os.environ, "TUTOR_DATABASE_URL": database_url, "PORT": str(port),
             "APP_PORT_BASE": str(app_base), "RUN_DIR": str(run_dir)})
    server = Server(process, f"http://127.0.0.1:{port}", run_dir / "serve.log")
    pids_file = run_dir / "pids"
    try:
        deadline = time.monotonic() + 60
        while len(pids_file.read_text().split() if pids_file.exists() else []) < processes:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"serve.sh did not start its apps:\n{server.log()}")
            time.sleep(0.1)
        pids = [int(p) for p in pids_file.read_text().split()[:processes]]
        app_urls = [f"http://127.0.0.1:{app_base + k}" for k in range(processes)]
        for url in [*app_urls, server.url]:
            wait_ready(Server(process, url, server.log_path))
    except BaseException:
        stop_server(server)
        raise
    return Served(server, server.url, app_urls, pids,
                  [run_dir / f"app{k + 1}.log" for k in range(processes)])
