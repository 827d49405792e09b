"""Speed of compute: generation time per template, the 40x64 MLP, and torch-free import time.

    .venv/bin/python bench/bench_compute.py [--runs 200] [--mlp-runs 30]

For each template: `compute.generate` (draw + torch answers + bilingual text) over many seeds
after a warm-up, and the torch answer step alone against the numpy closed form the tests use
(tests/compute/test_closed_forms.py), timed in the same run. Goals: median <= 5 ms per problem,
the 40-layer width-64 MLP <= 50 ms. Import times are measured in fresh interpreters.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import compute  # noqa: E402
from compute import registry  # noqa: E402

MLP_SETTING = {"depth": 40, "width": 64, "gain": 0.8, "seed": 0}


def load_references():
    path = ROOT / "tests" / "compute" / "test_closed_forms.py"
    spec = importlib.util.spec_from_file_location("closed_forms", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def timed(fn, runs: int, cpu: list[float] | None = None) -> list[float]:
    """Wall milliseconds per call; CPU milliseconds of this process appended to `cpu` if given
    (CPU time is what to compare when other jobs share the cores)."""
    out = []
    for i in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn(i)
        out.append((time.perf_counter() - start) * 1e3)
        if cpu is not None:
            cpu.append((time.process_time() - start_cpu) * 1e3)
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def summary(values):
    return statistics.median(values), percentile(values, 95), percentile(values, 99)


def bench_templates(runs: int, refs) -> list[tuple]:
    rows = []
    for name in registry.names():
        module = registry.load(name)
        for difficulty in compute.DIFFICULTIES:
            problems = [compute.generate(name, seed=s, difficulty=difficulty) for s in range(20)]
            cpu = []
            gen = timed(lambda i, n=name, d=difficulty: compute.generate(n, seed=1000 + i,
                                                                         difficulty=d), runs, cpu)
            params = [p["params"] for p in problems]
            torch_answer = timed(lambda i, m=module, ps=params: m.answer(ps[i % len(ps)]), runs)
            ref = refs.REFERENCES[name]
            numpy_answer = timed(lambda i, f=ref, ps=params: f(ps[i % len(ps)]), runs)
            med, p95, p99 = summary(gen)
            t_med, n_med = statistics.median(torch_answer), statistics.median(numpy_answer)
            rows.append((f"{name} [{difficulty}]", med, p95, p99, statistics.median(cpu), t_med,
                         n_med, t_med / n_med))
    return rows


def bench_mlp(runs: int, refs) -> tuple:
    import numpy as np

    from compute.templates import deep_mlp_gradients as mlp

    compute.solve("deep_mlp_gradients", MLP_SETTING)
    cpu = []
    solve = timed(lambda i: compute.solve("deep_mlp_gradients", {**MLP_SETTING, "seed": i}), runs,
                  cpu)
    weights, x0 = mlp.draw_weights(40, 64, 0.8, 0)
    torch_norms = timed(lambda i: mlp.grad_norms(weights, x0), runs)
    ws = list(weights)
    numpy_norms = timed(lambda i: (refs.mlp_backprop_norms(ws, x0, False),
                                   refs.mlp_backprop_norms(ws, x0, True)), runs)
    plain, residual = mlp.grad_norms(weights, x0)
    np.testing.assert_allclose(plain, refs.mlp_backprop_norms(ws, x0, False), rtol=1e-9)
    med, p95, p99 = summary(solve)
    t_med, n_med = statistics.median(torch_norms), statistics.median(numpy_norms)
    return ("deep_mlp_gradients 40x64 (solve)", med, p95, p99, statistics.median(cpu), t_med,
            n_med, t_med / n_med)


def import_time(code: str, repeats: int = 5) -> float:
    """Median wall time (ms) of a fresh interpreter running `code`."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def bench_imports() -> list[tuple[str, float]]:
    rows = [("python -c pass (interpreter start)", import_time("pass")),
            ("import compute; compute.list_templates()",
             import_time("import compute; compute.list_templates()"))]
    present = [p for p in ("quizbank", "grader", "tutor")
               if importlib.util.find_spec(p) is not None]
    if present:
        code = f"import {', '.join(present)}, compute, sys; assert 'torch' not in sys.modules"
        rows.append((f"import {', '.join(present)}, compute", import_time(code)))
    rows.append(("import torch (baseline)", import_time("import torch")))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--mlp-runs", type=int, default=30)
    args = parser.parse_args()
    refs = load_references()
    for name in registry.names():  # warm-up: torch import, first-call dispatch caches
        compute.generate(name, seed=0)

    header = (f"{'template':44} {'gen med':>8} {'p95':>8} {'p99':>8} {'cpu med':>8} "
              f"{'torch ans':>10} {'numpy ref':>10} {'ratio':>7}")
    print(f"generation time per problem, ms ({args.runs} runs; 40x64 MLP {args.mlp_runs} runs)")
    print(header)
    print("-" * len(header))
    rows = bench_templates(args.runs, refs) + [bench_mlp(args.mlp_runs, refs)]
    for label, med, p95, p99, cpu_med, t_med, n_med, ratio in rows:
        print(f"{label:44} {med:8.3f} {p95:8.3f} {p99:8.3f} {cpu_med:8.3f} {t_med:10.3f} "
              f"{n_med:10.4f} {ratio:7.1f}")
    worst, worst_cpu = max(r[1] for r in rows[:-1]), max(r[4] for r in rows[:-1])
    print(f"\nslowest template median: {worst:.3f} ms wall, {worst_cpu:.3f} ms CPU (goal <= 5 ms)"
          f"; 40x64 MLP median: {rows[-1][1]:.3f} ms wall, {rows[-1][4]:.3f} ms CPU "
          "(goal <= 50 ms)")
    print("gen = compute.generate wall time; cpu = its CPU time (robust when cores are shared);")
    print("ratio = torch answer step / numpy closed form (median wall time), same run\n")
    print(f"{'fresh interpreter':44} {'median ms':>10}")
    for label, ms in bench_imports():
        print(f"{label:44} {ms:10.1f}")


if __name__ == "__main__":
    main()
