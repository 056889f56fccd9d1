"""Cost of `launch(..., trace=DIR)` against the same launch untraced, at bench/cpu.py's sizes.

Goal: a traced launch (recording, pictures, page and PNGs written) takes at most 3× the
untraced one. Turns alternate (untraced, traced) in one process; prints, per row, the median
of each with its spread (min–max) and the median of the per-turn ratios with theirs. Timings
of niced runs are not valid: run the final turns at normal priority.

    python bench/trace_overhead.py [--quick] [--rows NAME,...]
"""
from __future__ import annotations

import argparse
import math
import os
import shutil
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cpu import rows  # noqa: E402  (bench/cpu.py: the same kernels and sizes)
from tilescope.backends.numpy.launcher import run_kernel  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true")
    p.add_argument("--rows")
    p.add_argument("--repeat", type=int, default=5)
    a = p.parse_args(argv)
    wanted = set(a.rows.split(",")) if a.rows else None
    os.environ["TILESCOPE_TRACE_LIMIT"] = "0"    # every launch traced (two rows launch one kernel many times)
    out = tempfile.mkdtemp(prefix="tilescope-trace-bench-")
    ratios = []
    print(f"{'kernel':28s} {'untraced ms (spread)':>22s} {'traced ms (spread)':>22s} {'ratio (spread)':>18s}")
    for name, kernel, grid, args, _ in rows(a.quick):
        if wanted and not any(w in name for w in wanted):
            continue
        run_kernel(grid, kernel, args)
        run_kernel(grid, kernel, args, trace=out)
        times = ([], [])
        for _ in range(a.repeat):
            for i, trace in enumerate((None, out)):
                t = time.perf_counter()
                run_kernel(grid, kernel, args, trace=trace)
                times[i].append((time.perf_counter() - t) * 1e3)
        per_turn = [t / u for u, t in zip(*times)]
        ratios.append(statistics.median(per_turn))
        cell = lambda xs: f"{statistics.median(xs):8.1f} ({min(xs):.0f}–{max(xs):.0f})"     # noqa: E731
        print(f"{name:28s} {cell(times[0]):>22s} {cell(times[1]):>22s} "
              f"{ratios[-1]:6.2f} ({min(per_turn):.2f}–{max(per_turn):.2f})", flush=True)
    shutil.rmtree(out, ignore_errors=True)
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"median ratios: geometric mean {geo:.2f}×, worst {max(ratios):.2f}× (goal: at most 3×)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
