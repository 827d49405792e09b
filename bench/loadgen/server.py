"""Start the app the way `make run` does (same script, same `.streamlit/config.toml`), on a free
loopback port and a progress database of its own, and stop it again."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.e2e.server import ROOT, Server, app_command, free_port, stop_server, wait_ready

__all__ = ["ROOT", "Server", "start_app", "stop_server"]


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
