"""The attempt writer's CPU per attempt: its store thread and its spool thread, as a server's
Practice page uses them (one shared profile, questions tried again, generated variants).

Each round submits `--per-round` attempts through `AttemptWriter` (spool on, a SQLite file in a
temp dir, or `--database URL`), one at a time and waiting for each to be stored as the page
does, and reads each thread's CPU clock (`time.pthread_getcpuclockid`) before and after. The
baseline, timed in the same run on the same database: the bare floor of one attempt, its row
inserted with one prepared `INSERT` in a `BEGIN IMMEDIATE` transaction through the same engine
(no card, no checks, no spool). Prints the median and p90 over rounds, per attempt.

    .venv/bin/python bench/bench_attempt_writer.py [--rounds 15] [--per-round 40]
    .venv/bin/python bench/bench_attempt_writer.py --profile /tmp/writer.pstats   # cProfile, CPU clock
"""

from __future__ import annotations

import argparse
import cProfile
import random
import statistics
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader import Verdict  # noqa: E402
from tutor.store import AttemptWriter, NewAttempt, ProgressStore, Spool  # noqa: E402
from tutor.store.schema import attempts  # noqa: E402

QUESTIONS = [f"q-{n:02d}" for n in range(30)]


def practice_attempts(rng: random.Random, start: datetime, count: int):
    """Attempts as a class answering Practice questions makes them: a first try, mostly wrong,
    then tries again and a solution seen; a third of the questions generated (a seed)."""
    moment = start
    made = 0
    while made < count:
        question = rng.choice(QUESTIONS)
        seed = rng.randrange(2**31) if question < "q-10" else None
        for phase in ("first", "retry", "retry", "after_reveal")[: rng.randint(1, 4)]:
            moment += timedelta(seconds=rng.uniform(1, 20))
            right = rng.random() < 0.25
            yield moment, NewAttempt(
                question, Verdict.CORRECT if right else Verdict.WRONG, score=float(right),
                answer=rng.choice(["(I + W)^T g", "1 + F'(x)", "0.5", "x^2"]), seed=seed,
                seconds=rng.uniform(3, 90), confidence=rng.choice([None, 1, 2, 3]),
                phase=phase)
            made += 1
            if made == count:
                return


def thread_cpu(thread: threading.Thread) -> float:
    return time.clock_gettime(time.pthread_getcpuclockid(thread.ident))


def floor_insert(store: ProgressStore, profile_id: int, attempt: NewAttempt, moment: datetime) -> None:
    def work(conn):
        conn.execute(attempts.insert(), {
            "profile_id": profile_id, "question_id": attempt.question_id, "seed": attempt.seed,
            "answer": attempt.answer, "verdict": attempt.verdict, "score": attempt.score,
            "hints_used": 0, "seconds": attempt.seconds, "confidence": attempt.confidence,
            "rubric_ticks": None, "rating": None, "created_at": moment, "mode": "practice",
            "phase": str(attempt.phase), "card_before": None, "client_key": None,
            "unassessed": False})

    store.write(work, lock_key=profile_id)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--per-round", type=int, default=40)
    parser.add_argument("--database", help="a database URL (default: a SQLite file in a temp dir)")
    parser.add_argument("--profile", type=Path, help="write a cProfile (CPU clock) of the writer's "
                        "two threads here instead of timing")
    args = parser.parse_args()

    rng = random.Random(27)
    with tempfile.TemporaryDirectory(prefix="bench-writer-") as tmp:
        store = ProgressStore.open(args.database or f"sqlite:///{tmp}/progress.db")
        profile_id = store.create_profile(f"bench-{time.time_ns()}").id
        profiles: list[cProfile.Profile] = []
        if args.profile:
            for loop in ("_spool_loop", "_store_loop"):  # each thread profiles itself
                original = getattr(AttemptWriter, loop)

                def profiled(self, original=original):
                    profile = cProfile.Profile(time.thread_time)
                    profiles.append(profile)
                    profile.enable()
                    original(self)
                setattr(AttemptWriter, loop, profiled)
        writer = AttemptWriter(store, spool=Spool(Path(tmp) / "spool"))
        stream = practice_attempts(rng, datetime.now(UTC) - timedelta(days=30),
                                   (args.rounds + 2) * args.per_round)

        def submit_round() -> None:
            for _ in range(args.per_round):
                moment, attempt = next(stream)
                writer.submit(profile_id, attempt, now=moment).result(timeout=30)

        submit_round()  # warm-up: statements compiled, segment made, pages cached
        if args.profile:
            for profile in profiles:
                profile.disable()
                profile.clear()
                profile.enable()
            for _ in range(args.rounds):
                submit_round()
            import pstats
            for profile in profiles:
                profile.disable()
            stats = pstats.Stats(profiles[0])
            for profile in profiles[1:]:
                stats.add(profile)
            stats.dump_stats(args.profile)
            print(f"profile of {args.rounds * args.per_round} attempts written to {args.profile}")
            return

        threads = writer._threads
        store_ms, spool_ms, floor_ms = [], [], []
        floor_moment = datetime.now(UTC)
        for _ in range(args.rounds):
            before = {name: thread_cpu(t) for name, t in threads.items()}
            submit_round()
            after = {name: thread_cpu(t) for name, t in threads.items()}
            store_ms.append((after["attempt-writer"] - before["attempt-writer"])
                            * 1000 / args.per_round)
            spool_ms.append((after["attempt-spool"] - before["attempt-spool"])
                            * 1000 / args.per_round)
            start = time.thread_time()
            for _ in range(args.per_round):
                moment, attempt = next(practice_attempts(rng, floor_moment, 1))
                floor_insert(store, profile_id, attempt, moment)
            floor_ms.append((time.thread_time() - start) * 1000 / args.per_round)
        store.close()

    def cells(values: list[float]) -> str:
        ordered = sorted(values)
        return f"{statistics.median(ordered):.3f} | {ordered[int(0.9 * (len(ordered) - 1))]:.3f}"

    print(f"{args.rounds} rounds x {args.per_round} attempts; CPU ms per attempt")
    print("| thread | median | p90 |")
    print("| --- | --- | --- |")
    print(f"| attempt writer (store thread) | {cells(store_ms)} |")
    print(f"| attempt spool (spool thread) | {cells(spool_ms)} |")
    total = [a + b for a, b in zip(store_ms, spool_ms, strict=True)]
    print(f"| writer + spool | {cells(total)} |")
    print(f"| baseline: a bare INSERT transaction | {cells(floor_ms)} |")


if __name__ == "__main__":
    main()
