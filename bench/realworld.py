"""Kernels in the shapes public cuTile code uses, on the CPU: the compiled backend, the NumPy
executor, and plain NumPy computing the same math, timed in turns in one process.

Columns: compiled (default settings: engine auto, checks bounds,races, the GPU's rounding),
NumPy executor (engine numpy), plain NumPy (medians over the turns), compiled / NumPy (the
median of the per-turn ratios, with their range), the threads the compiled launch used, its
peak extra memory over the arguments' size, and why a kernel ran on the NumPy executor
instead (if it did).

Goals: geometric mean of compiled / NumPy <= 1.0, every kernel <= 3x; the spin lock within
20x of NumPy's reshape-and-sum.

    python bench/realworld.py [--quarter] [--rows NAME,...] [--threads N[,N...]] [--repeat R]
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
sys.path.insert(0, ROOT)

from tilescope.backends.numpy.launcher import run_kernel  # noqa: E402
from tilescope.lang.shim import load_file  # noqa: E402

K = load_file(os.path.join(ROOT, "bench", "realworld_kernels.py"))


def cdiv(a, b):
    return -(-a // b)


class Row:
    def __init__(self, name, kernel, grid, args, reference, fresh=None):
        self.name, self.kernel, self.grid, self.args, self.reference = name, kernel, grid, args, reference
        self.fresh = fresh            # resets outputs that a launch accumulates into (atomics)


def rows(scale: float):
    """The benchmark's kernels; `scale` shrinks every problem (1: full size)."""
    rng = np.random.default_rng(0)
    import ml_dtypes
    bf16, e4m3 = ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn
    s = lambda n, q=64: max(q, int(n * scale) // q * q)  # noqa: E731
    out = []

    def mats(m, k, n, dt, out_dt=np.float32):
        a = rng.standard_normal((m, k)).astype(dt)
        b = rng.standard_normal((k, n)).astype(dt)
        return a, b, np.empty((m, n), out_dt)

    def mm_ref(a, b, c):
        return lambda: np.matmul(a.astype(np.float32), b.astype(np.float32), out=c)

    n = s(512)
    a, b, c = mats(n, n, n, np.float32)
    out.append(Row(f"@ f32 {n}^3 (K loop)", K.matmul_at, (n // 64, n // 64), (a, b, c, 64, 64, 32), mm_ref(a, b, c)))
    a, b, c = mats(n, n, n, np.float16)
    out.append(Row(f"mma f16 {n}^3", K.matmul_mma, (n // 64, n // 64), (a, b, c, 64, 64, 32), mm_ref(a, b, c)))
    a, b, c = mats(n, n, n, np.float32)
    out.append(Row(f"mma tf32 {n}^3", K.matmul_mma, (n // 64, n // 64), (a, b, c, 64, 64, 32), mm_ref(a, b, c)))
    a, b, c = mats(n, n, n, bf16)
    out.append(Row(f"mma bf16 {n}^3", K.matmul_mma, (n // 64, n // 64), (a, b, c, 64, 64, 32), mm_ref(a, b, c)))
    a, b, c = mats(n, n, n, e4m3)
    out.append(Row(f"mma fp8 e4m3 {n}^3", K.matmul_mma, (n // 64, n // 64), (a, b, c, 64, 64, 64), mm_ref(a, b, c)))
    a, b, c = mats(s(768), s(512), s(640), np.float16)
    out.append(Row(f"swizzled 1-D grid f16 {a.shape[0]}x{a.shape[1]}x{b.shape[1]}", K.matmul_swizzled,
                   (cdiv(a.shape[0], 64) * cdiv(b.shape[1], 64),), (a, b, c, 64, 64, 32, 8), mm_ref(a, b, c)))
    a, b, c = mats(s(768), s(512), s(640), bf16)
    out.append(Row(f"persistent bf16 {a.shape[0]}x{a.shape[1]}x{b.shape[1]}", K.matmul_persistent, (16,),
                   (a, b, c, 64, 64, 32), mm_ref(a, b, c)))
    a, b, c = mats(s(256), s(2048), s(256), np.float16)
    out.append(Row(f"split-K atomics f16 {a.shape[0]}x{a.shape[1]}x{b.shape[1]}", K.matmul_split_k,
                   (a.shape[0] // 64, b.shape[1] // 64, 4), (a, b, c, 64, 64, 32, 4), mm_ref(a, b, c),
                   fresh=lambda c=c: c.fill(0)))
    bt = max(2, int(16 * scale))
    ba = rng.standard_normal((bt, 256, 128)).astype(np.float16)
    bb = rng.standard_normal((bt, 128, 256)).astype(np.float16)
    bc = np.empty((bt, 256, 256), np.float32)
    out.append(Row(f"batch matmul f16 {bt}x256x128x256", K.batch_matmul, (4, 4, bt), (ba, bb, bc, 64, 64, 32),
                   lambda: np.matmul(ba.astype(np.float32), bb.astype(np.float32), out=bc)))

    heads, sq, d = max(2, int(8 * scale)), 512, 64
    q, k, v = (rng.standard_normal((heads, sq, d)).astype(np.float16) for _ in range(3))
    o = np.empty_like(q)
    mask = np.tril(np.ones((sq, sq), bool))

    def attn_ref(causal):
        def f():
            sc = np.matmul(q.astype(np.float32), k.astype(np.float32).transpose(0, 2, 1)) * (1 / 8)
            if causal:
                sc = np.where(mask, sc, -np.inf)
            p = np.exp(sc - sc.max(-1, keepdims=True))
            p /= p.sum(-1, keepdims=True)
            o[...] = np.matmul(p, v.astype(np.float32))
        return f
    for causal in (0, 1):
        out.append(Row(f"attention {'causal' if causal else 'full'} H={heads} S={sq} D={d}", K.attention,
                       (sq // 64, heads), (q, k, v, o, 1 / 8, 64, 64, d, causal), attn_ref(causal)))

    m, ncol = s(4096), 1000
    x = rng.standard_normal((m, ncol), dtype=np.float32)
    y = np.empty_like(x)

    def softmax_ref():
        e = np.exp(x - x.max(axis=1, keepdims=True))
        np.divide(e, e.sum(axis=1, keepdims=True), out=y)
    out.append(Row(f"softmax gather ragged {m}x{ncol}", K.softmax_gather, (m,), (x, y, ncol, 1024), softmax_ref))
    w, bias = rng.standard_normal(ncol, dtype=np.float32), rng.standard_normal(ncol, dtype=np.float32)
    y2 = np.empty_like(x)

    def layernorm_ref():
        mu = x.mean(axis=1, keepdims=True)
        np.add((x - mu) / np.sqrt(x.var(axis=1, keepdims=True) + 1e-5) * w, bias, out=y2)
    out.append(Row(f"layernorm gather ragged {m}x{ncol}", K.layernorm_gather, (m,), (x, w, bias, y2, ncol, 1e-5, 1024),
                   layernorm_ref))
    xh = rng.standard_normal((m, 2048)).astype(np.float16)
    wh = rng.standard_normal(2048).astype(np.float16)
    yh = np.empty_like(xh)

    def rms_ref():
        x32 = xh.astype(np.float32)
        yh[...] = x32 / np.sqrt((x32 * x32).mean(axis=1, keepdims=True) + 1e-6) * wh.astype(np.float32)
    out.append(Row(f"rmsnorm f16 {m}x2048", K.rmsnorm, (m,), (xh, wh, yh, 1e-6, 512), rms_ref))

    tokens, heads2, half = s(2048), 16, 32
    xr = rng.standard_normal((tokens, heads2, 2 * half), dtype=np.float32)
    ang = rng.random((tokens, half), dtype=np.float32) * 6
    cos, sin = np.cos(ang), np.sin(ang)
    yr = np.empty_like(xr)

    def rope_ref():
        x1, x2 = xr[..., :half], xr[..., half:]
        c, sn = cos[:, None, :], sin[:, None, :]
        yr[..., :half] = x1 * c - x2 * sn
        yr[..., half:] = x2 * c + x1 * sn
    out.append(Row(f"rope {tokens}x{heads2}x{2 * half}", K.rope, (tokens // 64, heads2), (xr, cos, sin, yr, 64, half),
                   rope_ref))
    g16 = rng.standard_normal((s(2048), 4096)).astype(np.float16)
    u16 = rng.standard_normal(g16.shape).astype(np.float16)
    y16 = np.empty_like(g16)

    def swiglu_ref():
        g = g16.astype(np.float32)
        y16[...] = g / (1 + np.exp(-g)) * u16.astype(np.float32)
    out.append(Row(f"swiglu f16 {g16.shape[0]}x4096", K.swiglu, (g16.shape[0], 4096 // 1024), (g16, u16, y16, 1024),
                   swiglu_ref))
    nel = int((1 << 22) * scale) // 1024 * 1024
    xg = rng.standard_normal(nel, dtype=np.float32)
    yg = np.empty_like(xg)
    out.append(Row(f"gelu tanh 2^{int(math.log2(nel))}", K.gelu_tanh, (nel // 1024,), (xg, yg, 1024),
                   lambda: np.multiply(0.5 * xg, 1 + np.tanh(0.7978845608 * (xg + 0.044715 * xg ** 3)), out=yg)))
    yd = np.empty_like(xg)
    idx = np.arange(nel, dtype=np.uint32)

    def dropout_ref():
        h = idx * np.uint32(0x9E3779B1) + np.uint32(1234)
        h = (h ^ (h >> 16)) * np.uint32(0x85EBCA6B)
        h = (h ^ (h >> 13)) * np.uint32(0xC2B2AE35)
        h ^= h >> 16
        u = (h >> 8).astype(np.float32) * np.float32(1 / 16777216)
        np.copyto(yd, np.where(u >= 0.1, xg / np.float32(0.9), 0))
    out.append(Row(f"dropout hash RNG 2^{int(math.log2(nel))}", K.dropout, (nel // 1024,), (xg, yd, 1234, 0.1, 1024),
                   dropout_ref))
    a16, b16 = (rng.standard_normal(nel).astype(np.float16) for _ in range(2))
    c16 = np.empty_like(a16)
    out.append(Row(f"vector add f16 2^{int(math.log2(nel))}", K.vector_add_f16, (nel // 1024,), (a16, b16, c16, 1024),
                   lambda: np.add(a16, b16, out=c16)))

    xc = rng.standard_normal((s(4096), 1024), dtype=np.float32)
    yc = np.empty_like(xc)
    out.append(Row(f"cumsum rows {xc.shape[0]}x1024", K.cumsum_rows, (xc.shape[0],), (xc, yc, 1024),
                   lambda: np.cumsum(xc, axis=1, out=yc)))
    ch = max(4, int(64 * scale))
    xp = rng.standard_normal((ch, 512, 512), dtype=np.float32)
    yp = np.empty((ch, 256, 256), np.float32)
    out.append(Row(f"avg pool 2x2 {ch}x512x512", K.avg_pool2x2, (256 // 32, 256 // 32, ch), (xp, yp, 32, 32),
                   lambda: np.multiply(xp.reshape(ch, 256, 2, 256, 2).sum(axis=(2, 4)), 0.25, out=yp)))
    t = s(2048)
    xt = rng.random((t, t), dtype=np.float32)
    yt = np.empty_like(xt)
    out.append(Row(f"transpose {t}^2", K.transpose, (t // 64, t // 64), (xt, yt, 64, 64), lambda: np.copyto(yt, xt.T)))

    xh2 = rng.random(nel, dtype=np.float32)
    hist = np.zeros(256, np.int32)
    out.append(Row(f"histogram 2^{int(math.log2(nel))} -> 256 bins", K.histogram, (nel // 1024,), (xh2, hist, 256, 1024),
                   lambda: np.bincount((xh2 * 256).astype(np.int32), minlength=256), fresh=lambda: hist.fill(0)))
    xs = rng.standard_normal((128, 1024), dtype=np.float32)
    acc = np.zeros((1, 1024), np.float32)
    lock = np.zeros(1, np.int32)
    out.append(Row("spin-lock sum 128x1024", K.spinlock_sum, (128,), (xs, acc, lock, 1024),
                   lambda: xs.reshape(128, 1, 1024).sum(axis=0), fresh=lambda: acc.fill(0)))
    return out


def timed_turns(fns, repeat: int):
    """Each function's time in every turn, the functions taking turns (the machine's speed drifts
    over seconds; turns keep the drift out of the ratios). Each turn times a second call, so every
    function runs with its own data in cache."""
    times = [[] for _ in fns]
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            fn()
            t = time.perf_counter()
            fn()
            times[i].append(time.perf_counter() - t)
    return times


def spread(xs):
    """(median, min, max)."""
    return float(np.median(xs)), min(xs), max(xs)


def peak_extra_memory(fn, args) -> float:
    """Peak memory the launch allocates (NumPy's allocations, seen by tracemalloc, plus the
    compiled backend's per-thread block scratch) over the size of the kernel's arguments."""
    from tilescope.backends.compiled import engine
    tracemalloc.start()
    tracemalloc.reset_peak()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    size = sum(a.nbytes for a in args if isinstance(a, np.ndarray))
    return (peak + engine.last_launch().get("scratch", 0)) / max(1, size)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", "--quarter", dest="quick", action="store_true", help="a quarter of the sizes")
    ap.add_argument("--rows", default="", help="comma-separated substrings of row names")
    ap.add_argument("--threads", default="", help="thread counts to time the compiled backend with, e.g. 1,2,16")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--no-executor", action="store_true", help="skip the NumPy executor column")
    opts = ap.parse_args()
    from tilescope.backends.compiled import engine
    threads = [int(t) for t in opts.threads.split(",") if t.strip()]
    want = [w.strip() for w in opts.rows.split(",") if w.strip()]
    table = [r for r in rows(0.25 if opts.quick else 1.0) if not want or any(w in r.name for w in want)]
    ratios, mems = [], []
    head = (f"{'kernel':44s} {'compiled':>10s} {'executor':>10s} {'NumPy':>10s} {'ratio [min-max]':>18s} "
            f"{'cores':>5s} {'mem':>6s}")
    if threads:
        head += "".join(f" {f'{n} thr':>9s}" for n in threads)
    print(head + "  fallback")
    for r in table:
        def launch(engine_name, n=None, r=r):
            if r.fresh:
                r.fresh()
            run_kernel(r.grid, r.kernel, r.args, engine=engine_name, threads=n)

        def ref(r=r):
            if r.fresh:
                r.fresh()
            r.reference()
        launch("auto")
        info = engine.last_launch()
        mem = peak_extra_memory(lambda: launch("auto"), r.args)
        fns = [lambda: launch("auto"), ref] + ([] if opts.no_executor else [lambda: launch("numpy")])
        fns += [lambda n=n: launch("auto", n) for n in threads]
        times = timed_turns(fns, opts.repeat)
        comp, nump = spread(times[0])[0], spread(times[1])[0]
        exe = spread(times[2])[0] if not opts.no_executor else float("nan")
        ratio, lo, hi = spread([c / n for c, n in zip(times[0], times[1])])     # per turn
        ratios.append(ratio)
        mems.append(mem)
        line = (f"{r.name:44s} {comp * 1e3:8.2f}ms {exe * 1e3:8.2f}ms {nump * 1e3:8.2f}ms "
                f"{ratio:6.2f}x [{lo:4.2f}-{hi:5.2f}] {info.get('threads', 1):5d} {mem:5.2f}x")
        for k in range(len(threads)):
            line += f" {spread(times[-len(threads) + k])[0] * 1e3:7.2f}ms"
        print(line + ("  " + info["declined"] if info.get("declined") else ""), flush=True)
    gm = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
    print(f"\n{len(ratios)} kernels: geometric mean compiled / NumPy {gm:.2f}x (goal <= 1.0), worst {max(ratios):.2f}x "
          f"(goal <= 3); peak extra memory worst {max(mems):.2f}x the arguments (goal <= 2)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
