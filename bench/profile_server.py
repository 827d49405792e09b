"""Run the app server with cProfile on every script thread, for a profile of script runs.

Serves the app in this process as `make run` does (`python -m server_tuning`, same config), with
Streamlit's script runner patched so each script thread runs under its own `cProfile.Profile`;
the profiles are merged and written when the server stops (Ctrl-C or SIGTERM); the main
thread (the event loop: websockets, message queues) is profiled into `<out>.main`. Load it with
`bench/load.py --url ... --pid ... --database ...`, then read the profile:

    TUTOR_DATABASE_URL=sqlite:////tmp/prof.db .venv/bin/python bench/profile_server.py \\
        --out /tmp/run.pstats --port 8700 &
    .venv/bin/python bench/load.py --url http://127.0.0.1:8700 --pid $! \\
        --database sqlite:////tmp/prof.db --learners 1 --think 0.2 --answers 20
    kill %1; .venv/bin/python -c "import pstats; pstats.Stats('/tmp/run.pstats')\\
        .sort_stats('cumulative').print_stats(40)"

`--timer cpu` measures each thread's CPU time instead of wall time (waiting for the GIL or the
database does not count then). `kill -USR1 <pid>` forgets the script threads profiled so far
(e.g. after a warm-up, so first-run imports are left out).
"""

from __future__ import annotations

import argparse
import atexit
import cProfile
import os
import pstats
import signal
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def install(out: Path, timer: str) -> None:
    from streamlit.runtime.scriptrunner import script_runner

    merged: list[pstats.Stats] = []
    lock = threading.Lock()
    original = script_runner.ScriptRunner._run_script_thread
    clock = time.thread_time if timer == "cpu" else time.perf_counter

    def profiled(self) -> None:
        profile = cProfile.Profile(clock)
        profile.enable()
        try:
            original(self)
        finally:
            profile.disable()
            with lock:
                if merged:
                    merged[0].add(profile)
                else:
                    merged.append(pstats.Stats(profile))

    def dump() -> None:
        with lock:
            if merged:
                merged[0].dump_stats(out)
                print(f"profile of the script threads written to {out}", file=sys.stderr)

    def reset(*_) -> None:  # SIGUSR1: forget what was profiled so far (the warm-up)
        with lock:
            merged.clear()

    script_runner.ScriptRunner._run_script_thread = profiled
    signal.signal(signal.SIGUSR1, reset)
    atexit.register(dump)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="pstats file to write")
    parser.add_argument("--port", type=int, default=8700)
    parser.add_argument("--timer", choices=("wall", "cpu"), default="wall")
    args, streamlit_args = parser.parse_known_args()
    os.chdir(ROOT)  # .streamlit/config.toml is read from the working directory
    install(args.out, args.timer)
    sys.path.insert(0, str(ROOT))  # this checkout's app, as `python -m` from it would
    from server_tuning import __main__ as server

    main_profile = cProfile.Profile(time.thread_time if args.timer == "cpu" else time.perf_counter)
    main_out = args.out.with_name(args.out.name + ".main")
    atexit.register(lambda: (main_profile.disable(), main_profile.dump_stats(main_out)))
    main_profile.enable()  # the event loop: websockets, message queues, serialization
    try:
        server.main(["--server.port", str(args.port), "--server.address", "127.0.0.1",
                     *streamlit_args])
    except SystemExit:
        pass


if __name__ == "__main__":
    main()
