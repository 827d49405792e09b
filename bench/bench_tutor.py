"""Progress store: time to record an attempt and to build the review queue, for a profile that
already has 10,000 attempts (1,000 questions, 60 days of history), on a SQLite file in a temp dir.

Ours: `ProgressStore.record_attempt` (WAL, synchronous=NORMAL, pooled connection, BEGIN IMMEDIATE,
attempt + FSRS card update in one transaction) and `ProgressStore.review_queue` (SQL on the
(profile_id, due) index, only due cards read). Baselines, timed in the same run on a copy of the
same data: the same write with the obvious setup (rollback journal, synchronous=FULL, a new
connection per write), and the queue built by loading every card into Python and sorting.

    .venv/bin/python bench/bench_tutor.py [--attempts 10000] [--records 500] [--queries 200]

Goals (issue 6): record <= 5 ms, review queue <= 100 ms (median).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fsrs import Rating  # noqa: E402
from sqlalchemy import and_, create_engine, event, select, update  # noqa: E402
from sqlalchemy.pool import NullPool  # noqa: E402

from grader import Verdict  # noqa: E402
from tutor.rating import rate  # noqa: E402
from tutor.review import new_card, order_queue, schedule  # noqa: E402
from tutor.store import NewAttempt, ProgressStore  # noqa: E402
from tutor.store.progress import card_from_row, card_values  # noqa: E402
from tutor.store.schema import attempts, cards  # noqa: E402
from tutor.transfer import FORMAT, FORMAT_VERSION, import_json  # noqa: E402

START = datetime(2026, 1, 1, 8, 0, tzinfo=UTC)
VERDICTS = ([Verdict.CORRECT] * 6 + [Verdict.PARTIAL, Verdict.WRONG, Verdict.WRONG,
                                     Verdict.UNREADABLE])  # old rows: unreadable


def history_document(n_attempts: int, n_questions: int, rng: random.Random) -> tuple[str, datetime]:
    """A JSON export with `n_attempts` attempts over 60 days, its cards replayed through FSRS."""
    moments = sorted(START + timedelta(seconds=rng.uniform(0, 60 * 86400)) for _ in range(n_attempts))
    state: dict[str, object] = {}
    rows = []
    for moment in moments:
        qid = f"q-{rng.randrange(n_questions):04d}"
        verdict = rng.choice(VERDICTS)
        attempt = NewAttempt(qid, verdict, score=float(verdict == "correct"),
                             confidence=rng.choice([1, 2, 3]), seconds=rng.uniform(5, 200))
        rating = rate(attempt.outcome())
        if rating is not None:
            card = state.get(qid) or new_card(qid, moment)
            state[qid] = schedule(card, rating, moment, confidence=attempt.confidence)
        rows.append({
            "question_id": qid, "seed": None, "answer": "(I + W)^T g", "verdict": verdict,
            "score": attempt.score, "hints_used": 0, "seconds": attempt.seconds,
            "confidence": attempt.confidence, "rubric_ticks": [],
            "rating": None if rating is None else int(rating), "mode": "practice",
            "created_at": moment.isoformat(),
        })
    card_rows = []
    for qid, card in sorted(state.items()):
        values = card_values(card)
        for key in ("due", "last_review"):
            values[key] = values[key].isoformat() if values[key] else None
        card_rows.append({"question_id": qid, **values})
    document = {
        "format": FORMAT, "format_version": FORMAT_VERSION, "exported_at": moments[-1].isoformat(),
        "profile": {"name": "bench", "created_at": START.isoformat()}, "settings": {},
        "attempts": rows, "cards": card_rows,
    }
    return json.dumps(document), moments[-1]


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def timed(action, count: int) -> list[float]:
    out = []
    for i in range(count):
        begin = time.perf_counter()
        action(i)
        out.append((time.perf_counter() - begin) * 1000)
    return out


def baseline_engine(path: Path):
    """One new connection per write, rollback journal, full sync: the obvious setup."""
    engine = create_engine(f"sqlite:///{path}", poolclass=NullPool)

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection, _record):
        dbapi_connection.isolation_level = None
        dbapi_connection.execute("PRAGMA journal_mode = DELETE")
        dbapi_connection.execute("PRAGMA synchronous = FULL")
        dbapi_connection.execute("PRAGMA busy_timeout = 5000")

    @event.listens_for(engine, "begin")
    def _begin(connection):
        connection.exec_driver_sql("BEGIN")

    return engine


def baseline_record(engine, profile_id: int, attempt: NewAttempt, now: datetime) -> None:
    rating = rate(attempt.outcome())
    with engine.begin() as conn:
        conn.execute(attempts.insert().values(
            profile_id=profile_id, question_id=attempt.question_id, seed=None, answer=attempt.answer,
            verdict=attempt.verdict, score=attempt.score, hints_used=0, seconds=attempt.seconds,
            confidence=attempt.confidence, rubric_ticks=None,
            rating=None if rating is None else int(rating), mode="practice", created_at=now,
        ))
        if rating is None:
            return
        where = and_(cards.c.profile_id == profile_id, cards.c.question_id == attempt.question_id)
        row = conn.execute(select(cards).where(where)).first()
        card = card_from_row(row) if row else new_card(attempt.question_id, now)
        moved = card_values(schedule(card, Rating(rating), now, confidence=attempt.confidence))
        if row:
            conn.execute(update(cards).where(where).values(**moved))
        else:
            conn.execute(cards.insert().values(profile_id=profile_id, question_id=attempt.question_id, **moved))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=10_000)
    parser.add_argument("--questions", type=int, default=1_000)
    parser.add_argument("--records", type=int, default=500)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(6)

    with tempfile.TemporaryDirectory() as tmp:
        ours_path, base_path = Path(tmp) / "ours.db", Path(tmp) / "baseline.db"
        document, last = history_document(args.attempts, args.questions, rng)
        store = ProgressStore.open(f"sqlite:///{ours_path}")
        begin = time.perf_counter()
        profile_id = import_json(store, document).profile_id
        load_s = time.perf_counter() - begin
        store.close()
        shutil.copy(ours_path, base_path)
        store = ProgressStore.open(f"sqlite:///{ours_path}")
        base = baseline_engine(base_path)

        plan = [
            NewAttempt(f"q-{rng.randrange(args.questions):04d}", rng.choice(VERDICTS[:-1]),
                       score=1.0, answer="(I + W)^T g", confidence=rng.choice([1, 2, 3]),
                       seconds=rng.uniform(5, 200))
            for _ in range(args.records)
        ]
        when = [last + timedelta(minutes=i + 1) for i in range(args.records)]
        ours_record = timed(lambda i: store.record_attempt(profile_id, plan[i], now=when[i]), args.records)
        base_record = timed(lambda i: baseline_record(base, profile_id, plan[i], when[i]), args.records)
        assert store.count_attempts(profile_id) == args.attempts + args.records

        now = last + timedelta(days=1)
        due = store.review_queue(profile_id, now)
        assert due == order_queue(store.list_cards(profile_id), now)
        ours_queue = timed(lambda _i: store.review_queue(profile_id, now), args.queries)
        base_queue = timed(lambda _i: order_queue(store.list_cards(profile_id), now), args.queries)
        n_cards = len(store.list_cards(profile_id))
        store.close()
        base.dispose()

    print(f"profile: {args.attempts:,} attempts over {args.questions:,} questions "
          f"({n_cards} cards, {len(due)} due); bulk import of the history took {load_s:.2f} s")
    header = (f"{'operation':<34}{'n':>5}{'median ms':>11}{'p95 ms':>9}{'p99 ms':>9}"
              f"{'goal ms':>9}{'ratio':>8}  ok")
    print(header)
    print("-" * len(header))
    rows = [
        ("record attempt (ours: WAL, pool)", ours_record, base_record, 5.0),
        ("  baseline: new conn, DELETE/FULL", base_record, None, None),
        ("review queue (ours: SQL + index)", ours_queue, base_queue, 100.0),
        ("  baseline: load all cards, sort", base_queue, None, None),
    ]
    for name, samples, baseline, goal in rows:
        median = statistics.median(samples)
        ratio = f"{statistics.median(baseline) / median:.1f}x" if baseline else ""
        ok = ("yes" if median <= goal else "NO") if goal else ""
        print(f"{name:<34}{len(samples):>5}{median:>11.2f}{percentile(samples, 0.95):>9.2f}"
              f"{percentile(samples, 0.99):>9.2f}{(f'{goal:.0f}' if goal else ''):>9}{ratio:>8}  {ok}")
    print("ratio = baseline median / our median (higher is better for us)")


if __name__ == "__main__":
    main()
