"""Load and validate a generated bank of 1,000 questions; compare with the obvious baseline.

Ours: `quizbank.load_bank(folder)` (strict reader refusing tags/anchors, per-question validation,
duplicate/reference checks, lines mapped only when there are errors). Baselines, timed in the same
run on the same files: `yaml.safe_load` + `TypeAdapter(BankFile).validate_python`, with libyaml's
C loader and with PyYAML's default pure-Python loader. Goal: <= 0.5 s for 1,000 questions.

Run: .venv/bin/python bench/bench_bank.py [--runs N]
"""

import argparse
import copy
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml
from pydantic import TypeAdapter

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from quizbank import BankError, load_bank  # noqa: E402
from quizbank.question_types import BankFile  # noqa: E402

FIXTURE = ROOT / "tests" / "quizbank" / "fixtures" / "valid" / "all_types.yaml"
N_QUESTIONS, N_FILES, GOAL_S = 1000, 10, 0.5


def seed_questions() -> list[dict]:
    """Every type from the fixture, plus the shipped bank's real (longer) questions if valid."""
    seeds = yaml.safe_load(FIXTURE.read_text(encoding="utf-8"))["questions"]
    try:
        shipped = load_bank()
        seeds += [q.model_dump(mode="json", exclude_none=True) for q in shipped]
    except BankError:
        print("(shipped bank invalid; generating from the fixture alone)")
    return seeds


def generate_bank(folder: Path, broken: int = 0) -> None:
    seeds = seed_questions()
    questions = []
    for n in range(N_QUESTIONS):
        q = copy.deepcopy(seeds[n % len(seeds)])
        q["id"] = f"b{n}-{q['id']}"
        if q["type"] == "interview":  # point follow-ups at the clone made just before it
            q["followups"] = [questions[-1]["id"]] if questions else []
        questions.append(q)
    for n in range(broken):  # spread some errors: the error path maps lines
        questions[n * (N_QUESTIONS // broken)]["difficulty"] = "extreme"
    per_file = N_QUESTIONS // N_FILES
    for f in range(N_FILES):
        chunk = questions[f * per_file : (f + 1) * per_file]
        text = yaml.safe_dump({"questions": chunk}, allow_unicode=True, sort_keys=False)
        (folder / f"part_{f:02d}.yaml").write_text(text, encoding="utf-8")


BANK_FILE = TypeAdapter(BankFile)


def baseline(folder: Path, loader) -> int:
    count = 0
    for path in sorted(folder.glob("*.yaml")):
        data = loader(path.read_text(encoding="utf-8")).get_single_data()
        count += len(BANK_FILE.validate_python(data).questions)
    return count


def ours(folder: Path) -> int:
    return len(load_bank(folder))


def ours_with_errors(folder: Path) -> int:
    try:
        load_bank(folder)
    except BankError as error:
        return len(error.problems)
    raise AssertionError("the broken bank loaded")


def timings(fn, folder: Path, runs: int) -> tuple[list[float], list[float]]:
    """(wall seconds, CPU seconds) per run. CPU time shows the cost when other work shares the
    machine's two cores; wall time is what a user waits."""
    fn(folder)  # warm-up: imports, compute.list_templates(), pydantic schema build
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn(folder)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return wall, cpu


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as tmp:
        good, bad = Path(tmp, "good"), Path(tmp, "bad")
        good.mkdir()
        bad.mkdir()
        generate_bank(good)
        generate_bank(bad, broken=10)
        size = sum(p.stat().st_size for p in good.glob("*.yaml"))
        assert ours(good) == N_QUESTIONS == baseline(good, yaml.CSafeLoader)
        rows = [
            ("ours: load_bank (strict, checks)", timings(ours, good, runs)),
            ("ours: same bank, 10 broken questions", timings(ours_with_errors, bad, runs)),
            (
                "baseline: C safe_load + validate",
                timings(lambda f: baseline(f, yaml.CSafeLoader), good, runs),
            ),
            (
                "baseline: safe_load + validate",
                timings(lambda f: baseline(f, yaml.SafeLoader), good, 3),
            ),
        ]
    reference = statistics.median(rows[2][1][0])
    print(f"{N_QUESTIONS} questions in {N_FILES} files ({size / 1024:.0f} KiB), {runs} runs")
    print(f"{'what':<40} {'median s':>9} {'p95 s':>8} {'cpu med s':>10} {'x C baseline':>13}")
    for name, (wall, cpu) in rows:
        median = statistics.median(wall)
        print(
            f"{name:<40} {median:>9.3f} {p95(wall):>8.3f} {statistics.median(cpu):>10.3f}"
            f" {median / reference:>13.2f}"
        )
    ours_wall, ours_cpu = (statistics.median(v) for v in rows[0][1])
    verdict = "met" if ours_wall <= GOAL_S else "MISSED"
    print(
        f"goal <= {GOAL_S} s for {N_QUESTIONS} questions: {verdict} "
        f"({ours_wall:.3f} s median wall, {ours_cpu:.3f} s CPU)"
    )


if __name__ == "__main__":
    main()
