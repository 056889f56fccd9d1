"""Cost of `launch(..., trace=DIR)` against the same launch untraced, at bench/cpu.py's sizes.

Goal: a traced launch (recording, pictures, page and PNGs written) takes at most 3× the
untraced one. Prints, per row, both times (best of turns taken alternately) and the ratio.

    python bench/trace_overhead.py [--quick] [--rows NAME,...]
"""
from __future__ import annotations

import argparse
import math
import os
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
    p.add_argument("--repeat", type=int, default=3)
    a = p.parse_args(argv)
    wanted = set(a.rows.split(",")) if a.rows else None
    out = tempfile.mkdtemp(prefix="tilescope-trace-bench-")
    ratios = []
    print(f"{'kernel':36s} {'untraced':>10s} {'traced':>10s} {'ratio':>6s}")
    for name, kernel, grid, args, _ in rows(a.quick):
        if wanted and not any(w in name for w in wanted):
            continue
        run_kernel(grid, kernel, args)
        best = [math.inf, math.inf]
        for _ in range(a.repeat):
            for i, trace in enumerate((None, out)):
                t = time.perf_counter()
                run_kernel(grid, kernel, args, trace=trace)
                best[i] = min(best[i], time.perf_counter() - t)
        ratios.append(best[1] / best[0])
        print(f"{name:36s} {best[0] * 1e3:9.1f}ms {best[1] * 1e3:9.1f}ms {ratios[-1]:6.2f}", flush=True)
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"geometric mean {geo:.2f}×, worst {max(ratios):.2f}× (goal: at most 3×)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
