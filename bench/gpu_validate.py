"""Validate tilescope-built cubins on a GPU against the CPU executor and upstream-built cubins.

    python bench/gpu_validate.py prepare [--out .gpuval] [--only NAME,...]   # here: needs tileiras + cuda-tile
    python bench/gpu_validate.py run [--dir .gpuval] [--json OUT.json]       # on the GPU machine: needs CuPy
    python bench/gpu_validate.py run --mock                                  # here: CPU executor stands in
    python bench/gpu_validate.py report RESULTS.json [--doc docs/gpu-validation.md]

`prepare` builds, for every case, (a) a tilescope cubin (our TileIR bytecode → tileiras) and (b) an
upstream cubin (cuTile 1.7.0 `export_kernel` bytecode → the same tileiras with the same flags),
generates check-size inputs, runs the CPU executor on them and writes everything to `.gpuval/`.
`run` launches both cubins on the check inputs (tilescope vs CPU executor: bit-exact for integer
and data-movement kernels, within a dtype tolerance for floating point; tilescope vs upstream), then
times both at a larger size (CUDA events, warm-up, median of ≥ 20 rounds, the two interleaved).
"""
from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))

REALISTIC = "tests/corpus/realistic/kernels.py"
GATHER = "tests/corpus/memory/gather_scatter.py"
BYTECODE = "13.3"
ARCH = "sm_90"


def cpu_launch(grid, kernel, args):
    from tilescope.run import launch
    launch(grid, kernel, args)


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


def _case(name) -> Case:
    for c in CASES:
        if c.name == name:
            return c
    raise KeyError(name)


# --------------------------------------------------------------------------------------------
# prepare (here)
# --------------------------------------------------------------------------------------------

def _dt_name(a) -> str:
    return str(a.dtype)


def _as_cpu_array(a, dtype):
    """Host arrays for the CPU executor: bf16 raw bits become ml_dtypes.bfloat16 views."""
    if dtype == "bfloat16":
        import ml_dtypes
        return a.view(ml_dtypes.bfloat16)
    return a


def _array_dtypes(case: Case) -> List[Optional[str]]:
    from tilescope.meta import MetaTensor, parse_args
    return [s.dtype.name if isinstance(s, MetaTensor) else None for s in parse_args(case.spec)]


def _poison(a):
    """Fill an output with a recognisable pattern (NaN for floats, 0x5A5A... for ints)."""
    if a.dtype.kind == "f":
        a[...] = np.nan
    else:
        a.view(np.uint8)[...] = 0x5A
    return a


def _upstream_cubin(case: Case, toolchain) -> bytes:
    import cuda.tile  # noqa: F401  (the real package)
    from cuda.tile.compilation import CallingConvention, KernelSignature, export_kernel
    from tilescope.meta import parse_args
    import io
    path = os.path.join(ROOT, case.file)
    name = "gpuval_upstream_" + os.path.splitext(os.path.basename(path))[0]
    mod = sys.modules.get(name)
    if mod is None:
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    sig = KernelSignature([s.to_upstream() for s in parse_args(case.spec)],
                          calling_convention=CallingConvention.cutile_python_v1())
    buf = io.BytesIO()
    export_kernel(getattr(mod, case.kernel), [sig], buf, output_format="tileir_bytecode", bytecode_version=BYTECODE)
    return toolchain.assemble(buf.getvalue(), ARCH, where=f"upstream {case.name}")


def _example_launches():
    """(file, kernel, args) shaped like each example script's own `ct.launch` (dtypes and scalar types
    decide the signature, sizes do not)."""
    f16, f32 = np.float16, np.float32
    v = lambda *shape, dt=f32: np.zeros(shape, dt)  # noqa: E731
    return [
        ("examples/vector_add.py", "vector_add", (v(8), v(8), v(8), 1024)),
        ("examples/softmax.py", "softmax", (v(2, 8), v(2, 8), 1024)),
        ("examples/layernorm.py", "layernorm", (v(2, 8), v(8), v(8), v(2, 8), 1e-5, 256)),
        ("examples/matmul.py", "matmul", (v(8, 8, dt=f16), v(8, 8, dt=f16), v(8, 8), 64, 64, 32)),
        ("examples/attention.py", "attention", (v(1, 8, 8, dt=f16), v(1, 8, 8, dt=f16), v(1, 8, 8, dt=f16),
                                                 v(1, 8, 8, dt=f16), 1 / np.sqrt(64), 64, 64, 64)),
        ("examples/transpose.py", "transpose", (v(8, 8), v(8, 8), 64, 64)),
    ]


def prepare_bundle(out: str) -> None:
    """An artifact bundle for the example scripts (`tilescope run --device gpu --bundle DIR`) and the
    launch-API check; every key is checked to be the one a launch with such arguments computes."""
    from tilescope.gpu import build, key_for
    from tilescope.gpu.artifact import launch_specs
    from tilescope.gpu.bundle import add
    from tilescope.lang.shim import load_file
    for file, name, args in _example_launches():
        kernel = getattr(load_file(os.path.join(ROOT, file)), name)
        art = build(kernel, launch_specs(kernel, args)[1], ARCH, BYTECODE)
        key, sig = key_for(kernel, args, ARCH, BYTECODE)
        assert key == art.key, (name, sig, art.signature)
        add(out, art)
        print(f"bundle: {name}({sig})", flush=True)


def prepare(out: str, only: Optional[Sequence[str]] = None) -> None:
    import tilescope
    from tilescope.backends.tileir import find_toolchain
    from tilescope.gpu import Artifact, build
    from tilescope.lang.shim import load_file
    toolchain = find_toolchain()
    os.makedirs(out, exist_ok=True)
    manifest = {"created": datetime.datetime.now().isoformat(timespec="seconds"), "arch": ARCH,
                "bytecode_version": BYTECODE, "tilescope": tilescope.__version__, "cases": {}}
    path = os.path.join(out, "manifest.json")
    if only and os.path.exists(path):              # refresh some cases, keep the others
        with open(path) as f:
            manifest["cases"] = json.load(f)["cases"]
    for case in CASES:
        if only and case.name not in only:
            continue
        t0 = time.perf_counter()
        entry: Dict[str, Any] = {"file": case.file, "kernel": case.kernel, "spec": case.spec}
        cdir = os.path.join(out, case.name)
        os.makedirs(cdir, exist_ok=True)
        kernel = getattr(load_file(os.path.join(ROOT, case.file)), case.kernel)
        try:
            ours = build(kernel, case.spec, ARCH, BYTECODE)
            ours.save(cdir, "tilescope")
            entry["tilescope"] = {"symbol": ours.symbol, "block": ours.block, "static_shared": ours.static_shared}
        except Exception as e:  # noqa: BLE001 - recorded, the case fails in `run`
            entry["tilescope_error"] = f"{type(e).__name__}: {e}"
            ours = None
        try:
            cubin = _upstream_cubin(case, toolchain)
            if ours is None:
                raise RuntimeError("no tilescope layout to pair with")
            up = Artifact.from_cubin(cubin, ours.layout, kernel=case.kernel, signature=ours.signature, arch=ARCH,
                                     bytecode_version=BYTECODE, key="upstream", origin="upstream")
            up.save(cdir, "upstream")
            entry["upstream"] = {"symbol": up.symbol, "block": up.block, "static_shared": up.static_shared}
        except Exception as e:  # noqa: BLE001
            entry["upstream_error"] = f"{type(e).__name__}: {e}"
        # check-size inputs and the CPU executor's outputs
        args, grid, roles = case.make(Rand(np, 1234), **case.check)
        dtypes = _array_dtypes(case)
        arrays = {}
        for i, (a, role) in enumerate(zip(args, roles)):
            if role == "out":
                _poison(a)
            if role is not None:
                arrays[f"in{i}"] = np.array(a)
        cpu_args = [_as_cpu_array(a, dtypes[i]) if roles[i] else a for i, a in enumerate(args)]
        t1 = time.perf_counter()
        cpu_launch(grid, kernel, cpu_args)
        entry["cpu_seconds"] = round(time.perf_counter() - t1, 3)
        for i, role in enumerate(roles):
            if role in ("out", "inout"):
                arrays[f"expect{i}"] = np.array(args[i])
        np.savez(os.path.join(cdir, "check.npz"), **arrays)
        entry.update({"grid": list(grid), "roles": roles, "dtypes": dtypes,
                      "scalars": {str(i): a for i, a in enumerate(args) if roles[i] is None}})
        manifest["cases"][case.name] = entry
        print(f"{case.name:24s} prepared in {time.perf_counter() - t0:5.1f}s (CPU executor {entry['cpu_seconds']}s)"
              + ("" if "tilescope" in entry else "  TILESCOPE BUILD FAILED")
              + ("" if "upstream" in entry else "  UPSTREAM BUILD FAILED"), flush=True)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    if not only:
        prepare_bundle(os.path.join(out, "bundle"))


def api_check(directory: str) -> dict:
    """`tilescope.gpu.launch` itself, on CuPy arrays and torch CUDA tensors, with the bundle."""
    import cupy as cp
    import tilescope.gpu as tg
    from tilescope.lang.shim import load_file
    bundle = os.path.join(directory, "bundle")
    out = {}
    va = load_file(os.path.join(ROOT, "examples/vector_add.py")).vector_add
    n = 1_000_000
    a, b = cp.random.rand(n, dtype=cp.float32), cp.random.rand(n, dtype=cp.float32)
    c = cp.full(n, cp.nan, cp.float32)
    art = tg.launch((cdiv(n, 1024),), va, (a, b, c, 1024), bundle=bundle)
    cp.cuda.get_current_stream().synchronize()
    out["vector_add_cupy"] = {"exact": bool((c == a + b).all()), "block": art.block, "symbol": art.symbol}
    try:
        import torch
        ln = load_file(os.path.join(ROOT, "examples/layernorm.py")).layernorm
        x = torch.randn(512, 1000, device="cuda")
        w, bb = torch.randn(1000, device="cuda"), torch.randn(1000, device="cuda")
        y = torch.full_like(x, float("nan"))
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            tg.launch((512,), ln, (x, w, bb, y, 1e-5, 256), bundle=bundle, stream=s)
        s.synchronize()
        ref = torch.nn.functional.layer_norm(x.double(), (1000,), w.double(), bb.double(), 1e-5)
        out["layernorm_torch_stream"] = {"max_abs_err": float((y.double() - ref).abs().max())}
    except Exception as e:  # noqa: BLE001
        out["layernorm_torch_stream"] = {"error": f"{type(e).__name__}: {e}"}
    try:
        tg.launch((1,), va, (a, b, c, 512), bundle=bundle)
        out["missing_entry"] = "no error (unexpected)"
    except tg.GPUError as e:
        out["missing_entry"] = "GPUError as expected: " + str(e)[:100]
    for k, v in out.items():
        print(f"api {k}: {v}", flush=True)
    return out


# --------------------------------------------------------------------------------------------
# run (GPU machine, or --mock here)
# --------------------------------------------------------------------------------------------

class CupyBackend:
    """Device memory, launches and CUDA-event timing through CuPy."""
    name = "cupy"

    def __init__(self):
        import cupy
        self.cp = cupy
        self.xp = cupy

    def device(self) -> str:
        cp = self.cp
        props = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)
        return f"{props['name'].decode()} (sm_{cp.cuda.Device().compute_capability}), driver " \
               f"{cp.cuda.runtime.driverGetVersion()}, CuPy {cp.__version__}"

    def to_device(self, a):
        return self.cp.asarray(a)

    def to_host(self, a):
        return self.cp.asnumpy(a)

    def prepare_launch(self, artifact, grid, args, dtypes):
        from tilescope.gpu import DeviceArray, describe, load_function, pack
        from tilescope.run import normalize_grid
        fn = load_function(artifact)
        dev = [DeviceArray(a, dtype=dtypes[i]) if dtypes[i] == "bfloat16" else a for i, a in enumerate(args)]
        params = tuple(pack(artifact.layout, dev, describe))
        grid3, block = normalize_grid(grid), artifact.block
        return lambda: fn(grid3, block, params, shared_mem=0)

    def sync(self):
        self.cp.cuda.get_current_stream().synchronize()

    def time_rounds(self, launches: Dict[str, Callable], rounds: int, reps: int) -> Dict[str, List[float]]:
        """Per-launch milliseconds of each variant for `rounds` rounds of `reps` back-to-back launches,
        the variants interleaved round by round (so clock drift hits them alike)."""
        cp = self.cp
        out = {k: [] for k in launches}
        for _ in range(rounds):
            for k, go in launches.items():
                start, end = cp.cuda.Event(), cp.cuda.Event()
                start.record()
                for _ in range(reps):
                    go()
                end.record()
                end.synchronize()
                out[k].append(cp.cuda.get_elapsed_time(start, end) / reps)
        return out


class MockBackend:
    """Stands in for the GPU here: 'launching' an artifact runs the CPU executor on the case's kernel
    after packing the parameters exactly as for the GPU; timing uses the host clock."""
    name = "mock"

    def __init__(self):
        self.xp = np
        self.kernel_of: Dict[str, Any] = {}

    def device(self) -> str:
        return "mock (CPU executor; no GPU)"

    def to_device(self, a):
        return np.array(a)

    def to_host(self, a):
        return np.array(a)

    def prepare_launch(self, artifact, grid, args, dtypes):
        import tilescope
        from tilescope.gpu import DeviceArray, describe, pack
        from tilescope.gpu.abi import DeviceArrayInfo

        def host_describe(x):
            if isinstance(x, DeviceArray):
                return x.info()
            from tilescope.dtypes import dtype_from_numpy
            return DeviceArrayInfo(x.ctypes.data, x.shape, tuple(s // x.itemsize for s in x.strides),
                                   dtype_from_numpy(x.dtype).name, x.itemsize)
        dev = [DeviceArray(ptr=a.ctypes.data, shape=a.shape, dtype=dtypes[i]) if dtypes[i] == "bfloat16" else a
               for i, a in enumerate(args)]
        pack(artifact.layout, dev, host_describe)          # the same packing and checks as on the GPU
        kernel = self.kernel_of[artifact.kernel]
        cpu_args = [_as_cpu_array(a, dtypes[i]) if dtypes[i] else a for i, a in enumerate(args)]
        return lambda: cpu_launch(grid, kernel, cpu_args)

    def sync(self):
        pass

    def time_rounds(self, launches, rounds, reps):
        out = {k: [] for k in launches}
        for _ in range(rounds):
            for k, go in launches.items():
                t = time.perf_counter()
                for _ in range(reps):
                    go()
                out[k].append((time.perf_counter() - t) * 1e3 / reps)
        return out


def _compare(got: np.ndarray, ref: np.ndarray, dtype: Optional[str], mode: str, tol: float) -> dict:
    """Bitwise equality, and for floats the max error relative to the reference's largest magnitude."""
    exact = got.tobytes() == ref.tobytes()
    res = {"bitwise": exact, "mismatches": 0, "rel_err": 0.0}
    if not exact:
        res["mismatches"] = int(np.count_nonzero(got.view(np.uint8).reshape(got.size, -1) !=
                                                 ref.view(np.uint8).reshape(ref.size, -1)) if got.size else 0)
    if dtype == "bfloat16":
        import ml_dtypes
        g, r = got.view(ml_dtypes.bfloat16).astype(np.float64), ref.view(ml_dtypes.bfloat16).astype(np.float64)
    elif got.dtype.kind == "f":
        g, r = got.astype(np.float64), ref.astype(np.float64)
    else:
        g = r = None
    if g is not None and not exact:
        bad = np.isnan(g) != np.isnan(r)
        scale = float(np.nanmax(np.abs(r))) if np.isfinite(r).any() else 1.0
        diff = np.abs(np.nan_to_num(g - r, nan=0.0))
        res["rel_err"] = float(diff.max() / (scale or 1.0)) if diff.size else 0.0
        res["nan_mismatch"] = int(bad.sum())
        res["ok"] = bool(res["rel_err"] <= tol and not bad.any()) if mode == "float" else False
    else:
        res["ok"] = exact
    return res


def run(directory: str, backend, *, only=None, rounds: int = 25, json_out: Optional[str] = None,
        time_budget_s: float = 400.0, extra: Optional[dict] = None) -> dict:
    from tilescope.gpu import Artifact
    with open(os.path.join(directory, "manifest.json")) as f:
        manifest = json.load(f)
    results = {"date": datetime.date.today().isoformat(), "device": backend.device(), "backend": backend.name,
               "manifest_created": manifest["created"], "rounds": rounds, "cases": {}, **(extra or {})}
    t_start = time.perf_counter()
    for name, entry in manifest["cases"].items():
        if only and name not in only:
            continue
        case = _case(name)
        res: Dict[str, Any] = {"compare": case.compare, "tol": case.tol, "note": case.note}
        results["cases"][name] = res
        cdir = os.path.join(directory, name)
        arts = {}
        for origin in ("tilescope", "upstream"):
            if origin in entry:
                arts[origin] = Artifact.load(os.path.join(cdir, origin))
            else:
                res[f"{origin}_error"] = entry.get(f"{origin}_error", "not built")
        if isinstance(backend, MockBackend):
            from tilescope.lang.shim import load_file
            backend.kernel_of[case.kernel] = getattr(load_file(os.path.join(ROOT, case.file)), case.kernel)
        roles, dtypes = entry["roles"], entry["dtypes"]
        # -- correctness at the check size --------------------------------------------------
        data = np.load(os.path.join(cdir, "check.npz"))
        outs = {}
        for origin, art in arts.items():
            try:
                args = []
                for i, role in enumerate(roles):
                    args.append(backend.to_device(data[f"in{i}"]) if role else entry["scalars"][str(i)])
                backend.prepare_launch(art, entry["grid"], args, dtypes)()
                backend.sync()
                outs[origin] = {i: backend.to_host(args[i]) for i, r in enumerate(roles) if r in ("out", "inout")}
                res[f"{origin}_vs_cpu"] = _merge([_compare(outs[origin][i], data[f"expect{i}"], dtypes[i],
                                                           case.compare, case.tol) for i in outs[origin]])
            except Exception as e:  # noqa: BLE001 - record and go on with the other cases
                res[f"{origin}_error"] = f"{type(e).__name__}: {e}"
        if "tilescope" in outs and "upstream" in outs:
            res["tilescope_vs_upstream"] = _merge([_compare(outs["tilescope"][i], outs["upstream"][i], dtypes[i],
                                                            case.compare, case.tol) for i in outs["tilescope"]])
        # -- timing at the timing size ----------------------------------------------------------
        if time.perf_counter() - t_start > time_budget_s:
            res["timing_skipped"] = "time budget of the run used up"
            continue
        size = case.check if isinstance(backend, MockBackend) else case.time
        res["time_size"] = size
        try:
            targs, tgrid, _ = case.make(Rand(backend.xp, 99), **size)
            launches = {o: backend.prepare_launch(a, tgrid, targs, dtypes) for o, a in arts.items()}
            for go in launches.values():          # warm-up (module load, clocks)
                for _ in range(3):
                    go()
            backend.sync()
            probe = backend.time_rounds(launches, 1, 1)
            per = max(min(v[0] for v in probe.values()), 1e-4)
            reps = int(min(50, max(1, 2.0 / per))) if not isinstance(backend, MockBackend) else 1
            r = rounds if not isinstance(backend, MockBackend) else 3
            times = backend.time_rounds(launches, r, reps)
            res["reps_per_round"] = reps
            for o, ts in times.items():
                res[f"{o}_ms"] = float(np.median(ts))
                res[f"{o}_ms_spread"] = [float(np.min(ts)), float(np.max(ts))]
            if "tilescope_ms" in res and "upstream_ms" in res:
                res["ratio"] = res["tilescope_ms"] / res["upstream_ms"]
            if case.flops:
                res["tflops_tilescope"] = case.flops(**size) / (res.get("tilescope_ms", np.nan) * 1e-3) / 1e12
            if case.nbytes:
                res["gbps_tilescope"] = case.nbytes(**size) / (res.get("tilescope_ms", np.nan) * 1e-3) / 1e9
        except Exception as e:  # noqa: BLE001
            res["timing_error"] = f"{type(e).__name__}: {e}"
        print(_row(name, res), flush=True)
    results["seconds"] = round(time.perf_counter() - t_start, 1)
    if json_out:
        with open(json_out, "w") as f:
            json.dump(results, f, indent=1, default=str)
    return results


def _merge(parts: List[dict]) -> dict:
    out = {"ok": all(p["ok"] for p in parts), "bitwise": all(p["bitwise"] for p in parts),
           "mismatches": sum(p["mismatches"] for p in parts), "rel_err": max(p["rel_err"] for p in parts)}
    return out


def _verdict(c: Optional[dict]) -> str:
    if c is None:
        return "—"
    if c["bitwise"]:
        return "bit-exact"
    return ("ok" if c["ok"] else "FAIL") + f" ({c['rel_err']:.1e}, {c['mismatches']} diff)"


def _row(name, res) -> str:
    ratio = f"{res['ratio']:.3f}" if "ratio" in res else "—"
    ts = f"{res['tilescope_ms']:.4f}" if "tilescope_ms" in res else "—"
    up = f"{res['upstream_ms']:.4f}" if "upstream_ms" in res else "—"
    errs = "; ".join(f"{k}: {v}" for k, v in res.items() if k.endswith("_error"))
    return (f"{name:22s} vs CPU: {_verdict(res.get('tilescope_vs_cpu')):28s} vs upstream: "
            f"{_verdict(res.get('tilescope_vs_upstream')):28s} ts {ts} ms  up {up} ms  ratio {ratio}"
            + (f"  [{errs}]" if errs else ""))


# --------------------------------------------------------------------------------------------
# report
# --------------------------------------------------------------------------------------------

BEGIN, END = "<!-- gpu-validate:begin -->", "<!-- gpu-validate:end -->"


def _size_text(size: dict) -> str:
    return "×".join(str(v) for v in size.values()) if size else ""


def report_table(results: dict) -> str:
    lines = [f"Run of {results['date']} on {results['device']} (backend `{results['backend']}`, "
             f"inputs prepared {results['manifest_created']}, {results['seconds']} s).", "",
             "| kernel | tilescope vs CPU executor | tilescope vs upstream | upstream vs CPU | timing size | "
             "tilescope ms | upstream ms | ratio | tilescope rate |",
             "|---|---|---|---|---|---:|---:|---:|---:|"]
    for name, res in results["cases"].items():
        rate = ""
        if "tflops_tilescope" in res:
            rate = f"{res['tflops_tilescope']:.1f} TFLOP/s"
        elif "gbps_tilescope" in res:
            rate = f"{res['gbps_tilescope']:.0f} GB/s"
        ts = f"{res['tilescope_ms']:.4f}" if "tilescope_ms" in res else "—"
        up = f"{res['upstream_ms']:.4f}" if "upstream_ms" in res else "—"
        ratio = f"{res['ratio']:.3f}" if "ratio" in res else "—"
        vs_cpu = _verdict(res.get("tilescope_vs_cpu"))
        if "tilescope_error" in res:
            vs_cpu = "ERROR: " + res["tilescope_error"].replace("|", "/")[:120]
        vs_up = _verdict(res.get("upstream_vs_cpu"))
        if "upstream_error" in res:
            vs_up = "ERROR: " + res["upstream_error"].replace("|", "/")[:120]
        note = f" ({res['note']})" if res.get("note") else ""
        if "timing_error" in res:
            note += " timing error: " + res["timing_error"].replace("|", "/")[:100]
        lines.append(f"| {name}{note} | {vs_cpu} | {_verdict(res.get('tilescope_vs_upstream'))} | {vs_up} | "
                     f"{_size_text(res.get('time_size', {}))} | {ts} | {up} | {ratio} | {rate} |")
    ratios = [r["ratio"] for r in results["cases"].values() if "ratio" in r and not r.get("note")]
    if ratios:
        within = sum(0.97 <= x <= 1.03 for x in ratios)
        lines += ["", f"Timing ratio (tilescope / upstream), kernels that fill the GPU: geometric mean "
                      f"{float(np.exp(np.mean(np.log(ratios)))):.3f}, {within} of {len(ratios)} within ±3%."]
    return "\n".join(lines)


def report(json_path: str, doc: str) -> None:
    with open(json_path) as f:
        results = json.load(f)
    table = report_table(results)
    text = open(doc).read() if os.path.exists(doc) else "# GPU validation\n\n"
    block = f"{BEGIN}\n{table}\n{END}"
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + block + text[text.index(END) + len(END):]
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    with open(doc, "w") as f:
        f.write(text)
    print(table)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    a = sub.add_parser("prepare")
    a.add_argument("--out", default=os.path.join(ROOT, ".gpuval"))
    a.add_argument("--only")
    r = sub.add_parser("run")
    r.add_argument("--dir", default=os.path.join(ROOT, ".gpuval"))
    r.add_argument("--only")
    r.add_argument("--mock", action="store_true", help="no GPU: the CPU executor stands in (tests the plumbing)")
    r.add_argument("--rounds", type=int, default=25)
    r.add_argument("--budget", type=float, default=400.0, help="seconds after which timing is skipped")
    r.add_argument("--json")
    r.add_argument("--api", action="store_true", help="also check tilescope.gpu.launch on CuPy/torch arrays")
    rep = sub.add_parser("report")
    rep.add_argument("json")
    rep.add_argument("--doc", default=os.path.join(ROOT, "docs", "gpu-validation.md"))
    args = p.parse_args(argv)
    only = args.only.split(",") if getattr(args, "only", None) else None
    if args.command == "prepare":
        prepare(args.out, only)
    elif args.command == "run":
        backend = MockBackend() if args.mock else CupyBackend()
        print(f"device: {backend.device()}", flush=True)
        api = None
        if args.api and not args.mock:
            try:
                api = api_check(args.dir)
            except Exception as e:  # noqa: BLE001 - recorded; the validation still runs
                import traceback
                traceback.print_exc()
                api = {"error": f"{type(e).__name__}: {e}"}
        run(args.dir, backend, only=only, rounds=args.rounds, json_out=args.json, time_budget_s=args.budget,
            extra={"api": api} if api else None)
    else:
        report(args.json, args.doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
