"""Load test: simulated learners on one app server, through Streamlit's own websocket protocol.

Starts the app as `make run` does (own port, own temporary progress database), warms it up with
one learner, then lets `--learners` learners arrive over `--ramp` seconds; each opens the page,
answers `--answers` questions (whatever the page asks: text, choices, ordering, the interview's
two forms), sees the verdict, after a wrong one tries again (`--retry`, `--max-retries`) and may
ask for the solution (`--reveal`), and goes on, thinking `--think` seconds (x0.5-1.5) between
actions (`--one-try`: one try per question, the scenario before retries).
Prints submit -> verdict p50/p95/p99, first-page time, script runs per second, server CPU per run,
server RSS before / peak / after, and answers acknowledged against attempts stored.

    .venv/bin/python bench/load.py --learners 100 --think 10 --ramp 20 --answers 5
    .venv/bin/python bench/load.py --check --learners 25 --think 0.5 --ramp 5 --duration 20
    .venv/bin/python bench/load.py --processes 2 --learners 200 --think 0.5 --ramp 20 --answers 5
                                                      # two processes behind HAProxy (make serve N=2)
    .venv/bin/python bench/load.py --url http://127.0.0.1:8500 --pid 1234 --pid 1240 \\
        --database sqlite:////path/progress.db            # a server already running (make serve)

`--check` exits 1 on any error, lost attempt or unfinished learner (the CI check). Only loopback
targets are accepted.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.loadgen.connection import NotLoopback, require_loopback  # noqa: E402
from bench.loadgen.learner import Habits  # noqa: E402
from bench.loadgen.run import LoadReport, LoadSpec, Target, run_load, warm_up  # noqa: E402
from bench.loadgen.server import start_app, start_served, stop_server  # noqa: E402
from bench.loadgen.table import HEADER, UNITS, details, row  # noqa: E402

STARTED_UP = "start-up heap frozen"  # server_tuning/warm_up.py logs this once its work is done


def spec_arguments(parser: argparse.ArgumentParser) -> None:
    d = LoadSpec()
    parser.add_argument("--learners", type=int, default=d.learners)
    parser.add_argument("--think", type=float, default=d.think, help="seconds between actions")
    parser.add_argument("--ramp", type=float, default=d.ramp, help="arrivals spread over (s)")
    parser.add_argument("--answers", type=int, default=d.answers,
                        help="questions per learner (a wrong verdict may bring another try)")
    parser.add_argument("--duration", type=float, default=d.duration,
                        help="no action starts after this many seconds")
    parser.add_argument("--page", default=d.page, help="url path of the page (default: Practice)")
    parser.add_argument("--timeout", type=float, default=d.timeout, help="one interaction's limit")
    parser.add_argument("--settle", type=float, default=d.settle,
                        help="seconds to wait after the learners left (writes, memory)")
    parser.add_argument("--seed", type=int, default=d.seed)
    parser.add_argument("--loop", action="store_true",
                        help="replace each learner who is done by a new one until --duration "
                             "(a soak: learners keep arriving and leaving)")
    habits = d.habits
    parser.add_argument("--retry", type=float, default=habits.retry,
                        help="share of wrong verdicts the learner tries again after "
                             f"(default {habits.retry:g})")
    parser.add_argument("--max-retries", type=int, default=habits.max_retries,
                        help=f"tries again per question at most (default {habits.max_retries})")
    parser.add_argument("--reveal", type=float, default=habits.reveal,
                        help="share of questions still wrong after that where the learner asks "
                             f"for the solution (default {habits.reveal:g})")
    parser.add_argument("--one-try", action="store_true",
                        help="one try per question, then the next (the scenario before retries)")
    parser.add_argument("--own-profiles", action="store_true",
                        help="each learner first makes a profile of its own (the sidebar's "
                             "'New profile'), as a class on one server would; by default all "
                             "share the first profile")


def spec_from(args: argparse.Namespace) -> LoadSpec:
    return LoadSpec(learners=args.learners, think=args.think, ramp=args.ramp, answers=args.answers,
                    duration=args.duration, page=args.page, timeout=args.timeout,
                    settle=args.settle, seed=args.seed, loop=args.loop,
                    new_profile="learner" if args.own_profiles else "",
                    habits=Habits.none() if args.one_try else Habits(
                        retry=args.retry, max_retries=args.max_retries, reveal=args.reveal))


def run_on_served(spec: LoadSpec, processes: int) -> LoadReport:
    """`processes` fresh app processes behind HAProxy (as `make serve N=processes`), each warmed
    up on its own port, then loaded through the proxy, stopped."""
    with tempfile.TemporaryDirectory(prefix="load-") as data:
        database = f"sqlite:///{data}/progress.db"
        served = start_served(database, processes, Path(data))
        try:
            for url, pid, log in zip(served.app_urls, served.pids, served.logs, strict=True):
                warm_up(url, [pid], spec.page,
                        ready=lambda log=log: STARTED_UP in log.read_text(errors="replace"))
            return run_load(spec, Target(served.url, served.pids, database))
        except BaseException:
            print(served.server.log()[-3000:], file=sys.stderr)
            raise
        finally:
            stop_server(served.server)


def run_on_own_server(spec: LoadSpec, server_args: tuple[str, ...] = (),
                      env: dict[str, str] | None = None, log_path: Path | None = None) -> LoadReport:
    """A fresh server (as `make run`), warmed up, loaded, stopped."""
    with tempfile.TemporaryDirectory(prefix="load-") as data:
        database = f"sqlite:///{data}/progress.db"
        server = start_app(database, log_path=log_path or Path(data) / "server.log",
                           extra_args=server_args, env=env)
        try:
            warm_up(server.url, [server.process.pid], spec.page,
                    ready=lambda: STARTED_UP in server.log())
            return run_load(spec, Target(server.url, [server.process.pid], database))
        except BaseException:
            print(server.log()[-3000:], file=sys.stderr)
            raise
        finally:
            stop_server(server)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    spec_arguments(parser)
    parser.add_argument("--url", help="load a server already running at this loopback URL")
    parser.add_argument("--pid", type=int, action="append", default=[],
                        help="its process id(s), for CPU and RSS (with --url)")
    parser.add_argument("--database", help="its progress database URL (with --url)")
    parser.add_argument("--server-arg", action="append", default=[],
                        help="extra `streamlit run` option for the server started here, "
                             "e.g. --server-arg=--runner.postScriptGC=true")
    parser.add_argument("--server-log", type=Path, help="keep the server's log here")
    parser.add_argument("--processes", type=int, default=1,
                        help="app processes behind HAProxy, as `make serve N=...` starts them "
                             "(default 1: one server as `make run`)")
    parser.add_argument("--json", type=Path, help="append the report as one JSON line here")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 on any error, lost attempt or unfinished learner")
    args = parser.parse_args()
    spec = spec_from(args)

    if args.url:
        try:
            require_loopback(args.url)
        except NotLoopback as exc:
            parser.error(str(exc))
        if not args.pid or not args.database:
            parser.error("--url needs --pid (one per server process) and --database")
        report = run_load(spec, Target(args.url, args.pid, args.database))
    elif args.processes > 1:
        if args.server_arg or args.server_log:
            parser.error("--processes starts the apps as make serve does: "
                         "no --server-arg/--server-log")
        report = run_on_served(spec, args.processes)
    else:
        report = run_on_own_server(spec, tuple(args.server_arg), log_path=args.server_log)

    print(HEADER)
    print(row(report))
    print(details(report))
    if spec.new_profile:
        print(f"  profiles made by the learners: {report.own_profiles} "
              f"(by {report.profile_makers} learners)")
    print(UNITS)
    if args.json:
        with args.json.open("a") as out:
            out.write(json.dumps(report.as_dict()) + "\n")
    if args.check and not report.ok:
        print(f"LOAD CHECK FAILED: {report.errors} errors, {report.lost} attempts lost, "
              f"{report.unfinished} learners unfinished", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
