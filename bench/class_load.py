"""Load through the proxy with faults: the class deployment (`scripts/serve_class.sh`: PostgreSQL,
N replicas, HAProxy) under simulated learners, while one replica is killed and PostgreSQL is
restarted; then the proxy's connection limit is filled.

    .venv/bin/python bench/class_load.py --replicas 2 --learners 30 --think 1 --duration 30 \\
        --kill-at 10 --check                                  # the short CI version
    .venv/bin/python bench/class_load.py --replicas 2 --learners 300 --think 10 --ramp 30 \\
        --answers 1000 --duration 300 --kill-at 120 --restart-db-at 180

By default learners use the local-profile mode through the proxy (no login), each in a profile
of its own that it makes first through the sidebar's "New profile" form (bench/loadgen/profile.py),
as a class at shared machines would; the attempts are counted over the whole database. With
`--login` they sign in through a local OIDC provider instead (bench/loadgen/login.py). A learner
whose replica dies loads the page again through the proxy (its affinity cookie names a dead
replica: HAProxy redispatches it) with the URL the app left it (its `?profile=`) and carries on.

PostgreSQL runs in a cluster of its own (`TUTOR_PG_CLUSTER=classload`, port 5441), so restarting
it never touches the database other tests use. `--database sqlite` runs one replica on SQLite
instead. Only loopback targets: the proxy listens on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.loadgen.connection import AppTab, TabError  # noqa: E402
from bench.loadgen.learner import Habits  # noqa: E402
from bench.loadgen.run import LoadSpec, Target, run_load, warm_up  # noqa: E402
from bench.loadgen.table import HEADER, UNITS, details, row  # noqa: E402
from bench.own_postgres import OwnPostgres, reset_postgres  # noqa: E402

POSTGRES = OwnPostgres("classload", port=5441, database="tutor_load", role="tutor_load")
STARTED_UP = "start-up heap frozen"  # server_tuning/warm_up.py logs this once its work is done


@dataclass
class Topology:
    process: subprocess.Popen
    run_dir: Path
    url: str
    replicas: dict[str, tuple[int, int]] = field(default_factory=dict)  # name -> (pid, port)

    def log(self, name: str) -> str:
        path = self.run_dir / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""


def restart_postgres() -> float:
    """`pg_ctlcluster ... restart` of our own cluster; returns the seconds it was away."""
    started = time.perf_counter()
    POSTGRES.ctl("restart")
    return time.perf_counter() - started


def start_topology(replicas: int, database_url: str, *, port: int, app_port_base: int,
                   app_maxconn: int, queue_timeout: str, run_dir: Path,
                   provider: str | None = None) -> Topology:
    env = {**os.environ, "TUTOR_DATABASE_URL": database_url, "PORT": str(port),
           "APP_PORT_BASE": str(app_port_base), "RUN_DIR": str(run_dir),
           "APP_MAXCONN": str(app_maxconn), "QUEUE_TIMEOUT": queue_timeout,
           "TUTOR_SPOOL_DIR": str(run_dir / "spool"), "STATE_DIR": str(run_dir / "state")}
    env.pop("TUTOR_OIDC_METADATA_URL", None)
    if provider:
        env.update({"TUTOR_OIDC_METADATA_URL": f"{provider}/.well-known/openid-configuration",
                    "TUTOR_OIDC_CLIENT_ID": "class-load", "TUTOR_OIDC_CLIENT_SECRET": "load-only",
                    "TUTOR_PUBLIC_URL": f"http://127.0.0.1:{port}"})
    out = open(run_dir.parent / f"{run_dir.name}.out", "w")  # noqa: SIM115 - the child's stdout
    process = subprocess.Popen(["bash", "scripts/serve_class.sh", str(replicas)], cwd=ROOT, env=env,
                               stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    topology = Topology(process, run_dir, f"http://127.0.0.1:{port}")
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"serve_class.sh exited:\n{Path(out.name).read_text()}")
        lines = (run_dir / "pids").read_text().split("\n") if (run_dir / "pids").exists() else []
        entries = [line.split() for line in lines if line.strip()]
        if any(e[0] == "proxy" for e in entries) and _answers(topology.url):
            topology.replicas = {e[0]: (int(e[1]), int(e[2])) for e in entries if e[0] != "proxy"}
            return topology
        time.sleep(0.5)
    stop_topology(topology)
    raise TimeoutError("the class deployment did not come up in 240 s")


def open_once(url: str) -> None:
    async def visit() -> None:
        tab = AppTab(url, timeout=120)
        try:
            await tab.open()
        finally:
            await tab.close()

    asyncio.run(visit())


def wait_for(condition, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.5)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def start_provider(port: int, log: Path) -> subprocess.Popen:
    """oidc-provider-mock on this machine: signs in any subject the login form posts."""
    with open(log, "w") as out:
        process = subprocess.Popen([sys.executable, "-m", "oidc_provider_mock", "--port", str(port)],
                                   stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/.well-known/openid-configuration", timeout=1):
                return process
        except (urllib.error.URLError, OSError):
            time.sleep(0.2)
    process.kill()
    raise TimeoutError(f"the OIDC provider did not start:\n{log.read_text()}")


def stop_topology(topology: Topology) -> None:
    if topology.process.poll() is None:
        os.killpg(topology.process.pid, signal.SIGTERM)
        try:
            topology.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(topology.process.pid, signal.SIGKILL)


def fill_the_proxy(url: str, connections: int, queue_timeout: float) -> dict:
    """Hold `connections` open sessions (the proxy's limit), then load the page once more: it must
    get the busy page (503) after about the queue timeout, not hang; after they leave, a page
    load works again."""

    async def scenario() -> dict:
        tabs = [AppTab(url, timeout=60) for _ in range(connections)]
        opened = 0

        async def hold(tab):
            nonlocal opened
            try:
                await tab.open()
                opened += 1
            except TabError:
                pass

        await asyncio.gather(*(hold(t) for t in tabs))
        started = time.perf_counter()
        status, body = await asyncio.to_thread(_get, url, queue_timeout + 10)
        busy = {"held": opened, "status": status, "seconds": round(time.perf_counter() - started, 2),
                "busy_page": "The class is full right now" in body}
        for tab in tabs:
            await tab.close()
        await asyncio.sleep(2)
        busy["after_release"] = (await asyncio.to_thread(_get, url, 30))[0]
        return busy

    return asyncio.run(scenario())


def _get(url: str, timeout: float) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url + "/", timeout=timeout) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", "replace")
    except (urllib.error.URLError, OSError) as exc:
        return -1, repr(exc)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, default=2)
    parser.add_argument("--database", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--learners", type=int, default=30)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--ramp", type=float, default=5.0)
    parser.add_argument("--answers", type=int, default=1000)
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--settle", type=float, default=10.0)
    parser.add_argument("--kill-at", type=float, help="SIGKILL the last replica after this many s")
    parser.add_argument("--restart-db-at", type=float, help="restart PostgreSQL after this many s")
    parser.add_argument("--fill", action="store_true",
                        help="afterwards, fill the proxy's connection limit (--app-maxconn)")
    parser.add_argument("--app-maxconn", type=int, default=150)
    parser.add_argument("--queue-timeout", type=float, default=3.0)
    parser.add_argument("--port", type=int, default=18601)
    parser.add_argument("--login", action="store_true",
                        help="class mode: learners sign in through a local OIDC provider "
                             "(oidc-provider-mock) as learner-<n>, each with a profile of its own")
    parser.add_argument("--json", type=Path, help="append the result as one JSON line here")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 on any error, lost attempt, unfinished learner or failed fault")
    args = parser.parse_args()

    run_dir = Path(f"/tmp/residual-tutor-class-load-{args.port}")
    run_dir.mkdir(exist_ok=True)
    # A fresh database each run, so a fresh spool: a replica killed in an earlier run must not
    # have its attempts replayed into this run's learners' profiles.
    shutil.rmtree(run_dir / "spool", ignore_errors=True)
    if args.database == "postgres":
        database_url = POSTGRES.start()
        reset_postgres(database_url)
    else:
        # In the folder serve_class.sh gives the replicas (they run as the service user)
        database = run_dir / "state" / "data" / "progress.db"
        database_url = f"sqlite:///{database}"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{database}{suffix}").unlink(missing_ok=True)
    provider = provider_url = None
    if args.login:
        provider = start_provider(args.port + 10, run_dir / "provider.log")
        provider_url = f"http://127.0.0.1:{args.port + 10}"
    topology = start_topology(args.replicas, database_url, port=args.port,
                              app_port_base=args.port + 20, app_maxconn=args.app_maxconn,
                              queue_timeout=f"{args.queue_timeout:g}s", run_dir=run_dir,
                              provider=provider_url)
    faults: dict = {}
    try:
        for name, (pid, port) in topology.replicas.items():
            if args.login:  # the login screen loads the pages' modules too (prepare_process)
                open_once(f"http://127.0.0.1:{port}")
                wait_for(lambda n=name: STARTED_UP in topology.log(n), 120)
            else:
                warm_up(f"http://127.0.0.1:{port}", [pid],
                        ready=lambda n=name: STARTED_UP in topology.log(n), quiet=2.0)
        names = sorted(topology.replicas)
        victim = names[-1] if args.kill_at is not None and len(names) > 1 else None
        survivors = [topology.replicas[n][0] for n in names if n != victim]
        timers = []
        if victim is not None:
            def kill() -> None:
                os.kill(topology.replicas[victim][0], signal.SIGKILL)
                faults["killed"] = {"replica": victim, "at": args.kill_at}
            timers.append(threading.Timer(args.kill_at, kill))
        if args.restart_db_at is not None and args.database == "postgres":
            def restart() -> None:
                faults["postgres_restart"] = {"at": args.restart_db_at,
                                              "seconds_away": round(restart_postgres(), 2)}
            timers.append(threading.Timer(args.restart_db_at, restart))
        spec = LoadSpec(learners=args.learners, think=args.think, ramp=args.ramp,
                        answers=args.answers, duration=args.duration, timeout=args.timeout,
                        settle=args.settle, reconnects=3 if victim else 0,
                        login="learner" if args.login else "",
                        new_profile="" if args.login else "learner",
                        habits=Habits.none())  # one try per question: the check as it was built
        for timer in timers:
            timer.start()
        report = run_load(spec, Target(topology.url, survivors, database_url))
        for timer in timers:
            timer.join()
        if args.fill:
            alive = len(names) - (victim is not None)
            faults["fill"] = fill_the_proxy(topology.url, alive * args.app_maxconn + 5,
                                            args.queue_timeout)
    finally:
        stop_topology(topology)
        if provider is not None:
            provider.terminate()
            provider.wait(timeout=10)

    print(f"replicas {args.replicas} on {args.database}, through HAProxy, learners "
          f"{'signed in (OIDC)' if args.login else 'each on a local profile it made'}; "
          f"CPU/RSS of the replicas that stayed up")
    print(HEADER)
    print(row(report))
    print(details(report))
    print(UNITS)
    print(f"reconnects after a broken connection: {report.reconnects}; submits refused by the "
          f"page (no new verdict, nothing stored): {report.refused}; attempts stored whose verdict "
          f"a broken connection kept from the learner: {max(0, report.stored - report.acknowledged)}"
          + ("" if args.login else f"; profiles made by the learners: {report.own_profiles} "
                                   f"(by {report.profile_makers} learners)"))
    if report.alerts:
        print("alerts shown with a verdict:", json.dumps(report.alerts, ensure_ascii=False))
    print("faults:", json.dumps(faults))
    if args.json:
        with args.json.open("a") as out:
            out.write(json.dumps({"replicas": args.replicas, "database": args.database,
                                  "login": args.login,
                                  "faults": faults, **report.as_dict()}) + "\n")
    failed = []
    if not report.ok:
        failed.append(f"{report.errors} errors, {report.lost} attempts lost, "
                      f"{report.unexplained} stored beyond what reconnects explain, "
                      f"{report.unfinished} learners unfinished, "
                      f"{report.profile_makers - report.own_profiles} profiles shared")
    if args.kill_at is not None and victim is not None and "killed" not in faults:
        failed.append("the replica was not killed (run shorter than --kill-at?)")
    if args.fill and (faults["fill"]["status"] != 503 or not faults["fill"]["busy_page"]
                      or faults["fill"]["after_release"] != 200):
        failed.append(f"connection limit: {faults['fill']}")
    if args.check and failed:
        print("CLASS LOAD CHECK FAILED: " + "; ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
