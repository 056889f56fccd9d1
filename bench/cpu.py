"""CPU speed and memory on realistic kernels, measured in one run.

Times are medians over nine turns; the tilescope / NumPy ratio is the median of the per-turn
ratios, with their range. Columns: tilescope with default settings (the compiled backend, backends/compiled, the GPU's
rounding), the same math in plain NumPy, the NumPy executor (whole grid vectorised, same
rounding; `engine="numpy"`), the NumPy executor with fast numerics, tilescope one block at a
time (measured on a sample of blocks and extrapolated to the grid), Triton's interpreter when
`triton` and `torch` are installed, and the default's peak extra memory during the launch
(NumPy allocations plus the compiled backend's per-thread scratch) divided by the total size
of the kernel's arguments.

Goals: compiled geometric mean ≤ 0.8× NumPy (every row ≤ 2×), also at a quarter of the sizes
(`--quarter`); NumPy executor ≤ 1.5× (worst ≤ 4×); ≥ 300× faster than Triton's interpreter;
peak extra memory ≤ 2× the arguments.

    python bench/cpu.py [--quarter] [--rows NAME,...] [--no-triton]
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
import tracemalloc

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))

from tilescope.backends.numpy.launcher import run_kernel  # noqa: E402
from tilescope.lang.shim import load_file  # noqa: E402


def ex(name):
    return load_file(os.path.join(ROOT, "examples", f"{name}.py"))


def cdiv(a, b):
    return -(-a // b)


def rows(quick: bool):
    s = 4 if quick else 1          # --quick shrinks every problem
    rng = np.random.default_rng(0)
    out = []

    n = (1 << 24) // s
    a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    c = np.empty_like(a)
    out.append(("vector add 2^24 f32", ex("vector_add").vector_add, (cdiv(n, 1024),), (a, b, c, 1024),
                lambda: np.add(a, b, out=c)))

    m = 4096 // s
    x = rng.standard_normal((m, 1024), dtype=np.float32)
    y = np.empty_like(x)

    def np_softmax():
        e = np.exp(x - x.max(axis=1, keepdims=True))
        np.divide(e, e.sum(axis=1, keepdims=True), out=y)
    out.append(("row softmax 4096x1024", ex("softmax").softmax, (m,), (x, y, 1024), np_softmax))

    w, bb = rng.standard_normal(1024, dtype=np.float32), rng.standard_normal(1024, dtype=np.float32)
    y2 = np.empty_like(x)

    def np_layernorm():
        mu = x.mean(axis=1, keepdims=True)
        var = x.var(axis=1, keepdims=True)
        np.add((x - mu) / np.sqrt(var + 1e-5) * w, bb, out=y2)
    out.append(("layernorm fwd 4096x1024", ex("layernorm").layernorm, (m,), (x, w, bb, y2, 1e-5, 256),
                np_layernorm))

    k = 1024 // (2 if quick else 1)
    mm = ex("matmul")
    a16 = rng.standard_normal((k, k)).astype(np.float16)
    b16 = rng.standard_normal((k, k)).astype(np.float16)
    c32 = np.empty((k, k), np.float32)
    out.append(("matmul 1024^3 f16->f32", mm.matmul, (k // 64, k // 64), (a16, b16, c32, 64, 64, 32),
                lambda: np.matmul(a16.astype(np.float32), b16.astype(np.float32), out=c32)))
    a32 = rng.standard_normal((k, k), dtype=np.float32)
    b32 = rng.standard_normal((k, k), dtype=np.float32)
    c32b = np.empty((k, k), np.float32)
    out.append(("matmul 1024^3 f32", mm.matmul, (k // 64, k // 64), (a32, b32, c32b, 64, 64, 32),
                lambda: np.matmul(a32, b32, out=c32b)))

    bt = 16 // (4 if quick else 1)
    ba = rng.standard_normal((bt, 256, 64)).astype(np.float16)
    bb2 = rng.standard_normal((bt, 64, 256)).astype(np.float16)
    bc = np.empty((bt, 256, 256), np.float32)
    out.append(("batch matmul 16x256x64x256 f16", mm.batch_matmul, (4, 4, bt), (ba, bb2, bc, 64, 64, 32),
                lambda: np.matmul(ba.astype(np.float32), bb2.astype(np.float32), out=bc)))

    bh, sq = 16 // (4 if quick else 1), 1024 // (2 if quick else 1)
    q, kk, v = (rng.standard_normal((bh, sq, 64)).astype(np.float16) for _ in range(3))
    o = np.empty_like(q)

    def np_attention():
        sc = np.matmul(q.astype(np.float32), kk.astype(np.float32).transpose(0, 2, 1)) * (1 / 8)
        p = np.exp(sc - sc.max(-1, keepdims=True))
        p /= p.sum(-1, keepdims=True)
        o[...] = np.matmul(p, v.astype(np.float32))
    out.append(("attention BH=16 S=1024 D=64", ex("attention").attention, (sq // 64, bh),
                (q, kk, v, o, 1 / 8, 64, 64, 64), np_attention))

    t = 4096 // (2 if quick else 1)
    xt = rng.random((t, t), dtype=np.float32)
    yt = np.empty_like(xt)
    out.append(("transpose 4096^2 f32", ex("transpose").transpose, (t // 64, t // 64), (xt, yt, 64, 64),
                lambda: np.copyto(yt, xt.T)))
    return out


def timed_turns(fns, repeat=9):
    """Each function's time in every turn, the functions taking turns: this machine's speed drifts
    by 10–30% over seconds, and turns keep the drift out of their ratios (nine turns: with five, a
    slow phase of the machine could last through all of one row's turns). Each turn times a
    second call, so every function is measured with its own data in cache."""
    times = [[] for _ in fns]
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            fn()
            t = time.perf_counter()
            fn()
            times[i].append(time.perf_counter() - t)
    return times


def ratio_spread(num, den):
    """Median, min and max of the per-turn ratios num[i] / den[i]."""
    r = [a / b for a, b in zip(num, den)]
    return float(np.median(r)), min(r), max(r)


def args_bytes(args) -> int:
    return sum(a.nbytes for a in args if isinstance(a, np.ndarray))


def peak_extra(fn) -> int:
    tracemalloc.start()
    tracemalloc.reset_peak()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def one_block_at_a_time(kernel, grid, args, sample=16) -> float:
    g = list(grid) + [1] * (3 - len(grid))
    total = g[0] * g[1] * g[2]
    picks = np.linspace(0, total - 1, min(sample, total)).astype(int)
    t = time.perf_counter()
    for lin in picks:
        blk = (int(lin % g[0]), int((lin // g[0]) % g[1]), int(lin // (g[0] * g[1])))
        run_kernel(grid, kernel, args, block=blk)
    return (time.perf_counter() - t) / len(picks) * total


def scratch_bytes() -> int:
    """The latest launch's per-thread scratch for block values (not seen by tracemalloc)."""
    from tilescope.backends.compiled import engine
    return engine.last_launch().get("scratch", 0)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quarter", "--quick", dest="quick", action="store_true",
                    help="a quarter of the sizes (arrays of a quarter of the elements)")
    ap.add_argument("--rows", help="comma-separated substrings of row names to run")
    ap.add_argument("--no-triton", action="store_true", help="skip the Triton interpreter comparison")
    ap.add_argument("--triton-budget", type=float, default=None,
                    help="seconds of Triton interpreter time sampled per row (default 0.5 with --quarter, else 2)")
    a = ap.parse_args()
    ts_by_name = {}
    print(f"{'kernel':34} {'tilescope':>10} {'numpy':>9} {'ratio [min-max]':>18} {'executor':>9} {'ratio':>7} "
          f"{'fast':>9} {'ratio':>7} {'1-block':>10} {'speedup':>8} {'mem/args':>8}")
    ratios, ex_ratios, fast_ratios, mems = [], [], [], []
    for name, kernel, grid, args, np_fn in rows(a.quick):
        if a.rows and not any(r in name for r in a.rows.split(",")):
            continue
        run_kernel(grid, kernel, args)                       # compile + warm up
        run_kernel(grid, kernel, args, engine="numpy")
        run_kernel(grid, kernel, args, engine="numpy", numerics="fast")
        times = timed_turns([lambda: run_kernel(grid, kernel, args), np_fn,
                             lambda: run_kernel(grid, kernel, args, engine="numpy"),
                             lambda: run_kernel(grid, kernel, args, engine="numpy", numerics="fast")])
        ts, tn, te, tf = (float(np.median(t)) for t in times)
        seq = one_block_at_a_time(kernel, grid, args)
        mem = (peak_extra(lambda: run_kernel(grid, kernel, args)) + scratch_bytes()) / max(1, args_bytes(args))
        ratio, lo, hi = ratio_spread(times[0], times[1])
        ratios.append(ratio)
        ex_ratios.append(te / tn)
        fast_ratios.append(tf / tn)
        mems.append(mem)
        ts_by_name[name] = ts
        print(f"{name:34} {ts*1e3:9.1f}ms {tn*1e3:8.1f}ms {ratio:6.2f}x [{lo:4.2f}-{hi:5.2f}] "
              f"{te*1e3:7.1f}ms {te/tn:6.2f}x "
              f"{tf*1e3:7.1f}ms {tf/tn:6.2f}x {seq:9.2f}s {seq/ts:7.0f}x {mem:7.2f}x", flush=True)
    gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))  # noqa: E731
    print(f"geometric mean tilescope/NumPy: {gm(ratios):.2f}x (goal ≤ 0.8x), worst {max(ratios):.2f}x (goal ≤ 2x); "
          f"peak extra memory worst {max(mems):.2f}x args (goal ≤ 2x)")
    print(f"NumPy executor: geometric mean {gm(ex_ratios):.2f}x, worst {max(ex_ratios):.2f}x; with fast numerics "
          f"{gm(fast_ratios):.2f}x, worst {max(fast_ratios):.2f}x")
    if a.no_triton:
        print("Triton interpreter: not measured (--no-triton)")
        return 0
    try:
        os.environ["TRITON_INTERPRET"] = "1"          # must be set before triton is imported
        import triton  # noqa: F401
        import torch  # noqa: F401
    except ImportError:
        print("Triton interpreter: not measured (triton/torch not installed)")
    else:
        # Same rows and data through bench/triton_kernels.py under Triton's interpreter, sampled and
        # extrapolated to the full grid (see bench/triton_interp.py); tilescope times from above.
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import triton_interp
        budget = a.triton_budget if a.triton_budget is not None else (0.5 if a.quick else 2.0)
        triton_interp.compare(a.quick, a.rows, budget=budget, ts_times=ts_by_name, rows_fn=rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
