"""Multi-core scaling of the compiled backend: each row's launch time with 1, 2, 4, ... threads
(the functions taking turns, medians over the turns), and the speed-up over one thread.

Rows: the large element-wise and matrix-product rows of bench/cpu.py and bench/realworld.py.
Goal: with N cores, at least 0.7 N times the one-core speed.

    python bench/scaling.py [--threads 1,2,4,8,16] [--repeat 5] [--quarter]
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "src"))
sys.path.insert(0, HERE)

import cpu  # noqa: E402
import realworld  # noqa: E402
from tilescope.backends.compiled import engine  # noqa: E402
from tilescope.backends.numpy.launcher import run_kernel  # noqa: E402

CPU_ROWS = ("vector add", "matmul")
REALWORLD_ROWS = ("@ f32", "mma f16", "mma bf16", "gelu", "vector add f16", "swiglu")


def table(quarter: bool):
    for name, kernel, grid, args, _ in cpu.rows(quarter):
        if any(w in name for w in CPU_ROWS):
            yield name, kernel, grid, args, None
    for r in realworld.rows(0.25 if quarter else 1.0):
        if any(w in r.name for w in REALWORLD_ROWS):
            yield r.name, r.kernel, r.grid, r.args, r.fresh


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", default=f"1,2,4,8,{os.cpu_count()}")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--quarter", action="store_true")
    opts = ap.parse_args()
    counts = sorted({int(t) for t in opts.threads.split(",")})
    print(f"{os.cpu_count()} cores; times are medians of {opts.repeat} turns, each with its speed-up over {counts[0]} thread(s)")
    print(f"{'kernel':40s}" + "".join(f" {f'{n} thr':>17s}" for n in counts))
    for name, kernel, grid, args, fresh in table(opts.quarter):
        def launch(n, kernel=kernel, grid=grid, args=args, fresh=fresh):
            if fresh:
                fresh()
            run_kernel(grid, kernel, args, engine="compiled", threads=n)
        launch(1)
        times = {n: [] for n in counts}
        for _ in range(opts.repeat):
            for n in counts:
                launch(n)
                t = time.perf_counter()
                launch(n)
                times[n].append(time.perf_counter() - t)
        assert engine.last_launch().get("threads") == counts[-1]
        med = {n: float(np.median(times[n])) for n in counts}
        cells = "".join(f" {med[n] * 1e3:7.2f}ms {med[counts[0]] / med[n]:5.1f}x" for n in counts)
        print(f"{name:40s}{cells}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
