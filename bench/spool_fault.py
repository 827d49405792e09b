"""The fault test of issue 23, item 2: an answer the page called saved is never lost, and none is
written twice, when the replica that took it dies while the database is down.

    .venv/bin/python bench/spool_fault.py --check        # what `make spool-fault-check` runs

1. PostgreSQL in a cluster of its own (`TUTOR_PG_CLUSTER=spoolfault`, port 5442: stopping it
   touches no other database), a fresh database, one real app replica on it (`python -m
   server_tuning`, as `make run` and `scripts/serve_class.sh` start one) with a spool folder
   of its own;
2. the simulated learners (the load generator's websocket client, `bench/loadgen/`) open the app
   and each makes a profile of its own while the database is up;
3. PostgreSQL is stopped (`-m immediate`); every learner answers `--answers` questions: each
   verdict comes with "Saved on this server" (spooled), "Not saved yet" or "Saved.";
4. the replica is SIGKILLed (its whole process group), PostgreSQL is started again, and the
   database is counted before the replica comes back: what the learners were told was saved is
   then only in the dead replica's spool;
5. the replica is restarted on the same spool folder; it writes what it finds (at start-up,
   before any visit), and the spool empties.

`--check` fails unless, for every learner, the attempts stored are at least those the page called
saved and at most those it graded (the verdicts), no attempt is stored twice (each key once, and
no two rows alike), something was saved while the database was down, and the spool ends empty.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.loadgen.connection import AppTab  # noqa: E402
from bench.loadgen.learner import Habits, LearnerConfig, LearnerLog, answer_one  # noqa: E402
from bench.loadgen.profile import make_own_profile  # noqa: E402
from bench.own_postgres import OwnPostgres, reset_postgres  # noqa: E402
from tests.e2e.server import Server, start_server, wait_ready  # noqa: E402

POSTGRES = OwnPostgres("spoolfault", port=5442, database="tutor_spool", role="tutor_spool")
APP = ROOT / "streamlit_app.py"


def stored_attempts(url: str) -> list:
    """Every attempt row: (profile_id, client_key, question_id, answer, created_at)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT profile_id, client_key, question_id, answer, created_at "
                                 "FROM attempts")).all()
    engine.dispose()
    return [tuple(r) for r in rows]


def start_replica(url: str, spool: Path, log: Path) -> Server:
    server = start_server(APP, env={"TUTOR_DATABASE_URL": url, "TUTOR_SPOOL_DIR": str(spool)},
                          log_path=log)
    wait_ready(server, timeout=120)
    return server


def kill(server: Server) -> None:
    """SIGKILL the replica and its workers (it runs in a process group of its own)."""
    try:
        os.killpg(server.process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    server.process.wait()


async def open_learners(url: str, count: int) -> list[tuple[AppTab, LearnerLog]]:
    async def one(number: int) -> tuple[AppTab, LearnerLog]:
        tab = AppTab(url, query="lang=en", timeout=60)
        await tab.open()
        log = LearnerLog(number)
        log.profile = await make_own_profile(tab, f"spool-{number}")
        return tab, log

    return list(await asyncio.gather(*(one(n) for n in range(count))))


async def answer_all(learners, config: LearnerConfig, answers: int) -> None:
    import random

    async def one(tab: AppTab, log: LearnerLog) -> None:
        rng = random.Random(log.number)
        try:
            for _ in range(answers):
                await answer_one(tab, config, rng, log)
        except Exception as exc:  # noqa: BLE001 - counted as this learner's error
            log.errors.append(repr(exc))

    await asyncio.gather(*(one(tab, log) for tab, log in learners))


async def close_all(learners) -> None:
    for tab, _log in learners:
        try:
            await tab.close()
        except Exception:  # noqa: BLE001 - its server was killed: nothing to close politely
            pass


async def scenario(args, url: str, spool: Path, work: Path):
    """Steps 1-5 (one event loop: the learners' websockets belong to it)."""
    replica = await asyncio.to_thread(start_replica, url, spool, work / "replica-1.log")
    config = LearnerConfig(base_url=replica.url, think=0.0, timeout=60, habits=Habits.none())
    try:
        learners = await open_learners(replica.url, args.learners)
        await asyncio.to_thread(POSTGRES.ctl, "stop", "-m", "immediate")
        await answer_all(learners, config, args.answers)
        spooled_files = sorted(spool.glob("*.spool"))
        spooled_lines = sum(p.read_bytes().count(b"\n") for p in spooled_files)
        await asyncio.to_thread(kill, replica)
        await close_all(learners)
        await asyncio.to_thread(POSTGRES.ctl, "start")
        await asyncio.to_thread(wait_until, lambda: _reachable(url), 30)
        before_restart = len(stored_attempts(url))
        replica = await asyncio.to_thread(start_replica, url, spool, work / "replica-2.log")
        emptied = await asyncio.to_thread(wait_until, lambda: not list(spool.glob("*.spool")), 60)
        rows = stored_attempts(url)
    finally:
        await asyncio.to_thread(kill, replica)
    return learners, spooled_files, spooled_lines, before_restart, emptied, rows


def wait_until(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.25)
    return condition()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--learners", type=int, default=6)
    parser.add_argument("--answers", type=int, default=4, help="answers per learner while down")
    parser.add_argument("--check", action="store_true", help="exit 1 on any lost or doubled attempt")
    args = parser.parse_args()
    started = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix="spool-fault-"))
    spool = work / "spool"
    url = POSTGRES.start()
    reset_postgres(url)
    outcome = asyncio.run(scenario(args, url, spool, work))
    learners, spooled_files, spooled_lines, before_restart, emptied, rows = outcome
    logs = [log for _tab, log in learners]
    problems: list[str] = []
    by_profile: dict[str, int] = {}
    for profile_id, *_rest in rows:
        by_profile[str(profile_id)] = by_profile.get(str(profile_id), 0) + 1
    print("| learner | verdicts | attempts graded | called saved | stored | errors |")
    print("| --- | --- | --- | --- | --- | --- |")
    for log in logs:
        stored = by_profile.get(str(log.profile), 0)
        print(f"| {log.number} (profile {log.profile}) | {len(log.verdicts)} | {log.acknowledged} "
              f"| {log.saved} | {stored} | {len(log.errors)} |")
        if stored < log.saved:
            problems.append(f"learner {log.number}: {log.saved} called saved, {stored} stored")
        if stored > log.acknowledged:
            problems.append(f"learner {log.number}: {stored} stored for {log.acknowledged} graded")
        problems += [f"learner {log.number}: {e}" for e in log.errors]
    keys = [r[1] for r in rows]
    alike = len(rows) - len({(r[0], r[2], r[3], r[4]) for r in rows})
    if None in keys or len(set(keys)) != len(keys) or alike:
        problems.append(f"attempts written twice: {len(rows)} rows, {len(set(keys))} keys, "
                        f"{alike} rows alike")
    saved = sum(log.saved for log in logs)
    if saved == 0:
        problems.append("nothing was called saved while the database was down")
    if not emptied:
        problems.append(f"the spool did not empty: {sorted(p.name for p in spool.glob('*'))}")
    print(f"\nspool at the kill: {len(spooled_files)} segment(s), {spooled_lines} records; "
          f"stored before the restart: {before_restart}; after: {len(rows)}; called saved: "
          f"{saved}; {time.perf_counter() - started:.0f} s; load average "
          f"{Path('/proc/loadavg').read_text().split()[0]}")
    for problem in problems:
        print("FAIL:", problem)
    if problems:
        print(f"replica logs in {work}")
    return 1 if args.check and problems else 0


def _reachable(url: str) -> bool:
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        return True
    except Exception:  # noqa: BLE001 - not up yet
        return False
    finally:
        engine.dispose()


if __name__ == "__main__":
    sys.exit(main())
