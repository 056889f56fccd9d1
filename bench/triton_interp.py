"""tilescope's CPU executor against Triton's interpreter (TRITON_INTERPRET=1) on bench/cpu.py's rows.

For every row of ``bench/cpu.py`` the same problem (same NumPy data) runs as

* the cuTile example kernel under tilescope (``run_kernel``, whole grid vectorised, best of 3), and
* the equivalent Triton kernel of ``bench/triton_kernels.py`` (same tiling, one Triton program per
  cuTile block) under Triton's interpreter on torch CPU tensors.

The interpreter runs the grid as a Python loop, one program instance after another, at a few
milliseconds of Python per instance, so by default it is timed on a sample of the grid: the
kernels index with ``tl.program_id`` only, so launching a smaller, rectangular grid runs exactly
the first programs of the full one.  Two launches are timed, one of a single program (best of 3)
and one of ``n`` programs, and fitted to ``T(n) = fixed + n * per_program``; the full grid is
extrapolated as ``fixed + total * per_program`` (the fixed part is the per-launch cost: argument
binding, the interpreter's host copy-back of every tensor argument).  ``n`` is picked so that
the sampled launch takes about ``--budget`` seconds; when that covers the whole grid, the whole
grid is timed and the row says "measured".  ``--full`` times every full grid (slow).

The programs that ran are checked against a NumPy (float64) reference on the part of the output
they wrote.

    TRITON_INTERPRET is set by this script;  python bench/triton_interp.py [--quick] [--rows ...]
        [--budget SECONDS] [--full]
"""
from __future__ import annotations

import argparse
import importlib.util
import math
import os
import sys
import time

os.environ["TRITON_INTERPRET"] = "1"          # must precede the first `import triton`

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
GOAL = 300.0


def _load(name):
    mod = sys.modules.get(name)
    if mod is None:
        spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, f"{name.split('_', 1)[-1]}.py"))
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    return mod


def _triton_kernels():
    import triton  # noqa: F401
    from triton import knobs
    if not knobs.runtime.interpret:        # triton was imported before TRITON_INTERPRET was set
        knobs.runtime.interpret = True
    return _load("bench_triton_kernels")


# ----------------------------------------------------------------------------------------------
# One case per bench/cpu.py row: how to launch the Triton kernel on a (sub)grid, and which part
# of the output a subgrid writes, with its float64 NumPy reference.
# ----------------------------------------------------------------------------------------------

class Case:
    def __init__(self, grid, launch, out, ref, region, tol):
        self.grid = tuple(grid) + (1,) * (3 - len(grid))
        self.launch = launch          # launch(subgrid)
        self.out = out                # torch output tensor
        self.ref = ref                # () -> float64 NumPy reference of the whole output
        self.region = region          # subgrid -> index into the output written by that subgrid
        self.tol = tol                # max abs error allowed, relative to max |ref| over the region


def make_case(name, grid, args):
    import torch
    tk = _triton_kernels()
    T = torch.from_numpy
    g = tuple(grid) + (1,) * (3 - len(grid))

    if name.startswith("vector add"):
        a, b, _, tile = args
        ta, tb = T(a), T(b)
        out = torch.zeros_like(ta)
        n = a.shape[0]
        return Case(g, lambda s: tk.vector_add[s](ta, tb, out, n, TILE=tile), out,
                    lambda: a.astype(np.float64) + b, lambda s: np.s_[: s[0] * tile], 1e-6)

    if name.startswith("row softmax"):
        x, _, tile = args
        tx = T(x)
        out = torch.zeros_like(tx)

        def ref():
            e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
            return e / e.sum(axis=1, keepdims=True)
        return Case(g, lambda s: tk.softmax[s](tx, out, x.shape[1], tx.stride(0), out.stride(0), TILE=tile),
                    out, ref, lambda s: np.s_[: s[0]], 1e-5)

    if name.startswith("layernorm"):
        x, w, b, _, eps, tn = args
        tx, tw, tb = T(x), T(w), T(b)
        out = torch.zeros_like(tx)

        def ref():
            xd = x.astype(np.float64)
            mu, var = xd.mean(axis=1, keepdims=True), xd.var(axis=1, keepdims=True)
            return (xd - mu) / np.sqrt(var + eps) * w + b
        return Case(g, lambda s: tk.layernorm[s](tx, tw, tb, out, x.shape[1], tx.stride(0), out.stride(0),
                                                 eps, TN=tn), out, ref, lambda s: np.s_[: s[0]], 1e-5)

    if name.startswith("matmul"):
        a, b, c, tm, tn, tkk = args
        ta, tb = T(a), T(b)
        out = torch.zeros(c.shape, dtype=torch.from_numpy(c[:0]).dtype)
        (m, k), n = a.shape, b.shape[1]
        return Case(g, lambda s: tk.matmul[s](ta, tb, out, m, n, k, *ta.stride(), *tb.stride(), *out.stride(),
                                              TM=tm, TN=tn, TK=tkk), out,
                    lambda: a.astype(np.float64) @ b.astype(np.float64),
                    lambda s: np.s_[: s[0] * tm, : s[1] * tn], 1e-5)

    if name.startswith("batch matmul"):
        a, b, c, tm, tn, tkk = args
        ta, tb = T(a), T(b)
        out = torch.zeros(c.shape, dtype=torch.from_numpy(c[:0]).dtype)
        _, m, k = a.shape
        n = b.shape[2]
        return Case(g, lambda s: tk.batch_matmul[s](ta, tb, out, m, n, k, *ta.stride(), *tb.stride(),
                                                    *out.stride(), TM=tm, TN=tn, TK=tkk), out,
                    lambda: a.astype(np.float64) @ b.astype(np.float64),
                    lambda s: np.s_[: s[2], : s[0] * tm, : s[1] * tn], 1e-5)

    if name.startswith("attention"):
        q, k, v, o, scale, tq, tkv, d = args
        tq_, tk_, tv_ = T(q), T(k), T(v)
        out = torch.zeros_like(tq_)
        s_len = q.shape[1]

        def ref():
            sc = q.astype(np.float64) @ k.astype(np.float64).transpose(0, 2, 1) * scale
            p = np.exp(sc - sc.max(-1, keepdims=True))
            return (p / p.sum(-1, keepdims=True)) @ v.astype(np.float64)
        return Case(g, lambda s: tk.attention[s](tq_, tk_, tv_, out, scale, s_len, tq_.stride(0), tq_.stride(1),
                                                 TQ=tq, TKV=tkv, D=d), out, ref,
                    lambda s: np.s_[: s[1], : s[0] * tq], 2e-2)   # f16 output, P rounded to f16

    if name.startswith("transpose"):
        x, _, tm, tn = args
        tx = T(x)
        out = torch.zeros((x.shape[1], x.shape[0]), dtype=tx.dtype)
        return Case(g, lambda s: tk.transpose[s](tx, out, x.shape[0], x.shape[1], tx.stride(0), out.stride(0),
                                                 TM=tm, TN=tn), out,
                    lambda: x.T.astype(np.float64), lambda s: np.s_[: s[1] * tn, : s[0] * tm], 0.0)

    raise KeyError(f"no Triton counterpart for row {name!r}")


# ----------------------------------------------------------------------------------------------

def _prod(s):
    return s[0] * s[1] * s[2]


def sample_grid(grid, n):
    """A rectangular prefix subgrid of about n programs (shrinking grid axis 0 first, then 1...)."""
    s = list(grid)
    for d in range(3):
        if _prod(s) <= n:
            break
        rest = _prod(s) // s[d]
        s[d] = max(1, min(s[d], n // rest))
    return tuple(s)


def _time(fn):
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def time_triton(case, budget, full=False):
    """(seconds for the full grid, how, subgrid that was last run)."""
    total = _prod(case.grid)
    one = sample_grid(case.grid, 1)
    case.launch(one)                                          # warm-up (patching, first-call paths)
    t1 = min(_time(lambda: case.launch(one)) for _ in range(3))
    if full:
        return _time(lambda: case.launch(case.grid)), f"measured, full grid of {total}", case.grid
    n = max(2, int(budget / max(t1, 1e-6)))
    sub = sample_grid(case.grid, n)
    if _prod(sub) < 2 and total >= 2:
        sub = sample_grid(case.grid, 2 * _prod(one) if _prod(one) < total else total)
    t2 = _time(lambda: case.launch(sub))
    ns = _prod(sub)
    if ns >= total:
        return t2, f"measured, full grid of {total}", sub
    per = max((t2 - t1) / (ns - _prod(one)), 0.0) if ns > _prod(one) else t2 / ns
    fixed = max(t1 - per * _prod(one), 0.0)
    return fixed + per * total, f"extrapolated from {ns}/{total} ({per*1e3:.2f}ms/prog + {fixed*1e3:.0f}ms)", sub


def check(case, sub):
    got = case.out.numpy()[case.region(sub)].astype(np.float64)
    ref = case.ref()[case.region(sub)]
    err = float(np.abs(got - ref).max()) if got.size else 0.0
    scale = max(float(np.abs(ref).max()) if ref.size else 1.0, 1e-30)
    finite = bool(np.isfinite(got).all())
    return err, finite and err <= case.tol * scale


def tilescope_time(kernel, grid, args):
    from tilescope.backends.numpy.launcher import run_kernel
    run_kernel(grid, kernel, args)
    best = math.inf
    for _ in range(3):
        best = min(best, _time(lambda: run_kernel(grid, kernel, args)))
    return best


def compare(quick=False, rows_filter=None, budget=2.0, full=False, ts_times=None, rows_fn=None, out=print):
    """Run every row; print the table and the summary; return the geometric-mean speedup."""
    if rows_fn is None:
        rows_fn = _load("bench_cpu").rows
    out(f"Triton {__import__('triton').__version__} interpreter vs tilescope"
        f"{' (--quick sizes)' if quick else ''}; Triton time per full grid, "
        f"sampled ≈{budget:g}s per row and extrapolated unless marked measured")
    out(f"{'kernel':34} {'triton':>10} {'tilescope':>10} {'speedup':>8}  {'check':14} how")
    speedups, bad = [], []
    for name, kernel, grid, args, _ in rows_fn(quick):
        if rows_filter and not any(r in name for r in rows_filter.split(",")):
            continue
        case = make_case(name, grid, args)
        tt, how, sub = time_triton(case, budget, full)
        err, ok = check(case, sub)
        ts = ts_times[name] if ts_times and name in ts_times else tilescope_time(kernel, grid, args)
        sp = tt / ts
        speedups.append(sp)
        if not ok:
            bad.append(name)
        out(f"{name:34} {tt:9.2f}s {ts*1e3:8.1f}ms {sp:7.0f}x  {('ok' if ok else 'MISMATCH'):8} {err:5.0e} {how}")
    if not speedups:
        return float("nan")
    gm = math.exp(sum(map(math.log, speedups)) / len(speedups))
    out(f"geometric mean speedup over Triton's interpreter: {gm:.0f}x (goal ≥ {GOAL:.0f}x, "
        f"{'met' if gm >= GOAL else 'NOT met'}); worst {min(speedups):.0f}x"
        + (f"; Triton results WRONG for: {', '.join(bad)}" if bad else "; Triton results match NumPy"))
    return gm


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="bench/cpu.py's smaller problems")
    ap.add_argument("--rows", help="comma-separated substrings of row names to run")
    ap.add_argument("--budget", type=float, default=2.0, help="seconds of interpreter time to sample per row")
    ap.add_argument("--full", action="store_true", help="time the interpreter on every full grid (slow)")
    a = ap.parse_args()
    try:
        import torch  # noqa: F401
        import triton  # noqa: F401
    except ImportError as e:
        print(f"Triton interpreter: not measured ({e})")
        return 1
    compare(a.quick, a.rows, a.budget, a.full)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
