"""A smoke test of the class deployment as a school runs it (`scripts/serve_class.sh`, issue 28),
on this machine, in about two minutes:

1. an older deployment left the database role with the default password `residual_tutor`;
2. `serve_class.sh 2` starts (PostgreSQL in a cluster of its own, two replicas, HAProxy, login
   through a local OIDC provider); its banner comes only once both replicas answer;
3. a second start is refused three ways (same state directory; same run directory; only the
   ports in common) and the first keeps serving, its pid file and logs untouched;
4. the replicas do not run as root; the role's password is not the default (the default is
   refused, the generated one works);
5. a learner signs in through the proxy; the class is seeded (bench/seed_class.py);
6. a SIGKILLed replica is serving again within 10 s (the script's supervisor);
7. SIGTERM stops the deployment cleanly (every process gone); started again (with a retention
   period of 365 days), the learner's cookies from before still sign her in (the cookie secret
   persisted), and the supervisor removes a learner idle for 800 days, with a record;
8. a `pg_dump` backup restored into a fresh database (the commands of docs/deploying.md) gives
   the same Class page: `tutor.class_store.load_class` read from both, rows and summary equal.

    .venv/bin/python bench/deploy_smoke.py --check      # `make deploy-smoke-check`, in .ci/run

Prints a table of what was checked and the figures (start-up seconds, a replica's return); exits
1 when any check fails. Must run as root (it checks the switch to the service user), like CI,
with a virtualenv whose Python the service user can run (`TUTOR_PYTHON` names another one).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.loadgen.connection import AppTab, TabError  # noqa: E402
from bench.loadgen.login import sign_in  # noqa: E402
from bench.own_postgres import OwnPostgres, reset_postgres  # noqa: E402
from tests.e2e.class_fixtures import consecutive_free_ports  # noqa: E402

ROLE = DATABASE = "residual_tutor"  # serve_class.sh's
DEFAULT_PASSWORD = "residual_tutor"  # what the role had before issue 28
POSTGRES = OwnPostgres("deploysmoke", port=5443, database=DATABASE, role=ROLE)
RESTORED = "residual_tutor_restored"
SERVICE_USER = "residual-tutor"
BACK_WITHIN_S = 10.0
BANNER = "Residual Tutor (class)"


class Failed(AssertionError):
    pass


def check(condition: bool, what: str) -> None:
    if not condition:
        raise Failed(what)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def read_pids(run_dir: Path) -> dict[str, tuple[int, int]]:
    path = run_dir / "pids"
    lines = path.read_text().splitlines() if path.exists() else []
    return {name: (int(pid), int(port)) for name, pid, port in (line.split() for line in lines)}


def uid_of(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Uid:"):
            return int(line.split()[1])  # the real uid
    raise Failed(f"no Uid line for pid {pid}")


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "zombie" not in Path(
        f"/proc/{pid}/status").read_text()


class Deployment:
    """One `serve_class.sh 2` process and the directories and ports it was given."""

    def __init__(self, env: dict[str, str], run_dir: Path, port: int, log: Path):
        self.env, self.run_dir, self.port, self.log = env, run_dir, port, log
        self.url = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 150) -> float:
        started = time.monotonic()
        banners = self.log.read_text().count(BANNER) if self.log.exists() else 0
        with open(self.log, "a") as out:
            self.process = subprocess.Popen(["bash", "scripts/serve_class.sh", "2"], cwd=ROOT,
                                            env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        while self.log.read_text().count(BANNER) == banners:
            check(self.process.poll() is None, f"serve_class.sh exited:\n{self.log.read_text()}")
            check(time.monotonic() - started < timeout, "no banner in time")
            time.sleep(0.3)
        return time.monotonic() - started

    def stop(self) -> float:
        """SIGTERM to the script alone (what Ctrl-C or systemd sends it)."""
        started = time.monotonic()
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=40)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                raise Failed("serve_class.sh did not stop within 40 s of SIGTERM") from None
        return time.monotonic() - started


def refused(env: dict[str, str], log: Path) -> tuple[int, str]:
    result = subprocess.run(["bash", "scripts/serve_class.sh", "2"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    with open(log, "a") as out:
        out.write(result.stdout + result.stderr)
    return result.returncode, result.stderr


def signed_in_texts(url: str, cookies: dict[str, str], page: str = "") -> list[str]:
    async def visit() -> list[str]:
        tab = AppTab(url, page=page, query="lang=en", timeout=60, cookies=cookies)
        await tab.open()
        texts = tab.page.texts()
        await tab.close()
        return texts

    return asyncio.run(visit())


def sign_in_learner(url: str, subject: str) -> tuple[dict[str, str], list[str]]:
    async def visit():
        tab = AppTab(url, query="lang=en", timeout=60)
        await tab.open()
        tab = await sign_in(tab, subject)
        texts = tab.page.texts()
        cookies = dict(tab.cookies)
        await tab.close()
        return cookies, texts

    return asyncio.run(visit())


def admin(*command: str) -> None:
    subprocess.run(["su", "postgres", "-c", " ".join(command)], check=True, capture_output=True)


def class_page(url: str, now: datetime):
    """The Class page's numbers, read from the database at `url` as the page reads them."""
    from tutor.class_store import load_class
    from tutor.class_view import class_rows, summarize
    from tutor.store import ProgressStore

    with ProgressStore.open(url) as db:
        rows = class_rows(load_class(db, now), now)
    return rows, summarize(rows)


def seed(url: str) -> int:
    import random

    from bench.seed_class import seed_class, synthetic_questions
    from tutor.store import ProgressStore

    with ProgressStore.open(url) as db:
        return seed_class(db, synthetic_questions(12, random.Random(3)), learners=15, seed=5)


def run(report: list[tuple[str, str]]) -> None:
    provider_port = free_port()
    work = Path(tempfile.mkdtemp(prefix="deploy-smoke-"))
    work.chmod(0o755)  # the service user reaches the state directory below it
    provider = start_provider_with_ada(provider_port, work / "provider.log")
    deployment = None
    passed = False  # the work folder (logs) is kept for a look when a check failed
    try:
        # 1. an older deployment: the role with the default password
        os.environ.pop("TUTOR_DATABASE_URL", None)
        old_url = subprocess.run(
            ["bash", "scripts/start_postgres.sh"], cwd=ROOT, check=True, capture_output=True,
            text=True, env={**os.environ, **POSTGRES.env(), "TUTOR_TEST_DB_PASSWORD":
                            DEFAULT_PASSWORD}).stdout.strip().splitlines()[-1]
        reset_postgres(old_url)
        admin(f"dropdb -p {POSTGRES.port} --if-exists {RESTORED}")

        port, app_base = free_port(), consecutive_free_ports(2)
        state_dir, run_dir = work / "state", work / "run"
        env = {**os.environ, **POSTGRES.env(), "PORT": str(port), "APP_PORT_BASE": str(app_base),
               "RUN_DIR": str(run_dir), "STATE_DIR": str(state_dir),
               "TUTOR_OIDC_METADATA_URL":
                   f"http://127.0.0.1:{provider_port}/.well-known/openid-configuration",
               "TUTOR_OIDC_CLIENT_ID": "deploy-smoke", "TUTOR_OIDC_CLIENT_SECRET": "smoke-only",
               "TUTOR_PUBLIC_URL": f"http://127.0.0.1:{port}"}
        for name in ("TUTOR_DB_PASSWORD", "STREAMLIT_SERVER_COOKIE_SECRET", "TUTOR_SPOOL_DIR",
                     "TUTOR_SERVICE_USER"):
            env.pop(name, None)

        # 2. the start
        deployment = Deployment(env, run_dir, port, work / "serve.log")
        seconds = deployment.start()
        pids = read_pids(run_dir)
        check(set(pids) == {"app1", "app2", "proxy"}, f"pids file: {pids}")
        check(all(healthy(f"http://127.0.0.1:{p}") for _, p in pids.values()),
              "a replica did not serve when the banner was printed")
        report.append(("started (banner after every replica answers)", f"{seconds:.1f} s"))

        # 3. a second start is refused; the first keeps serving, untouched
        pid_text = (run_dir / "pids").read_text()
        log_sizes = {p.name: p.stat().st_size for p in run_dir.glob("*.log")}
        other = work / "other"
        for label, extra in (
                ("same state directory", {}),
                ("same run directory", {"STATE_DIR": str(other / "state")}),
                ("same ports only", {"STATE_DIR": str(other / "state2"),
                                     "RUN_DIR": str(other / "run2")})):
            code, stderr = refused({**env, **extra}, work / "refused.log")
            check(code == 3 and "not started" in stderr, f"second start ({label}): exit {code}\n"
                                                         f"{stderr}")
            report.append((f"second start refused ({label})", stderr.strip().splitlines()[-1]))
        check((run_dir / "pids").read_text() == pid_text, "the pid file was rewritten")
        check(all((run_dir / n).stat().st_size >= s for n, s in log_sizes.items()),
              "a log was truncated")
        check(healthy(deployment.url) and all(alive(pid) for pid, _ in pids.values()),
              "the first deployment stopped serving")
        check(not (other / "state2" / "secrets").exists(), "the refused start wrote secrets")

        # 4. not root; not the default password
        uids = {name: uid_of(pid) for name, (pid, _) in pids.items() if name != "proxy"}
        service_uid = int(subprocess.run(["id", "-u", SERVICE_USER], check=True,
                                         capture_output=True, text=True).stdout)
        check(all(uid == service_uid != 0 for uid in uids.values()), f"replica uids {uids}")
        report.append(("replicas run as", f"{SERVICE_USER} (uid {service_uid})"))
        password = (state_dir / "secrets" / "db_password").read_text()
        check(password != DEFAULT_PASSWORD and len(password) >= 32, "the password is the default")
        check((state_dir / "secrets").stat().st_mode & 0o077 == 0, "secrets/ is not private")
        import psycopg

        try:
            psycopg.connect(host="127.0.0.1", port=POSTGRES.port, dbname=DATABASE, user=ROLE,
                            password=DEFAULT_PASSWORD, connect_timeout=5).close()
            raise Failed("the default password still opens the database")
        except psycopg.OperationalError:
            pass
        url = f"postgresql+psycopg://{ROLE}:{password}@127.0.0.1:{POSTGRES.port}/{DATABASE}"
        psycopg.connect(host="127.0.0.1", port=POSTGRES.port, dbname=DATABASE, user=ROLE,
                        password=password, connect_timeout=5).close()
        report.append(("database password", "generated; the default is refused"))

        # 5. a learner signs in; the class gets some history
        cookies, texts = sign_in_learner(deployment.url, "ada-sub")
        check("Signed in as Ada" in texts, f"not signed in: {texts[:8]}")
        # Exercises builds a problem in the compute worker, a subprocess of the replica: the
        # service user must be able to start it (an interpreter only root can reach cannot).
        texts = signed_in_texts(deployment.url, cookies, page="exercises")
        check(not any("encountered an error" in text for text in texts),
              f"the Exercises page failed as {SERVICE_USER}: {texts[:4]}")
        attempts = seed(url)

        # 6. a SIGKILLed replica comes back
        victim, (victim_pid, victim_port) = "app1", pids["app1"]
        os.kill(victim_pid, signal.SIGKILL)
        killed = time.monotonic()
        while True:
            now_pid = read_pids(run_dir).get(victim, (victim_pid, 0))[0]
            if now_pid != victim_pid and healthy(f"http://127.0.0.1:{victim_port}"):
                break
            check(time.monotonic() - killed < 60, "the killed replica did not come back")
            time.sleep(0.2)
        back = time.monotonic() - killed
        check(back <= BACK_WITHIN_S, f"the killed replica took {back:.1f} s to serve again")
        check(uid_of(now_pid) == service_uid, "the restarted replica runs as root")
        report.append(("SIGKILLed replica serving again", f"{back:.1f} s (limit {BACK_WITHIN_S:g})"))

        # 7. a clean stop, and a restart that signs nobody out
        stop_seconds = deployment.stop()
        check(not any(alive(pid) for pid, _ in read_pids(run_dir).values() or pids.values()),
              "a process outlived the stop")
        check(not any(alive(pid) for pid in (pids["app2"][0], pids["proxy"][0], now_pid)),
              "a process outlived the stop")
        report.append(("stopped by SIGTERM", f"{stop_seconds:.1f} s, every process gone"))
        secret_before = (state_dir / "secrets" / "cookie_secret").read_text()
        idle = make_idle_learner(url)  # last seen two years ago
        deployment.env.update(TUTOR_RETENTION_DAYS="365", TUTOR_RETENTION_CHECK_SECONDS="2")
        seconds = deployment.start()
        check((state_dir / "secrets" / "cookie_secret").read_text() == secret_before,
              "the cookie secret changed")
        texts = signed_in_texts(deployment.url, cookies)
        check("Signed in as Ada" in texts, f"signed out by the restart: {texts[:8]}")
        report.append(("after a restart the learner is", f"still signed in ({seconds:.1f} s start)"))
        waited = wait_for_retention(url, idle)
        report.append(("retention (365 days) by the supervisor",
                       f"the idle learner removed and recorded {waited:.1f} s after the start"))

        # 8. backup and restore (docs/deploying.md, "Backups")
        backup = work / "backup.dump"
        pg_env = {**os.environ, "PGPASSWORD": password}
        subprocess.run(["pg_dump", "-h", "127.0.0.1", "-p", str(POSTGRES.port), "-U", ROLE,
                        "-Fc", "-f", str(backup), DATABASE], check=True, env=pg_env)
        admin(f"createdb -p {POSTGRES.port} -O {ROLE} {RESTORED}")
        subprocess.run(["pg_restore", "-h", "127.0.0.1", "-p", str(POSTGRES.port), "-U", ROLE,
                        "--no-owner", "--exit-on-error", "-d", RESTORED, str(backup)],
                       check=True, env=pg_env)
        now = datetime.now(UTC)
        original = class_page(url, now)
        restored = class_page(url.rsplit("/", 1)[0] + f"/{RESTORED}", now)
        check(original == restored, "the restored database gives another Class page")
        check(original[1].learners >= 16, f"the class was not seeded: {original[1]}")
        check(all(r.profile_id != idle for r in original[0]), "the idle learner is still listed")
        report.append(("pg_dump restored: same Class page",
                       f"{original[1].learners} learners, {attempts} seeded attempts"))
        passed = True
    finally:
        if deployment is not None:
            try:
                deployment.stop()
            except Failed:
                pass
        provider.terminate()
        provider.wait(timeout=10)
        try:
            admin(f"dropdb -p {POSTGRES.port} --if-exists {RESTORED}")
        finally:
            POSTGRES.ctl("stop")
        if passed:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"logs kept in {work}")


def make_idle_learner(url: str) -> int:
    from datetime import timedelta

    from tutor.store import ProgressStore

    with ProgressStore.open(url) as db:
        return db.create_profile("Idle since 2024", now=datetime.now(UTC) - timedelta(days=800)).id


def wait_for_retention(url: str, profile_id: int) -> float:
    """Seconds until the supervisor's retention run has deleted `profile_id`, with its record."""
    from tutor.store import ProgressStore
    from tutor.store.deletions import Reason, deletion_log

    started = time.monotonic()
    with ProgressStore.open(url) as db:
        while time.monotonic() - started < 30:
            if any(d.profile_id == profile_id and d.reason is Reason.RETENTION
                   for d in deletion_log(db)):
                check(all(p.id != profile_id for p in db.list_profiles()), "record, no deletion")
                return time.monotonic() - started
            time.sleep(0.5)
    raise Failed("the supervisor's retention run did not remove the idle learner in 30 s")


def start_provider_with_ada(port: int, log: Path) -> subprocess.Popen:
    """oidc-provider-mock knowing Ada (a learner) by her claims."""
    ada = {"sub": "ada-sub", "name": "Ada", "email": "ada@school.test", "email_verified": True}
    with open(log, "w") as out:
        process = subprocess.Popen([sys.executable, "-m", "oidc_provider_mock", "--port", str(port),
                                    "--user-claims", json.dumps(ada)], stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 30
    while not_up(f"http://127.0.0.1:{port}/.well-known/openid-configuration"):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise Failed(f"the OIDC provider did not start:\n{log.read_text()}")
        time.sleep(0.2)
    return process


def not_up(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1):
            return False
    except (urllib.error.URLError, OSError):
        return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a check fails")
    args = parser.parse_args()
    if os.geteuid() != 0:
        print("deploy_smoke.py runs as root (it checks the switch to the service user)")
        return 2
    report: list[tuple[str, str]] = []
    started = time.monotonic()
    failure = None
    try:
        run(report)
    except (Failed, TabError) as exc:
        failure = str(exc)
    width = max(len(what) for what, _ in report) if report else 10
    print(f"{'check':<{width}}  result")
    for what, result in report:
        print(f"{what:<{width}}  {result}")
    print(f"total {time.monotonic() - started:.0f} s; load average {Path('/proc/loadavg').read_text().split()[:3]}")
    if failure:
        print(f"FAILED: {failure}")
        return 1 if args.check else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
