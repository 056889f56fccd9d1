"""Running compiled kernels: build (or load) the library for a kernel signature, marshal the
launch's arguments, and run its blocks on a pool of threads.

`try_run` is the launcher's entry: it returns False (and says why, see `explain`) when the
kernel or the launch needs the NumPy executor, which then runs it.
"""
from __future__ import annotations

import ctypes
import logging
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from ...ir.core import Function
from ...ir.types import ArrayType
from . import disjoint, order, reports
from .cgen import Unsupported

log = logging.getLogger("tilescope.cpu")
ENV_ENGINE = "TILESCOPE_ENGINE"          # auto (default) | compiled | numpy
ENV_THREADS = "TILESCOPE_THREADS"
ENGINES = ("auto", "compiled", "numpy")
_NO_BLOCK = np.iinfo(np.int64).max


@dataclass(frozen=True)
class CompileOptions:
    """What the generated code depends on besides the IR."""
    bounds: bool = True
    poison: bool = False
    max_loop_iterations: int = 10_000_000


class _Ctx(ctypes.Structure):
    _fields_ = [("numpy_rule", ctypes.c_void_p), ("gemm", ctypes.c_void_p * 2), ("blas_ilp64", ctypes.c_int64),
                ("reports", ctypes.c_void_p), ("nreports", ctypes.c_int64), ("report_lock", ctypes.c_int32),
                ("failed", ctypes.c_int64), ("ticket", ctypes.c_int64), ("print", ctypes.c_void_p)]


class CompiledKernel:
    """A kernel's library, loaded, with what a launch needs to call it."""

    def __init__(self, fn: Function, path: str, gen):
        self.fn = fn
        self.lib = ctypes.CDLL(path)
        self.run_shared = self.lib.ts_run_shared
        self.run_shared.restype = ctypes.c_int64
        self.run_shared.argtypes = [ctypes.c_void_p] + [ctypes.c_int64] * 5 + [ctypes.c_void_p] * 3
        self.arena = int(self.lib.ts_arena_bytes())
        self.owners = getattr(self.lib, "ts_owners", None)       # see disjoint.py
        if self.owners is not None:
            self.owners.restype = None
            self.owners.argtypes = [ctypes.c_void_p] + [ctypes.c_int64] * 5 + [ctypes.c_void_p]
            self.owner_width = len(disjoint.ownership(fn).values())
        self.sites = gen.reports
        self.params = gen.params
        self.uses_blas = gen.uses_blas
        self.prints, self.asserts = gen.prints, gen.asserts


_kernels: Dict[tuple, Any] = {}
_kernels_lock = threading.Lock()


def layout_of(values) -> tuple:
    """Per launch value: for arrays, which axes have a stride of one element (the generated code
    is specialised on it, so the C compiler sees contiguous rows)."""
    out = []
    for v in values:
        a = getattr(v, "array", None)
        out.append(tuple(s == a.itemsize for s in a.strides) if a is not None else ())
    return tuple(out)


def compiled_kernel(fn: Function, options: CompileOptions, layout: tuple = ()) -> CompiledKernel:
    """The compiled kernel of a final IR (generated, then built or loaded from the disk cache);
    raises Unsupported, toolchain.CompilerMissing or toolchain.CompileFailed."""
    key = (id(fn), options, layout)
    hit = _kernels.get(key)
    if hit is not None and hit[0] is fn:
        if isinstance(hit[1], Exception):
            raise hit[1]
        return hit[1]
    from . import toolchain
    from .kernel_gen import KernelGen
    try:
        gen = KernelGen(fn, options, layout)
        source = gen.generate()
        own = disjoint.ownership(fn)
        owner_values = own.values() if own is not None and own.static_axes is None else []
        if owner_values:
            source += "\n" + KernelGen(fn, options, layout).owner_function(owner_values)
        _check_blas(gen)
        ck = CompiledKernel(fn, toolchain.library_for(source), gen)
    except (Unsupported, toolchain.CompilerMissing) as e:
        with _kernels_lock:
            _kernels[key] = (fn, e)
        raise
    with _kernels_lock:
        _kernels[key] = (fn, ck)
    return ck


def _check_blas(gen) -> None:
    """Products go through NumPy's BLAS: it must be found, and give np.matmul's bits when called
    from a compiled kernel's thread (probed once per shape)."""
    if not gen.uses_blas:
        return
    from . import blas
    try:
        blas.gemm_pointers()
    except blas.BlasMissing as e:
        raise Unsupported(str(e)) from None
    for dtype, m, n, k in sorted(gen.gemm_shapes):
        if not blas.agrees_with_numpy(dtype, m, n, k):
            raise Unsupported(f"this BLAS's {dtype} product of shape ({m}, {k}) @ ({k}, {n}) differs from "
                              f"np.matmul's when called from a compiled kernel")


# ---- the launch ------------------------------------------------------------------------

def thread_count(threads: Optional[int] = None) -> int:
    if threads is None:
        env = os.environ.get(ENV_THREADS, "").strip()
        threads = int(env) if env.isdigit() and int(env) > 0 else (os.cpu_count() or 1)
    return max(1, int(threads))


_pool: Optional[ThreadPoolExecutor] = None
_pool_size = 0
_scratch = threading.local()


def _workers(n: int) -> ThreadPoolExecutor:
    global _pool, _pool_size
    if _pool is None or _pool_size < n:
        _pool = ThreadPoolExecutor(max_workers=n, thread_name_prefix="tilescope-cpu")
        _pool_size = n
    return _pool


def _arena(nbytes: int) -> np.ndarray:
    buf = getattr(_scratch, "buf", None)
    if buf is None or buf.nbytes < nbytes:
        buf = np.zeros(nbytes + 64, np.uint8)
        _scratch.buf = buf
    return buf


def params_block(ck: CompiledKernel, values: List[Any]) -> Tuple[np.ndarray, list]:
    """The int64 parameter block (array pointers, shapes and strides in elements; scalars'
    bits) and the objects it points into (kept alive for the launch)."""
    words, keep = [], []
    for (kind, t), v in zip(ck.params, values):
        if kind == "array":
            a = v.array
            item = a.dtype.itemsize
            if any(s % item for s in a.strides):
                raise Unsupported(f"array '{v.name}' has strides that are not whole elements")
            words.append(a.ctypes.data)
            words.extend(a.shape)
            words.extend(s // item for s in a.strides)
            keep.append(a)
        else:
            x = np.asarray(v).reshape(-1)[:1]
            raw = np.zeros(1, np.int64)
            raw.view(np.uint8)[:x.dtype.itemsize] = x.view(np.uint8)
            words.append(int(raw[0]))
    return np.array(words, dtype=np.int64), keep


def independent(ck: CompiledKernel, grid3, P: np.ndarray) -> bool:
    """Whether this launch's blocks provably touch disjoint tiles of the arrays they write."""
    static = disjoint.statically_independent(ck.fn, grid3)
    if static is not None:
        return static
    if ck.owners is None:
        return False
    total = grid3[0] * grid3[1] * grid3[2]
    table = np.empty((total, ck.owner_width), np.int64)
    ck.owners(P.ctypes.data, grid3[0], grid3[1], grid3[2], 0, total, table.ctypes.data)
    return disjoint.owners_disjoint(ck.fn, table)


def run(ck: CompiledKernel, grid3, values, checks, sink, *, threads: Optional[int] = None) -> bool:
    """Run every block; reports go to `checks` (an executor Checks). False (nothing run) when
    the race check needs the NumPy executor."""
    from ..numpy.launcher import uses_spin_lock
    from .callbacks import numpy_rule_callback
    from .blas import gemm_pointers, one_thread
    P, keep = params_block(ck, values)
    proven = independent(ck, grid3, P)
    if checks.races and not proven and not uses_spin_lock(ck.fn):    # (the executor does not check those)
        return False
    parallel = proven and order.heads_run_freely(ck.fn) and not ck.asserts
    nsites = len(ck.sites)
    rep = np.full((max(nsites, 1), reports.WIDTH), 0, np.int64)
    rep[:, 0] = _NO_BLOCK
    ctx = _Ctx()
    ctx.numpy_rule = ctypes.cast(numpy_rule_callback(), ctypes.c_void_p)
    if ck.uses_blas:
        g = gemm_pointers()
        ctx.gemm[0], ctx.gemm[1], ctx.blas_ilp64 = g
    if ck.prints:
        from .callbacks import print_callback
        printer = print_callback(ck, grid3, sink)          # (kept alive for the launch)
        ctx.print = ctypes.cast(printer, ctypes.c_void_p)
    ctx.reports = rep.ctypes.data
    ctx.nreports = nsites
    total = grid3[0] * grid3[1] * grid3[2]
    n = thread_count(threads) if parallel else 1
    n = min(n, total)
    next_block = np.zeros(1, np.int64)
    chunk = max(1, total // (n * 8)) if n > 1 else total
    failed = []

    def work():
        scratch = _arena(ck.arena)
        with one_thread() if ck.uses_blas else _nothing():
            f = ck.run_shared(P.ctypes.data, grid3[0], grid3[1], grid3[2], total, chunk, next_block.ctypes.data,
                              ctypes.addressof(ctx), scratch.ctypes.data)
        if f >= 0:
            failed.append(f)

    _last.clear()
    _last["threads"] = n
    if n == 1:
        work()
    else:
        pool = _workers(n - 1)
        futures = [pool.submit(work) for _ in range(n - 1)]
        work()
        for fu in futures:
            fu.result()
    del keep
    reports.deliver(ck, rep, grid3, values, checks, sink)
    return True


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None


def try_run(ir: Function, grid3, values, checks, sink, *, numerics: str, engine: str,
            threads: Optional[int] = None) -> bool:
    """Run the launch compiled when possible; False when the NumPy executor must run it."""
    reason = decline_reason(ir, values, checks, numerics)
    ck = None
    if reason is None:
        try:
            ck = compiled_kernel(ir, CompileOptions(bounds=checks.bounds, poison=checks.poison,
                                                    max_loop_iterations=checks.max_loop_iterations),
                                 layout_of(values))
        except Exception as e:          # Unsupported, no compiler, or a generator bug: the executor runs it
            reason = str(e)
    if reason is None:
        try:
            if run(ck, grid3, values, checks, sink, threads=threads):
                return True
            reason = "the race check needs the NumPy executor here (no proof that blocks write disjoint tiles)"
        except Unsupported as e:
            reason = str(e)
    explain(ir, reason, engine)
    return False


def decline_reason(ir: Function, values, checks, numerics: str) -> Optional[str]:
    if numerics != "exact":
        return "fast numerics runs on the NumPy executor (the compiled path always rounds as the GPU does)"
    if checks.poison or checks.uninit or checks.strict:
        return "the poison, uninit and strict checks run on the NumPy executor"
    for v, (p) in zip(values, ir.body.args):
        if isinstance(p.type, ArrayType) and not hasattr(v, "array"):
            return "array views and lists of arrays run on the NumPy executor"
    return None


_explained: set = set()
_last: Dict[str, Any] = {}


def last_launch() -> Dict[str, Any]:
    """What the latest launch did: {'threads': n} when compiled, {'declined': reason} otherwise."""
    return dict(_last)


def explain(ir: Function, reason: str, engine: str) -> None:
    """Say once per kernel and reason why it runs on the NumPy executor."""
    from ...run import LaunchError
    if engine == "compiled":
        raise LaunchError(f"kernel '{ir.name}' cannot run compiled: {reason}")
    _last.clear()
    _last["declined"] = reason
    key = (ir.name, reason)
    if key not in _explained:
        _explained.add(key)
        log.info("kernel '%s' runs on the NumPy executor: %s", ir.name, reason)
