"""The UI string loader (tutor/i18n.py): the first load and one `t()` call, this tree against an
earlier revision's loader, measured in the same run.

    .venv/bin/python bench/bench_strings.py [--runs 15] [--calls 20000] [--against main]

The baseline is `tutor/i18n.py` with its `tutor/locales` as they were at `--against` (default
`main`), unpacked with `git archive` into a temporary folder; without that revision (a bare
checkout), this tree's loader with every strings file in one directory, the cost of the second. Each run starts a fresh interpreter
per loader, the two taking turns: "first load" is importing the loader and reading every
namespace in both languages (ours also adds `app_pages/strings`, as importing the pages does);
"t()" is one call, averaged over `--calls` calls that cycle through every key without fields.

Goal (issue 26, strings next to the pages): the loader at least as fast as before, so the
medians' ratio about 1 or below (the machine is shared: read the figures with the load average
printed beside them).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

RUN = """
import json, sys, time
from pathlib import Path
start = time.perf_counter()
sys.path.insert(0, {code_root!r})
from tutor import i18n
if {page_strings!r}:
    i18n.add_strings(Path({page_strings!r}))
keys = []
for lang in i18n.LANGUAGES:
    for ns in i18n.namespaces():
        keys += [(k, lang) for k, text in i18n.catalog(lang, ns).items() if not i18n.placeholders(text)]
loaded = time.perf_counter() - start
calls, t = {calls}, i18n.t
plan = (keys * (calls // len(keys) + 1))[:calls]
start = time.perf_counter()
for key, lang in plan:
    t(key, lang)
per_call = (time.perf_counter() - start) / calls
print(json.dumps({{"first_load_ms": loaded * 1e3, "t_us": per_call * 1e6, "keys": len(keys)}}))
"""


def baseline_tree(revision: str, into: Path) -> str:
    """Unpack the baseline loader into `into`; its name."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision, "tutor/__init__.py",
                              "tutor/i18n.py", "tutor/locales"], capture_output=True)
    if archive.returncode == 0:
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(into, filter="data")
        return f"{revision} (baseline)"
    (into / "tutor").mkdir(parents=True)
    for name in ("__init__.py", "i18n.py"):
        shutil.copy(ROOT / "tutor" / name, into / "tutor" / name)
    for strings in (ROOT / "tutor" / "locales", ROOT / "app_pages" / "strings"):
        for path in strings.glob("*/*.json"):
            target = into / "tutor" / "locales" / path.parent.name / path.name
            target.parent.mkdir(parents=True, exist_ok=True)
            merged = json.loads(target.read_text(encoding="utf-8")) if target.exists() else {}
            target.write_text(json.dumps(_merge(merged, json.loads(path.read_text("utf-8")))),
                              encoding="utf-8")
    return "one directory (baseline)"


def _merge(into: dict, more: dict) -> dict:
    for key, value in more.items():
        into[key] = _merge(into.get(key, {}), value) if isinstance(value, dict) else value
    return into


def one_run(code_root: Path, page_strings: Path | None, calls: int) -> dict:
    program = RUN.format(code_root=str(code_root), calls=calls,
                         page_strings=str(page_strings) if page_strings else "")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          check=True, cwd=tempfile.gettempdir(), env={**os.environ, "PYTHONPATH": ""})
    return json.loads(done.stdout)


def row(name: str, values: list[float], unit: str) -> str:
    ordered = sorted(values)
    tail = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return f"| {name} | {statistics.median(values):.3f} {unit} | {tail:.3f} {unit} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--against", default="main")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        baseline = baseline_tree(args.against, Path(tmp))
        loaders = {baseline: (Path(tmp), None), "this tree": (ROOT, ROOT / "app_pages" / "strings")}
        results: dict[str, list[dict]] = {name: [] for name in loaders}
        load_before = Path("/proc/loadavg").read_text().split()[:3]
        for _ in range(args.runs):
            for name, (code_root, page_strings) in loaders.items():
                results[name].append(one_run(code_root, page_strings, args.calls))
        load_after = Path("/proc/loadavg").read_text().split()[:3]
    print(f"{args.runs} runs, {args.calls} t() calls each; load average before "
          f"{' '.join(load_before)}, after {' '.join(load_after)}")
    print("| loader | median | p90 |\n| --- | --- | --- |")
    for name, runs in results.items():
        print(row(f"{name}: first load ({runs[0]['keys']} keys)",
                  [r["first_load_ms"] for r in runs], "ms"))
        print(row(f"{name}: one t()", [r["t_us"] for r in runs], "µs"))
    ours, theirs = results["this tree"], results[baseline]
    for field, label in (("first_load_ms", "first load"), ("t_us", "t()")):
        ratio = (statistics.median(r[field] for r in ours)
                 / statistics.median(r[field] for r in theirs))
        print(f"{label}: this tree / baseline = {ratio:.2f} (goal: about 1 or below)")


if __name__ == "__main__":
    main()
