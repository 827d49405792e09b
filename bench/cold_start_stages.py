"""Where a cold start's time goes: a timeline of one server start -> first page, by stage.

Starts the app the way `bench_app_cold_start.py` does, but inside a wrapper that records, with
wall-clock timestamps relative to the spawn, and the thread that did it:
- the import of each watched module (its first import only: start, end, which thread);
- each script run of the first session (start, end);
- the stages inside a run and after it: `load_and_freeze`, the bank load, the progress
  store's first open, the compute worker's start;
- the health check answering and the first page rendered in headless Chromium.

    .venv/bin/python bench/cold_start_stages.py [--runs 3] [--page practice] [--all-imports]

Prints one timeline per run (stages sorted by start; nested imports indented by the thread that
ran them) and the median of each stage's start, end and duration over the runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Top-level modules whose first import is a stage of its own (their sub-modules are not listed).
WATCHED_TOP = {
    "streamlit", "numpy", "pandas", "altair", "sympy", "sqlalchemy", "pydantic", "yaml",
    "ruamel", "fsrs", "quizbank", "grader", "tutor", "compute", "mpmath", "pyarrow", "torch",
    "app_pages", "server_tuning", "streamlit_app",
}
# Sub-modules whose first import is a stage of its own too.
WATCHED_MODULES = {"streamlit.emojis", "grader.api"}
# Functions wrapped once their module is loaded: (module, attribute path, stage name).
SPANS = (
    ("server_tuning.warm_up", "start_worker_load_and_freeze", "load_and_freeze (background)"),
    ("compute.worker", "route", "compute.worker.route"),
    ("compute.worker", "ComputeWorker.start", "compute worker start"),
    ("quizbank.live", "BankCache.current", "bank: BankCache.current"),
    ("tutor.store.database", "Database.open", "progress store: open"),
    ("app_pages.widgets.progress", "profile_picker", "sidebar profile_picker"),
    ("app_pages.widgets.question_view", "question_view", "question_view"),
    ("server_tuning.first_page", "first_page_work", "first page preloaded (background)"),
)


# ---------------------------------------------------------------- inside the server process

def _serve(events_path: Path, argv: list[str], all_imports: bool) -> None:
    """Install the recorders, then serve the app in this process as `make run` does
    (`server_tuning`, `argv` being its options)."""
    import importlib.abc
    import importlib.machinery

    out = open(events_path, "a", buffering=1)  # noqa: SIM115 - lives as long as the process
    lock = threading.Lock()

    def emit(kind: str, name: str, start: float, end: float) -> None:
        with lock:
            out.write(json.dumps({"kind": kind, "name": name, "start": start, "end": end,
                                  "thread": threading.current_thread().name}) + "\n")

    wrapped_modules = {module for module, _, _ in SPANS}

    def wrap_spans(module) -> None:
        for module_name, path, stage in SPANS:
            if module_name != module.__name__:
                continue
            owner = module
            *parents, attr = path.split(".")
            for part in parents:
                owner = getattr(owner, part)
            original = owner.__dict__[attr] if isinstance(owner, type) else getattr(owner, attr)
            kind = type(original)
            function = original.__func__ if isinstance(original, (classmethod, staticmethod)) else original

            def timed(*args, _f=function, _stage=stage, **kwargs):
                start = time.time()
                try:
                    return _f(*args, **kwargs)
                finally:
                    emit("span", _stage, start, time.time())

            setattr(owner, attr, kind(timed) if kind in (classmethod, staticmethod) else timed)

    class Timing(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path=None, target=None):
            top = fullname.partition(".")[0]
            watched = (all_imports or fullname == top and top in WATCHED_TOP or top == "app_pages"
                       or fullname in WATCHED_MODULES)
            if not (watched or fullname in wrapped_modules):
                return None
            spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
            if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
                return spec
            loader = spec.loader
            original = loader.exec_module

            def exec_module(module, _orig=original, _watched=watched):
                start = time.time()
                _orig(module)
                if _watched:
                    emit("import", fullname, start, time.time())
                if fullname in wrapped_modules:
                    wrap_spans(module)

            loader.exec_module = exec_module
            return spec

    sys.meta_path.insert(0, Timing())
    started = time.time()
    from streamlit.runtime.scriptrunner import script_runner

    emit("import", "streamlit (server code)", started, time.time())
    original_run = script_runner.ScriptRunner._run_script

    def run_script(self, rerun_data):
        start = time.time()
        try:
            return original_run(self, rerun_data)
        finally:
            emit("run", "script run", start, time.time())

    script_runner.ScriptRunner._run_script = run_script
    sys.path.insert(0, str(ROOT))  # this checkout's app, as `python -m` from it would
    from server_tuning import __main__ as server

    server.main(argv)


# ---------------------------------------------------------------- the driver

def _harness():
    spec = importlib.util.spec_from_file_location("e2e_server", ROOT / "tests" / "e2e" / "server.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def one_start(harness, browser, workdir: Path, page_path: str, all_imports: bool) -> list[dict]:
    """Spawn the wrapped server, open the page, return the events relative to the spawn."""
    import subprocess

    events_path = workdir / "events.jsonl"
    events_path.unlink(missing_ok=True)
    port = harness.free_port()
    command = [
        sys.executable, str(Path(__file__).resolve()), "--serve", str(events_path),
        *(["--all-imports"] if all_imports else []), "--",
        "--server.port", str(port), "--server.address", "127.0.0.1", *harness.SERVER_OPTIONS,
    ]
    env = {**os.environ, "TUTOR_DATABASE_URL": f"sqlite:///{workdir / 'tutor.db'}"}
    log = open(workdir / "server.log", "w")  # noqa: SIM115
    spawned = time.time()
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                               start_new_session=True)
    server = harness.Server(process, f"http://127.0.0.1:{port}", workdir / "server.log")
    extra = []
    try:
        harness.wait_ready(server, poll=0.01)
        extra.append({"kind": "mark", "name": "health check answers", "start": time.time()})
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        first = harness.first_page_clock(page, f"{server.url}/{page_path}")
        extra.append({"kind": "mark", "name": "websocket open", "start": first.connected})
        extra.append({"kind": "mark", "name": "FIRST PAGE drawn (heading, script idle)", "start": first.drawn})
        extra.append({"kind": "mark", "name": "first page settled (last change)", "start": first.settled})
        time.sleep(3)  # let the background start-up finish, so its end is on the timeline
        context.close()
    finally:
        harness.stop_server(server)
    events = [json.loads(line) for line in events_path.read_text().splitlines()] + extra
    for event in events:
        event["start"] -= spawned
        event["end"] = event.get("end", event["start"] + spawned) - spawned
    return sorted(events, key=lambda e: e["start"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--page", default="")
    parser.add_argument("--all-imports", action="store_true", help="every module, not only the top-level ones")
    parser.add_argument("--serve", type=Path, help=argparse.SUPPRESS)
    args, rest = parser.parse_known_args(argv)
    if args.serve:
        _serve(args.serve, [a for a in rest if a != "--"], args.all_imports)
        return 0

    from playwright.sync_api import sync_playwright

    harness = _harness()
    runs: list[list[dict]] = []
    with tempfile.TemporaryDirectory(prefix="bench-stages-") as tmp, sync_playwright() as pw:
        browser = harness.launch_chromium(pw)
        one_start(harness, browser, Path(tmp), args.page, args.all_imports)  # file cache warm-up
        for _ in range(args.runs):
            runs.append(one_start(harness, browser, Path(tmp), args.page, args.all_imports))
        browser.close()

    for number, events in enumerate(runs, 1):
        print(f"\nrun {number}: seconds since the server process was spawned")
        print(f"{'start':>6} {'end':>6} {'took':>6}  {'thread':<22} stage")
        for e in events:
            took = e["end"] - e["start"]
            if e["kind"] == "import" and took < 0.02 and not args.all_imports:
                continue
            print(f"{e['start']:6.2f} {e['end']:6.2f} {took:6.2f}  {e.get('thread', ''):<22.22} "
                  f"{e['kind']}: {e['name']}")

    print(f"\nmedian over {len(runs)} runs (first occurrence of each stage)")
    print(f"{'start':>6} {'end':>6} {'took':>6}  stage")
    firsts: dict[str, list[dict]] = {}
    for events in runs:
        seen = set()
        for e in events:
            key = f"{e['kind']}: {e['name']}"
            if key not in seen:
                seen.add(key)
                firsts.setdefault(key, []).append(e)
    rows = []
    for key, occurrences in firsts.items():
        start = statistics.median(e["start"] for e in occurrences)
        end = statistics.median(e["end"] for e in occurrences)
        took = statistics.median(e["end"] - e["start"] for e in occurrences)
        if key.startswith("import") and took < 0.02 and not args.all_imports:
            continue
        rows.append((start, end, took, key))
    for start, end, took, key in sorted(rows):
        print(f"{start:6.2f} {end:6.2f} {took:6.2f}  {key}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
