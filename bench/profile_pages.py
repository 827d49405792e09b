"""Where the instructor's and the learner's data pages spend their time, without a browser: the
data functions the Class, Analytics, Dashboard and All questions pages call, run against a seeded
database under cProfile (the browser benchmark is bench/bench_pages.py).

    .venv/bin/python bench/seed_class.py sqlite:////tmp/class.db --learners 300
    .venv/bin/python bench/profile_pages.py sqlite:////tmp/class.db [--page class] [--top 25]

Prints each page's wall time (best of `--repeat`) and, for the chosen page (or all), the
cProfile listing by cumulative time.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def page_functions(store, bank, profile_id: int) -> dict:
    """What each page computes before drawing, as zero-argument calls."""
    from tutor.analytics import item_statistics
    from tutor.attempt_table import read_attempt_table
    from tutor.class_store import load_class
    from tutor.class_view import class_mastery, class_rows
    from tutor.dashboard import dashboard_data
    from tutor.sessions.question_list import question_rows, search_text
    from tutor.store import utc_now

    topic_of = {q.id: str(q.topic) for q in bank}

    def class_page():
        data = load_class(store, utc_now())
        return class_rows(data, utc_now()), class_mastery(data, topic_of)

    def questions_page():
        haystacks = {q.id: search_text(q) for q in bank}
        return question_rows(list(bank), store.list_cards(profile_id), now=utc_now(),
                             haystacks=haystacks)

    return {
        "class": class_page,
        "analytics": lambda: item_statistics(read_attempt_table(store)),
        "dashboard": lambda: dashboard_data(store, profile_id, topic_of, utc_now()),
        "questions": questions_page,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("--page", default=None)
    parser.add_argument("--profile", type=int, default=1, help="the learner of Dashboard and All questions")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args(argv)

    import quizbank
    from tutor.store import ProgressStore

    bank = quizbank.BankCache(quizbank.configured_folders().all).current().bank
    store = ProgressStore.open(args.url)
    functions = page_functions(store, bank, args.profile)
    for name, call in functions.items():
        if args.page not in (None, name):
            continue
        times = []
        for _ in range(args.repeat):
            begin = time.perf_counter()
            call()
            times.append(time.perf_counter() - begin)
        print(f"{name:<10} best {min(times) * 1000:8.1f} ms  (of {args.repeat})")
        profiler = cProfile.Profile()
        profiler.runcall(call)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(args.top)
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
