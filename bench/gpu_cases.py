"""The kernels bench/gpu_validate.py runs: how to make their arguments at a check size and at a size
that fills the GPU, and how to judge their outputs.

`make(r, **size)` returns (args, grid, roles): args in kernel order (arrays from `r`, scalars,
constants); roles[i] in {"in", "out", "inout", None} (None: not an array). `r` is a Rand (NumPy or
CuPy data) or a ShapeRand (shapes and dtypes only: what a launch's signature depends on).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, List, Optional

import numpy as np

REALISTIC = "tests/corpus/realistic/kernels.py"
GATHER = "tests/corpus/memory/gather_scatter.py"


def cdiv(a, b):
    return -(-a // b)


# --------------------------------------------------------------------------------------------
# Cases. `make(r, size)` returns (args, grid, roles): args in kernel order (arrays from r, scalars,
# constants); roles[i] in {"in", "out", "inout", None} for arrays (None: not an array). `r` is a
# small random-source adaptor so the same code makes NumPy (check) and CuPy (timing) inputs.
# --------------------------------------------------------------------------------------------

@dataclass
class Case:
    name: str
    file: str
    kernel: str
    spec: str
    make: Callable
    check: dict
    time: dict
    compare: str = "float"          # "exact" (bitwise) or "float"
    tol: float = 1e-5               # max |got - ref| / max |ref| for "float"
    flops: Optional[Callable] = None
    nbytes: Optional[Callable] = None
    note: str = ""


class Rand:
    """normal/uniform/int arrays from NumPy or CuPy with one seed; bf16 as raw uint16 bits."""

    def __init__(self, xp, seed):
        self.xp = xp
        self.rs = xp.random.RandomState(seed)

    def normal(self, shape, dtype="float32", scale=1.0):
        x = self.rs.standard_normal(shape).astype(self.xp.float32) * scale
        return self.cast(x, dtype)

    def cast(self, x, dtype):
        xp = self.xp
        if dtype == "bfloat16":
            bits = x.astype(xp.float32).view(xp.uint32)
            rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16      # round to nearest even
            return rounded.astype(xp.uint16)
        return x.astype(dtype)

    def ints(self, lo, hi, shape, dtype="int32"):
        return self.rs.randint(lo, hi, size=shape).astype(dtype)

    def empty(self, shape, dtype):
        return self.xp.empty(shape, dtype="uint16" if dtype == "bfloat16" else dtype)

    def zeros(self, shape, dtype):
        return self.xp.zeros(shape, dtype="uint16" if dtype == "bfloat16" else dtype)

    def perm(self, n):
        return self.xp.asarray(np.random.RandomState(7).permutation(n))


class Shape:
    """An array known only by shape and dtype (what a launch derives a signature from)."""

    def __init__(self, shape, dtype):
        self.shape = (shape,) if isinstance(shape, int) else tuple(shape)
        self.dtype = np.dtype("uint16" if dtype == "bfloat16" else dtype)

    def astype(self, dtype):
        return Shape(self.shape, dtype)

    def __getitem__(self, key):
        return Shape(np.empty(self.shape, np.bool_)[key].shape, self.dtype)

    def __setitem__(self, key, value):
        pass


class ShapeRand:
    """Rand's interface, making Shapes: no data, no memory."""
    shape_only = True

    def normal(self, shape, dtype="float32", scale=1.0):
        return Shape(shape, dtype)

    def ints(self, lo, hi, shape, dtype="int32"):
        return Shape(shape, dtype)

    def empty(self, shape, dtype):
        return Shape(shape, dtype)

    zeros = empty

    def perm(self, n):
        return Shape(n, "int64")


def _vadd(dtype):
    def make(r, n):
        a, b = r.normal(n, dtype), r.normal(n, dtype)
        return [a, b, r.empty(n, dtype), 1024 if dtype == "float32" else 256], (cdiv(n, 1024 if dtype == "float32" else 256),), \
            ["in", "in", "out", None]
    return make


def _softmax(r, rows, cols, dtype="float32", tile=1024):
    return [r.normal((rows, cols), dtype), r.empty((rows, cols), dtype), tile], (rows,), ["in", "out", None]


def _layernorm(r, rows, cols):
    return [r.normal((rows, cols)), r.normal(cols), r.normal(cols), r.empty((rows, cols), "float32"), 1e-5, 256], \
        (rows,), ["in", "in", "in", "out", None, None]


def _rmsnorm(r, rows, cols):
    return [r.normal((rows, cols), "bfloat16"), r.normal(cols, "bfloat16"), r.empty((rows, cols), "bfloat16"), 1e-6, 1024], \
        (rows,), ["in", "in", "out", None, None]


def _matmul(in_dt, out_dt, tiles):
    def make(r, m, n, k):
        a = r.normal((m, k), in_dt, 0.25)
        b = r.normal((k, n), in_dt, 0.25)
        tm, tn, tk = tiles
        return [a, b, r.empty((m, n), out_dt), tm, tn, tk], (cdiv(m, tm), cdiv(n, tn)), ["in", "in", "out", None, None, None]
    return make


def _swizzled(in_dt, out_dt, tiles):
    def make(r, m, n, k):
        a = r.normal((m, k), in_dt, 0.25)
        b = r.normal((k, n), in_dt, 0.25)
        tm, tn, tk, g = tiles
        return [a, b, r.empty((m, n), out_dt), tm, tn, tk, g], (cdiv(m, tm) * cdiv(n, tn),), \
            ["in", "in", "out", None, None, None, None]
    return make


def _batch_matmul(r, batch, m, n, k):
    a, b = r.normal((batch, m, k), "float16", 0.25), r.normal((batch, k, n), "float16", 0.25)
    return [a, b, r.empty((batch, m, n), "float32"), 64, 64, 32], (cdiv(m, 64), cdiv(n, 64), batch), \
        ["in", "in", "out", None, None, None]


def _attention(r, bh, s, d=64):
    q, k, v = (r.normal((bh, s, d), "float16") for _ in range(3))
    return [q, k, v, r.empty((bh, s, d), "float16"), float(1 / np.sqrt(d)), 64, 64, d], (s // 64, bh), \
        ["in", "in", "in", "out", None, None, None, None]


def _transpose(r, m, n):
    return [r.normal((m, n)), r.empty((n, m), "float32"), 64, 64], (cdiv(m, 64), cdiv(n, 64)), ["in", "out", None, None]


def _histogram(r, n):
    return [r.ints(0, 256, n, "uint8"), r.zeros(256, "int32"), 1024], (cdiv(n, 1024),), ["in", "inout", None]


def _gather(r, n):
    idx = r.ints(-8, n + 8, 128, "int32")            # a few out-of-bounds indices (padded with 0)
    return [r.normal(n), idx, r.empty(128, "float32")], (1,), ["in", "in", "out"]


def _scatter(r, n):
    idx = r.perm(n)[:64].astype("int32")
    idx[::7] = -1                                    # masked off (mask=ind >= 0)
    return [r.normal(n), idx, r.normal(64)], (1,), ["inout", "in", "in"]


def _layernorm_bwd_lock(r, rows, cols, groups=8):
    x, dy, w = r.normal((rows, cols)), r.normal((rows, cols)), r.normal(cols)
    if getattr(r, "shape_only", False):
        mean = rstd = r.empty(rows, "float32")
    else:
        xs = np.asarray(x.get() if hasattr(x, "get") else x, dtype=np.float64)
        mean = r.xp.asarray(xs.mean(axis=1).astype(np.float32))
        rstd = r.xp.asarray((1 / np.sqrt(xs.var(axis=1) + 1e-5)).astype(np.float32))
    return [dy, x, w, mean, rstd, r.empty((rows, cols), "float32"), r.zeros((groups, cols), "float32"),
            r.zeros(groups, "int32"), r.zeros(groups, "int32"), groups, 256], (rows,), \
        ["in", "in", "in", "in", "in", "out", "inout", "inout", "inout", None, None]


def _persistent(r, m, n, k, programs=16):
    a, b = r.normal((m, k), "float16", 0.25), r.normal((k, n), "float16", 0.25)
    return [a, b, r.empty((m, n), "float16"), 128, 128, 64], (programs,), ["in", "in", "out", None, None, None]


def _mm_flops(m, n, k, batch=1):
    return 2.0 * m * n * k * batch


CASES: List[Case] = [
    Case("vector_add_f32", "examples/vector_add.py", "vector_add", "f32[?], f32[?], f32[?], 1024", _vadd("float32"),
         {"n": 262_147}, {"n": 1 << 26}, "exact", nbytes=lambda n: 12 * n),
    Case("vector_add_f16", REALISTIC, "vector_add", "f16[?], f16[?], f16[?], 256", _vadd("float16"),
         {"n": 300_001}, {"n": 1 << 26}, "exact", nbytes=lambda n: 6 * n),
    Case("softmax_f32", "examples/softmax.py", "softmax", "f32[?,?], f32[?,?], 1024",
         lambda r, rows, cols: _softmax(r, rows, cols), {"rows": 512, "cols": 1000}, {"rows": 65536, "cols": 1024},
         tol=1e-6, nbytes=lambda rows, cols: 8 * rows * cols),
    Case("row_softmax_f16", REALISTIC, "row_softmax", "f16[?,?], f16[?,?], 512",
         lambda r, rows, cols: _softmax(r, rows, cols, "float16", 512), {"rows": 256, "cols": 500},
         {"rows": 131072, "cols": 512}, tol=1e-3, nbytes=lambda rows, cols: 4 * rows * cols),
    Case("layernorm_f32", "examples/layernorm.py", "layernorm", "f32[?,?], f32[?], f32[?], f32[?,?], f32, 256",
         _layernorm, {"rows": 256, "cols": 1000}, {"rows": 16384, "cols": 4096}, tol=1e-5,
         nbytes=lambda rows, cols: 8 * rows * cols),
    Case("rmsnorm_bf16", REALISTIC, "rmsnorm", "bf16[?,?], bf16[?], bf16[?,?], f32, 1024", _rmsnorm,
         {"rows": 128, "cols": 1000}, {"rows": 65536, "cols": 1024}, tol=1e-2, nbytes=lambda rows, cols: 4 * rows * cols),
    Case("matmul_f16_f32acc", "examples/matmul.py", "matmul", "f16[?,?], f16[?,?], f32[?,?], 64, 64, 32",
         _matmul("float16", "float32", (64, 64, 32)), {"m": 300, "n": 200, "k": 160}, {"m": 4096, "n": 4096, "k": 4096},
         tol=1e-5, flops=_mm_flops),
    Case("matmul_f32", "examples/matmul.py", "matmul", "f32[?,?], f32[?,?], f32[?,?], 64, 64, 32",
         _matmul("float32", "float32", (64, 64, 32)), {"m": 256, "n": 192, "k": 160}, {"m": 2048, "n": 2048, "k": 2048},
         tol=1e-5, flops=_mm_flops),
    Case("matmul_swizzled_f16", REALISTIC, "matmul_swizzled", "f16[?,?], f16[?,?], f16[?,?], 128, 128, 32, 8",
         _swizzled("float16", "float16", (128, 128, 32, 8)), {"m": 256, "n": 256, "k": 256},
         {"m": 4096, "n": 4096, "k": 4096}, tol=2e-3, flops=_mm_flops),
    Case("matmul_swizzled_bf16", REALISTIC, "matmul_swizzled", "bf16[?,?], bf16[?,?], f32[?,?], 64, 64, 64, 4",
         _swizzled("bfloat16", "float32", (64, 64, 64, 4)), {"m": 256, "n": 192, "k": 256},
         {"m": 4096, "n": 4096, "k": 4096}, tol=1e-5, flops=_mm_flops),
    Case("batch_matmul_f16", "examples/matmul.py", "batch_matmul", "f16[?,?,?], f16[?,?,?], f32[?,?,?], 64, 64, 32",
         _batch_matmul, {"batch": 4, "m": 128, "n": 128, "k": 64}, {"batch": 32, "m": 1024, "n": 1024, "k": 1024},
         tol=1e-5, flops=lambda batch, m, n, k: _mm_flops(m, n, k, batch)),
    Case("attention_f16", "examples/attention.py", "attention",
         "f16[?,?,?], f16[?,?,?], f16[?,?,?], f16[?,?,?], f32, 64, 64, 64", _attention,
         {"bh": 2, "s": 256}, {"bh": 32, "s": 4096}, tol=2e-3, flops=lambda bh, s: 4.0 * bh * s * s * 64),
    Case("transpose_f32", "examples/transpose.py", "transpose", "f32[?,?], f32[?,?], 64, 64", _transpose,
         {"m": 512, "n": 320}, {"m": 8192, "n": 8192}, "exact", nbytes=lambda m, n: 8 * m * n),
    Case("histogram_atomic", REALISTIC, "histogram_atomic", "u8[?], i32[?], 1024", _histogram,
         {"n": 100_000}, {"n": 1 << 26}, "exact", nbytes=lambda n: n),
    Case("gather_1d", GATHER, "gather_1d", "f32[?], i32[?], f32[?]", _gather, {"n": 1024}, {"n": 1024}, "exact",
         note="one block: launch-bound"),
    Case("scatter_1d", GATHER, "scatter_1d", "f32[?], i32[?], f32[?]", _scatter, {"n": 1024}, {"n": 1024}, "exact",
         note="one block: launch-bound"),
    Case("layernorm_bwd_spinlock", REALISTIC, "layernorm_bwd_dx_partial_dw",
         "f32[?,?], f32[?,?], f32[?], f32[?], f32[?], f32[?,?], f32[?,?], i32[?], i32[?], 8, 256",
         _layernorm_bwd_lock, {"rows": 512, "cols": 256}, {"rows": 8192, "cols": 256}, "float", tol=1e-5,
         note="CAS/xchg spin lock per row group; partial sums in lock order"),
    Case("matmul_persistent_f16", REALISTIC, "matmul_persistent", "f16[?,?], f16[?,?], f16[?,?], 128, 128, 64",
         _persistent, {"m": 512, "n": 384, "k": 256}, {"m": 4096, "n": 4096, "k": 4096}, "float", tol=2e-3,
         flops=lambda m, n, k: _mm_flops(m, n, k), note="16 programs loop over the output tiles"),
]


def case_named(name) -> Case:
    for c in CASES:
        if c.name == name:
            return c
    raise KeyError(name)
