"""A full garbage collection in the app server's heap, before and after `gc.freeze()`.

Imports what the server holds (streamlit, the pages' modules, the bank; torch stays in the
compute worker), then times `gc.collect(2)`: that is what Streamlit's `runner.postScriptGC` did
after every script run, holding every session meanwhile. Then freezes the heap as
`server_tuning/warm_up.py` does and times it again. The baseline is the same collection in a bare
interpreter. With `--torch`, torch is imported too (what the heap would hold without the
compute worker).

    .venv/bin/python bench/bench_gc_freeze.py [--torch] [--repeats 7]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def collect_ms(repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        gc.collect(2)
        times.append((time.perf_counter() - start) * 1000)
    return times


def row(label: str, times: list[float]) -> str:
    return (f"{label:<44} {len(gc.get_objects()):>9} {statistics.median(times):>8.1f} "
            f"{max(times):>8.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--torch", action="store_true", help="also import torch (via compute)")
    args = parser.parse_args()

    print(f"{'heap':<44} {'tracked':>9} {'p50 ms':>8} {'max ms':>8}   (gc.collect(2))")
    bare = collect_ms(args.repeats)
    print(row("bare interpreter (baseline)", bare))
    import streamlit  # noqa: F401

    from server_tuning.warm_up import PAGE_MODULES

    for name in PAGE_MODULES:
        __import__(name)
    import quizbank

    quizbank.load_bank()
    if args.torch:
        import compute

        compute.generate(compute.list_templates()[0]["name"], seed=0)
    loaded = collect_ms(args.repeats)
    print(row("app server heap" + (" + torch" if args.torch else ""), loaded))
    gc.freeze()
    frozen = collect_ms(args.repeats)
    print(row(f"after gc.freeze() ({gc.get_freeze_count()} objects frozen)", frozen))
    print(f"a full collection: {statistics.median(loaded):.1f} ms -> "
          f"{statistics.median(frozen):.2f} ms once frozen ({statistics.median(bare):.1f} ms in a "
          "bare interpreter)")


if __name__ == "__main__":
    main()
