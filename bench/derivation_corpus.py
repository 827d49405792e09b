"""Run the independent derivation corpus through the grader and report agreement per class.

The corpus (bench/corpus/derivations/*.yaml, written by someone who has not read the grader)
lists derivations, each right and with one line broken, with the expected status of every line
recorded before the checker ran (format: the `sums` brief, docs/contracts.md "The independent
derivation corpus"). For each class this prints the number of derivations, the share whose every
line (right and broken variant alike) has the expected status, and the number of broken lines
the grader verified, which must be 0. A broken line is found by matching lines, not positions:
a line of the broken variant (as the grader splits it) that the right variant does not have,
and that its expected statuses do not mark `verified` where the two line counts agree; so a
split that makes one line more or fewer than the author counted cannot shift a status onto the
wrong line and be counted (or hidden) as a broken line verified.

Run: .venv/bin/python bench/derivation_corpus.py [folder or file ...] [--details]
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import grader  # noqa: E402 - needs the path above

CORPUS = ROOT / "bench" / "corpus" / "derivations"
CLASSES = ("sums_products", "indexed_layers", "leibniz", "pasted_block")
DECLARED = ("symbols", "integers", "functions", "matrices", "families", "positive",
            "nonnegative", "relations",
            "vectors")  # part 2 (issue 25): the vectors engineer's key


@dataclass
class Outcome:
    """One variant of one entry: expected and actual statuses."""

    entry: str
    variant: str
    expected: list[str]
    actual: list[str]
    feedback: str = ""

    @property
    def agrees(self) -> bool:
        return self.expected == self.actual

    broken_lines: tuple[int, ...] = ()  # 0-based lines (as split) the right variant lacks

    @property
    def broken_verified(self) -> int:
        aligned = len(self.expected) == len(self.actual)
        return sum(1 for k in self.broken_lines if k < len(self.actual)
                   and self.actual[k] == "verified"
                   and not (aligned and self.expected[k] == "verified"))


@dataclass
class ClassReport:
    derivations: int = 0
    agreeing: int = 0
    broken_verified: int = 0
    failures: list[Outcome] = field(default_factory=list)


def load_entries(paths: list[Path]) -> list[dict]:
    """Every entry of the YAML files (safe_load: the corpus is data, never code)."""
    entries = []
    for path in paths:
        files = sorted(path.glob("*.yaml")) if path.is_dir() else [path]
        for file in files:
            data = yaml.safe_load(file.read_text(encoding="utf-8")) or []
            if not isinstance(data, list):
                raise ValueError(f"{file}: a corpus file is a list of entries")
            entries.extend(data)
    return entries


def request_for(entry: dict, variant: dict) -> dict:
    declared = entry.get("declare") or {}
    request = {"kind": "derivation", "lang": "en",
               **{name: list(declared.get(name) or []) for name in DECLARED}}
    if entry.get("start"):
        request["start"] = entry["start"]
    if "block" in variant:
        request["answer"] = str(variant["block"])  # one pasted block, split by the grader
    else:  # the lines as typed into the Derivation checker, which reads them as one block
        request["answer"] = "\n".join(str(line) for line in variant.get("lines") or [])
    return request


def checked_lines(entry: dict, variant: dict) -> list[str]:
    """The lines the grader checks for a variant (its split of the one-text answer)."""
    request = request_for(entry, variant)
    declared = {name: request[name] for name in DECLARED}
    return [p.text for p in grader.split_derivation(request["answer"], **declared)
            if not p.remark]


def run_variant(entry: dict, name: str) -> Outcome:
    variant = entry[name]
    result = grader.check(request_for(entry, variant))
    actual = [step.status.value for step in result.steps]
    if result.error and not actual:
        actual = ["error"]
    broken: tuple[int, ...] = ()
    if name == "broken" and "right" in entry:
        right = set(checked_lines(entry, entry["right"]))
        broken = tuple(k for k, line in enumerate(checked_lines(entry, variant))
                       if line not in right)
    return Outcome(entry.get("id", "?"), name, list(variant.get("expected") or []), actual,
                   result.feedback or "", broken)


def run(entries: list[dict]) -> dict[str, ClassReport]:
    reports: dict[str, ClassReport] = {}
    for entry in entries:
        report = reports.setdefault(str(entry.get("class", "?")), ClassReport())
        outcomes = [run_variant(entry, name) for name in ("right", "broken") if name in entry]
        report.derivations += 1
        report.agreeing += all(o.agrees for o in outcomes)
        report.broken_verified += sum(o.broken_verified for o in outcomes)
        report.failures.extend(o for o in outcomes if not o.agrees)
    return reports


def table(reports: dict[str, ClassReport]) -> str:
    lines = ["| class | derivations | every line as expected | share | broken lines verified |",
             "| --- | ---: | ---: | ---: | ---: |"]
    total = ClassReport()
    for name in sorted(reports, key=lambda c: (c not in CLASSES, CLASSES.index(c)
                                               if c in CLASSES else 0, c)):
        r = reports[name]
        total.derivations += r.derivations
        total.agreeing += r.agreeing
        total.broken_verified += r.broken_verified
        lines.append(_row(name, r))
    lines.append(_row("**all**", total))
    return "\n".join(lines)


def _row(name: str, r: ClassReport) -> str:
    share = 100.0 * r.agreeing / r.derivations if r.derivations else 0.0
    return f"| {name} | {r.derivations} | {r.agreeing} | {share:.1f} % | {r.broken_verified} |"


def main(argv: list[str]) -> int:
    details = "--details" in argv
    paths = [Path(a) for a in argv if not a.startswith("--")] or [CORPUS]
    if not any(p.exists() for p in paths):
        print(f"no corpus at {', '.join(map(str, paths))}")
        return 1
    reports = run(load_entries([p for p in paths if p.exists()]))
    print(table(reports))
    if details:
        for name, report in reports.items():
            for o in report.failures:
                print(f"- {name} {o.entry} ({o.variant}): expected {o.expected}, "
                      f"got {o.actual}: {o.feedback[:160]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
