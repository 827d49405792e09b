"""Item analytics for a class: read every learner's attempts from the store and compute the
per-question table of the Analytics page, for 1,000 simulated learners x 200 questions (SQLite
file in a temp dir; learners answer ~60 % of the questions, some twice: ~150,000 attempts).

Ours: `tutor.attempt_table.read_attempt_table` (one SELECT of six columns, straight into numpy
arrays) + `tutor.analytics.item_statistics` (vectorised: one sort, bincounts). Baseline, timed in
the same run on the same file: the obvious pandas version, `pd.read_sql` of the attempts table and
a `groupby(...).apply` per question computing the same statistics (same numbers, checked).

Also timed: grouping one formula question's wrong answers by the grader's equivalence
(`tutor.answer_classes`), which the page does for one question at a time, when it is opened.

    .venv/bin/python bench/bench_analytics.py [--learners 1000] [--questions 200] [--runs 7]

Goal (issue 13): the page's table for 1,000 learners x 200 questions in <= 1 s (median).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from seed_class import seed_class, synthetic_questions  # noqa: E402
from sqlalchemy import select  # noqa: E402

from tutor.analytics import MIN_LEARNERS, item_statistics  # noqa: E402
from tutor.attempt_table import read_answers, read_attempt_table  # noqa: E402
from tutor.store import ProgressStore  # noqa: E402
from tutor.store.schema import attempts  # noqa: E402


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ours(store) -> pd.DataFrame:
    return item_statistics(read_attempt_table(store))


def baseline(store) -> pd.DataFrame:
    """Read the table with pandas and compute each question's statistics in a groupby-apply."""
    frame = store.read(lambda conn: pd.read_sql(select(attempts).order_by(attempts.c.id), conn))
    graded = frame[frame.verdict != "unreadable"]  # grader.Verdict.UNREADABLE: not graded
    first = graded.drop_duplicates(["profile_id", "question_id"]).copy()
    first["x"] = (first.verdict == "correct").astype(float)
    per_learner = first.groupby("profile_id")["x"].agg(["sum", "count"])
    first = first.join(per_learner, on="profile_id")

    def one(group: pd.DataFrame) -> pd.Series:
        others = group[group["count"] > 1]
        rest = (others["sum"] - others["x"]) / (others["count"] - 1)
        r = others["x"].corr(rest) if len(others) >= MIN_LEARNERS else np.nan
        return pd.Series({"learners": len(group), "first_try_correct": group["x"].mean(),
                          "discrimination": r, "median_seconds": group["seconds"].median()})

    return first.groupby("question_id").apply(one, include_groups=False)


def timed(action, runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        begin = time.perf_counter()
        action()
        samples.append(time.perf_counter() - begin)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=1000)
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        store = ProgressStore.open(f"sqlite:///{Path(tmp) / 'class.db'}")
        questions = synthetic_questions(args.questions, random.Random(3))
        begin = time.perf_counter()
        # First visits only (no review sessions), as the figures in the README were measured.
        written = seed_class(store, questions, learners=args.learners, seed=3, reviews=False)
        seed_s = time.perf_counter() - begin

        table = ours(store).set_index("question")
        slow = baseline(store)
        for column in ("learners", "first_try_correct", "discrimination", "median_seconds"):
            assert np.allclose(table[column].to_numpy(float), slow[column].to_numpy(float),
                               equal_nan=True), column

        ours_s = timed(lambda: ours(store), args.runs)
        read_s = timed(lambda: read_attempt_table(store), args.runs)
        base_s = timed(lambda: baseline(store), max(3, args.runs // 2))

        from quizbank import parse_bank
        from quizbank.equivalence import same_answer
        from tutor.answer_classes import group_wrong_answers

        question = parse_bank({"questions": [{
            "id": "q-0000", "type": "expression", "topic": "jacobian", "difficulty": "medium",
            "source": {"text": "gradient-propagation", "section": "3.2"},
            "prompt": {"en": "."}, "solution": {"en": "."}, "answer": "(I + W)^T g",
            "matrices": ["W", "g"]}]}).questions["q-0000"]
        answers = read_answers(store, "q-0000")
        classes_s = timed(lambda: group_wrong_answers(
            answers, lambda a, b: same_answer(question, a, b)), 3)
        n_classes = len(group_wrong_answers(answers, lambda a, b: same_answer(question, a, b))
                        .classes)
        store.close()

    print(f"class: {args.learners:,} learners x {args.questions} questions, {written:,} attempts "
          f"(seeded in {seed_s:.1f} s); {len(table)} questions in the table, "
          f"{int((table['flags'].map(len) > 0).sum())} flagged")
    header = (f"{'operation':<44}{'n':>4}{'median s':>10}{'p95 s':>8}{'max s':>8}{'goal s':>8}"
              f"{'ratio':>8}  ok")
    print(header)
    print("-" * len(header))
    rows = [
        ("page table (ours: read + item_statistics)", ours_s, base_s, 1.0),
        ("  of which the read (read_attempt_table)", read_s, None, None),
        ("  baseline: pd.read_sql + groupby-apply", base_s, None, None),
        (f"answer classes: {len(answers)} answers -> {n_classes}",
         classes_s, None, None),
    ]
    for name, samples, base, goal in rows:
        median = statistics.median(samples)
        ratio = f"{statistics.median(base) / median:.1f}x" if base else ""
        ok = ("yes" if median <= goal else "NO") if goal else ""
        print(f"{name:<44}{len(samples):>4}{median:>10.3f}{percentile(samples, 0.95):>8.3f}"
              f"{max(samples):>8.3f}{(f'{goal:.0f}' if goal else ''):>8}{ratio:>8}  {ok}")
    print("ratio = baseline median / our median (higher is better for us); both give the same "
          "numbers (checked)")


if __name__ == "__main__":
    main()
