"""One load run: learners arrive over the ramp, answer, leave; the server is measured meanwhile.

`run_load(spec, target)` returns a `LoadReport`: submit -> verdict percentiles, first-page time,
script runs per second, the server's CPU per run, its RSS before / at the peak / after the
learners left, and the attempts the progress database gained against the answers whose verdict
the learners saw (`lost` must be 0).
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from bench.loadgen.learner import Habits, LearnerConfig, LearnerLog, learner
from bench.loadgen.probe import RssSampler, cpu_seconds, tree_cpu_seconds

MIB = 1024 * 1024


@dataclass(frozen=True)
class LoadSpec:
    learners: int = 25
    think: float = 10.0  # seconds between a learner's actions (uniform in [0.5, 1.5] x think)
    ramp: float = 20.0  # arrivals spread evenly over this many seconds
    answers: int = 5  # questions per learner (each answered once, or more after a wrong verdict)
    duration: float = 600.0  # no action starts after this many seconds
    page: str = ""  # url path of the page (the default page: Practice)
    timeout: float = 30.0  # one interaction's limit
    settle: float = 20.0  # after the learners left: wait this long for writes and memory
    seed: int = 0
    loop: bool = False  # each learner who is done is replaced by a new one until `duration` ends
    reconnects: int = 0  # page loads again a learner may make after its connection broke
    login: str = ""  # learners sign in (OIDC) as "<login>-<n>"; "" = local profiles
    new_profile: str = ""  # local profiles: each learner makes "<new_profile>-<n>"; "" = the first
    habits: Habits = field(default_factory=Habits)  # after a wrong verdict: try again, the solution


@dataclass
class Target:
    """A running server: its URL, its process ids (for CPU and RSS) and its progress database."""

    url: str
    pids: list[int]
    database_url: str


@dataclass
class LoadReport:
    spec: LoadSpec
    elapsed: float = 0.0
    verdicts: int = 0
    verdict_p50: float = float("nan")
    verdict_p95: float = float("nan")
    verdict_p99: float = float("nan")
    verdict_max: float = float("nan")
    first_page_p50: float = float("nan")
    first_page_p95: float = float("nan")
    runs: int = 0
    runs_per_s: float = 0.0
    server_cpu: float = 0.0  # seconds, the server processes themselves
    children_cpu: float = 0.0  # seconds, their children alive at the end (grader worker...)
    cpu_per_run_mean: float = float("nan")
    cpu_per_run_median: float = float("nan")  # only with one learner: each run measured alone
    idle_cpu_rate: float = 0.0  # CPU s per s of the server before the learners came
    client_cpu: float = 0.0
    rss_before: float = 0.0  # MiB
    rss_peak: float = 0.0
    rss_after: float = 0.0
    rss_timeline: list[tuple[float, float]] = field(default_factory=list)  # (s, MiB), per 10 s
    children_rss_peak: float = 0.0
    acknowledged: int = 0
    unreadable: int = 0  # verdicts on answers that could not be read: not attempts, not stored
    stored: int = 0
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    unfinished: int = 0  # learners who neither finished nor reported an error
    reconnects: int = 0  # page loads again after a broken connection (a replica died)
    left_mid_answer: int = 0  # learners stopped by the time bound between an answer's forms
    alerts: dict[str, int] = field(default_factory=dict)  # alert text shown with a verdict -> times
    refused: int = 0  # submits refused by the page (the previous verdict redrawn): not attempts
    questions: int = 0  # questions answered
    first_wrong: int = 0  # of them, those whose first verdict was not "correct"
    retries: int = 0  # tries again after a wrong verdict
    reveals: int = 0  # solutions asked for after a wrong try
    own_profiles: int = 0  # distinct profiles the learners made for themselves (new_profile)
    profile_makers: int = 0  # learners who made one: more than own_profiles would be a shared one

    @property
    def lost(self) -> int:
        """Answers whose verdict was shown and whose attempt is not in the database."""
        return max(0, self.acknowledged - self.stored)

    @property
    def unexplained(self) -> int:
        """Attempts stored beyond the verdicts seen that no broken connection or interrupted
        answer explains. A replica killed between writing an attempt and sending its verdict
        stores an answer its learner never saw acknowledged (at most one per broken connection);
        so does a learner stopped by the time bound in the middle of an answer given in two
        forms (an interview answer is recorded, unassessed, when its model answer is shown: at
        most one per such learner); anything more would be an attempt written twice."""
        return max(0, self.stored - self.acknowledged - self.reconnects - self.left_mid_answer)

    @property
    def ok(self) -> bool:
        return (self.errors == 0 and self.lost == 0 and self.unexplained == 0
                and self.unfinished == 0 and self.own_profiles == self.profile_makers)

    def as_dict(self) -> dict:
        return {**asdict(self), "spec": asdict(self.spec), "lost": self.lost,
                "unexplained": self.unexplained, "ok": self.ok}


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100); NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def count_attempts(database_url: str) -> int:
    """Every attempt the progress database holds (all profiles)."""
    from tutor.store import ProgressStore

    with ProgressStore.open(database_url) as store:
        return sum(store.count_attempts(p.id) for p in store.list_profiles())


class CpuPerRun:
    """With one learner, each run's server CPU: the CPU clock read at every send, differenced,
    less what the idle server burns over the same wall time (its event loop and threads: ~3 ms
    per second here, which would otherwise add ~30 ms to every run of a learner thinking 10 s)."""

    def __init__(self, pids: list[int], idle_rate: float = 0.0) -> None:
        self.pids = pids
        self.idle_rate = idle_rate  # CPU seconds per wall second with nobody connected
        self.marks: list[tuple[float, float]] = []  # (CPU seconds, wall seconds)

    def mark(self) -> None:
        self.marks.append((sum(cpu_seconds(p) for p in self.pids), time.perf_counter()))

    def per_run(self) -> list[float]:
        return [(c2 - c1) - self.idle_rate * (w2 - w1)
                for (c1, w1), (c2, w2) in zip(self.marks, self.marks[1:], strict=False)]


def idle_cpu_rate(pids: list[int], seconds: float = 3.0) -> float:
    """CPU seconds per second the server uses while nobody interacts with it."""
    cpu0, wall0 = sum(cpu_seconds(p) for p in pids), time.perf_counter()
    time.sleep(seconds)
    return (sum(cpu_seconds(p) for p in pids) - cpu0) / (time.perf_counter() - wall0)


async def _drive(spec: LoadSpec, url: str, cpu_marks: CpuPerRun | None) -> list[LearnerLog]:
    start = time.perf_counter()
    config = LearnerConfig(url, page=spec.page, answers=spec.answers, think=spec.think,
                           timeout=spec.timeout, deadline=start + spec.duration,
                           reconnects=spec.reconnects, login=spec.login,
                           new_profile=spec.new_profile, habits=spec.habits)
    gap = spec.ramp / spec.learners if spec.learners else 0.0
    on_send = cpu_marks.mark if cpu_marks else None

    async def slot(n: int) -> list[LearnerLog]:
        """Learner n; with `loop`, then the learners who take its place, until the deadline."""
        logs = [await learner(n, config, start_delay=n * gap, seed=spec.seed, on_send=on_send)]
        while spec.loop and time.perf_counter() < config.deadline:
            number = n + spec.learners * len(logs)
            logs.append(await learner(number, config, seed=spec.seed, on_send=on_send))
        return logs

    # The hard bound: the duration, a last interaction's timeout and a little slack.
    slots = await asyncio.wait_for(asyncio.gather(*(slot(n) for n in range(spec.learners))),
                                   spec.duration + spec.timeout + spec.ramp + 30)
    return [log for logs in slots for log in logs]


def warm_up(url: str, pids: list[int], page: str = "", *,
            ready: Callable[[], bool] | None = None, quiet: float = 5.0,
            limit: float = 120.0) -> None:
    """One learner answers three questions, then the server is left alone until it has finished
    starting up (`ready()`, when given: the server log says its start-up heap is frozen) and its
    RSS has not moved for `quiet` seconds: imports, caches and worker processes are loaded before
    the idle RSS is read, as on a server that has been up for a while."""
    config = LearnerConfig(url, page=page, answers=3, think=0.0, habits=Habits.none())
    log = asyncio.run(learner(-1, config))
    if log.errors:
        raise RuntimeError(f"warm-up learner failed: {log.errors[0]}")
    sampler = RssSampler(pids)
    deadline = time.monotonic() + limit
    while ready is not None and not ready() and time.monotonic() < deadline:
        time.sleep(0.5)
    last, still_since = sampler.now(), time.monotonic()
    while time.monotonic() < deadline and time.monotonic() - still_since < quiet:
        time.sleep(0.5)
        now = sampler.now()
        if abs(now - last) > 256 * 1024:
            last, still_since = now, time.monotonic()


def run_load(spec: LoadSpec, target: Target) -> LoadReport:
    report = LoadReport(spec)
    pids = target.pids
    stored_before = count_attempts(target.database_url)
    report.idle_cpu_rate = idle_cpu_rate(pids)
    cpu_marks = CpuPerRun(pids, report.idle_cpu_rate) if spec.learners == 1 else None
    client_cpu0 = time.process_time()
    with RssSampler(pids) as rss:
        report.rss_before = rss.now() / MIB
        cpu0 = sum(cpu_seconds(p) for p in pids)
        started = time.perf_counter()
        logs = asyncio.run(_drive(spec, target.url, cpu_marks))
        report.elapsed = time.perf_counter() - started
        if cpu_marks is not None:
            cpu_marks.mark()
        cpu1 = sum(cpu_seconds(p) for p in pids)
        report.client_cpu = time.process_time() - client_cpu0
        report.acknowledged = sum(log.acknowledged for log in logs)
        report.unreadable = sum(log.unreadable for log in logs)
        # Writes may land after the verdict (that is the point of showing it first): wait for them.
        deadline = time.monotonic() + spec.settle
        report.stored = count_attempts(target.database_url) - stored_before
        while report.stored < report.acknowledged and time.monotonic() < deadline:
            time.sleep(0.5)
            report.stored = count_attempts(target.database_url) - stored_before
        time.sleep(max(0.0, deadline - time.monotonic()))
        report.rss_after = rss.now() / MIB
        report.rss_peak = rss.peak / MIB
        report.children_rss_peak = rss.children_peak / MIB
        report.children_cpu = sum(tree_cpu_seconds(p) for p in pids)
        t0 = rss.samples[0][0] if rss.samples else 0.0
        report.rss_timeline = [(round(t - t0, 1), round(v / MIB, 1))
                               for t, v in rss.samples[::40]]  # every 10 s (0.25 s sampling)

    verdicts = [v for log in logs for v in log.verdicts]
    first = [log.first_page for log in logs if log.first_page is not None]
    report.verdicts = len(verdicts)
    report.verdict_p50, report.verdict_p95, report.verdict_p99 = (
        percentile(verdicts, q) for q in (50, 95, 99))
    report.verdict_max = max(verdicts, default=float("nan"))
    report.first_page_p50, report.first_page_p95 = percentile(first, 50), percentile(first, 95)
    report.runs = sum(len(log.runs) for log in logs)
    report.runs_per_s = report.runs / report.elapsed if report.elapsed else 0.0
    report.server_cpu = cpu1 - cpu0
    busy_cpu = report.server_cpu - report.idle_cpu_rate * report.elapsed
    report.cpu_per_run_mean = busy_cpu / report.runs if report.runs else float("nan")
    if cpu_marks is not None and cpu_marks.per_run():
        report.cpu_per_run_median = statistics.median(cpu_marks.per_run())
    errors = [f"learner {log.number}: {e}" for log in logs for e in log.errors]
    errors += [f"learner {log.number}: the app showed {p}" for log in logs for p in log.problems]
    report.errors = len(errors)
    report.error_samples = errors[:5]
    report.unfinished = sum(1 for log in logs if not log.finished and not log.errors)
    report.reconnects = sum(log.reconnects for log in logs)
    report.left_mid_answer = sum(log.left_mid_answer for log in logs)
    report.refused = sum(log.refused for log in logs)
    report.questions = sum(log.questions for log in logs)
    report.first_wrong = sum(log.first_wrong for log in logs)
    report.retries = sum(log.retries for log in logs)
    report.reveals = sum(log.reveals for log in logs)
    report.own_profiles = len({log.profile for log in logs if log.profile is not None})
    report.profile_makers = sum(log.profile is not None for log in logs)
    report.alerts = dict(Counter(a for log in logs for a in log.alerts).most_common(8))
    return report
