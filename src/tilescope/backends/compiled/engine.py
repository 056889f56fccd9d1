"""The compiled backend's entry: choose the engine, build (or load) the library of a kernel
signature, and run the launch (runner.py); or say why the NumPy executor must run it.

`launch` is the NumPy launcher's hook: it returns False (and says why, see `explain`) when
the kernel or the launch needs the NumPy executor, which then runs it.
"""
from __future__ import annotations

import _ctypes
import collections
import contextlib
import ctypes
import logging
import os
import threading
import weakref
from dataclasses import dataclass, replace
from typing import Any, Dict, Optional

from ...ir.core import Function
from ...ir.types import ArrayType
from ...run import LaunchError
from ..numpy.launcher import written_array_args
from . import blas, disjoint, runner, toolchain, trace_log
from .cgen import Unsupported
from .kernel_gen import KernelGen
from .toolchain import CompilerMissing

log = logging.getLogger("tilescope.cpu")
ENV_ENGINE = "TILESCOPE_ENGINE"          # auto (default) | compiled | numpy
ENGINES = ("auto", "compiled", "numpy")
ENV_EXPLAIN = "TILESCOPE_EXPLAIN"        # set: say on stderr why a kernel runs on the NumPy executor


@dataclass(frozen=True)
class CompileOptions:
    """What the generated code depends on besides the IR."""
    bounds: bool = True
    poison: bool = False
    max_loop_iterations: int = 10_000_000
    track: bool = False          # record each block's tiles of the written arrays (disjoint.trackable)
    log: bool = False            # append every access (tile, or lane of a gather...) to the trace log (ts_log)


class CompiledKernel:
    """A kernel's library, loaded, with what a launch needs to call it."""

    def __init__(self, fn: Function, path: str, gen):
        self.fn = fn
        self.lib = ctypes.CDLL(path)
        # Unloaded when this kernel is freed (evicted from _kernels and no plan holds it): each
        # loaded library maps ~5 regions and ~20 KB, and a process may map only ~65,000 regions.
        if _UNLOAD is not None:
            weakref.finalize(self, _UNLOAD, self.lib._handle).atexit = False
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
        self.log_sites = gen.log_sites
        self.params = gen.params
        self.uses_blas = gen.uses_blas
        self.prints, self.asserts = gen.prints, gen.asserts
        self.may_stop = gen.asserts or any(op.name == "loop" for op in fn.walk())   # (runner.run)


_UNLOAD = getattr(_ctypes, "dlclose", None)     # (POSIX; elsewhere libraries stay loaded)
KERNELS_KEPT = 512              # compiled kernels (and refusals) kept per process; least recently used go first
_kernels: "collections.OrderedDict[tuple, Any]" = collections.OrderedDict()
_kernels_lock = threading.Lock()


def _keep(key: tuple, entry: tuple) -> None:
    """Remember a kernel's build (or why it has none), forgetting the least recently used beyond
    KERNELS_KEPT: a long process creating kernels (tests, the fuzzer) would otherwise keep every
    one, with its IR and its loaded library, for good."""
    with _kernels_lock:
        _kernels[key] = entry
        _kernels.move_to_end(key)
        while len(_kernels) > KERNELS_KEPT:
            _kernels.popitem(last=False)


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
    key = (id(fn), options, layout, blas.blas_threads())     # (products are probed per BLAS thread count)
    hit = _kernels.get(key)
    if hit is not None and hit[0] is fn:
        with contextlib.suppress(KeyError):       # (evicted meanwhile by another thread)
            _kernels.move_to_end(key)
        if isinstance(hit[1], Exception):
            raise hit[1]
        return hit[1]
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
        _keep(key, (fn, e))
        raise
    _keep(key, (fn, ck))
    return ck


def _check_blas(gen) -> None:
    """Products go through NumPy's BLAS: it must be found, and give np.matmul's bits when called
    from a compiled kernel's thread (probed once per shape)."""
    if not gen.uses_blas:
        return
    try:
        blas.gemm_pointers()
    except blas.BlasMissing as e:
        raise Unsupported(str(e)) from None
    for dtype, m, n, k in sorted(gen.gemm_shapes):
        if not blas.agrees_with_numpy(dtype, m, n, k):
            raise Unsupported(f"this BLAS's {dtype} product of shape ({m}, {k}) @ ({k}, {n}) differs from "
                              f"np.matmul's when called from a compiled kernel")


def launch(ir: Function, grid3, values, checks, sink, out, *, numerics: str, engine: Optional[str],
           threads: Optional[int], executor_only: bool, trace=None) -> bool:
    """The NumPy executor's hook (launcher.run_kernel): run the launch compiled when the engine
    setting allows it, printed text and reports coming out as the executor's do; False when
    the executor must run it (`executor_only`: a setting only the executor has was given).
    `trace`: a TraceRecorder (tilescope.trace) that receives the launch's accesses."""
    import sys
    engine = (engine or os.environ.get(ENV_ENGINE, "") or "auto").strip().lower()
    if engine not in ENGINES:
        raise LaunchError(f"engine: unknown engine {engine!r} (use {', '.join(ENGINES)})")
    if engine == "numpy" or executor_only:
        return False

    def emit():
        sink.flush(out or sys.stdout)
        for r in checks.reports:
            print(f"tilescope: {r}", file=sys.stderr)
    try:
        done = try_run(ir, grid3, values, checks, sink, numerics=numerics, engine=engine, threads=threads,
                       trace=trace)
    except BaseException:
        emit()
        raise
    if done:
        emit()
    return done


def try_run(ir: Function, grid3, values, checks, sink, *, numerics: str, engine: str,
            threads: Optional[int] = None, trace=None) -> bool:
    """Run the launch compiled when possible; False when the NumPy executor must run it.
    `trace`: a TraceRecorder given the accesses (those of a launch that failed midway too)."""
    reason = decline_reason(ir, values, checks, numerics)
    ck = None
    ck_options = CompileOptions(bounds=checks.bounds, poison=checks.poison,
                                max_loop_iterations=checks.max_loop_iterations, log=trace is not None)
    if reason is None:
        try:
            ck = compiled_kernel(ir, ck_options, layout_of(values))
        except Exception as e:          # Unsupported, no compiler, or a generator bug: the executor runs it
            reason = str(e)
            _say_once_without_compiler(e)
    if reason is None:
        log = trace_log.TraceLog() if trace is not None else None
        try:
            if _logged(ck, log, values, checks, trace, lambda: runner.run(ck, grid3, values, checks, sink,
                                                                          threads=threads, log=log)):
                return True
            reason = "the race check needs the NumPy executor here (no proof that blocks write disjoint tiles)"
            if disjoint.trackable(ir) is not None:
                tracked = compiled_kernel(ir, replace(ck_options, track=True), layout_of(values))
                if _logged(tracked, log, values, checks, trace, lambda: runner.run_tracked(
                        tracked, grid3, values, checks, sink, threads=threads, log=log)):
                    return True
                reason = "two blocks touched one tile of a written array: the NumPy executor reports the race"
        except Unsupported as e:
            reason = str(e)
        finally:
            if log is not None:
                log.release()
    runner.forget_pending()
    explain(ir, reason, engine)
    return False


def _logged(ck, log, values, checks, trace, run) -> bool:
    """run(); the accesses it logged go to `trace` (when tracing) whether it ran, failed midway
    or ran nothing (an empty log)."""
    try:
        return run()
    finally:
        if log is not None:
            trace_log.deliver(ck, log, values, trace, checks.bounds)


def decline_reason(ir: Function, values, checks, numerics: str) -> Optional[str]:
    if numerics != "exact":
        return "fast numerics runs on the NumPy executor (the compiled path always rounds as the GPU does)"
    if checks.poison or checks.uninit or checks.strict:
        return "the poison, uninit and strict checks run on the NumPy executor"
    for v, (p) in zip(values, ir.body.args):
        if isinstance(p.type, ArrayType) and not hasattr(v, "array"):
            return "array views and lists of arrays run on the NumPy executor"
    if _written_alias(ir, values):
        return "arguments that share memory with an array the kernel writes run on the NumPy executor"
    return None


def _overlaps_itself(a) -> bool:
    """Whether two elements of `a` may share memory (a zero or overlapping stride)."""
    span = a.itemsize
    for n, s in sorted(((n, abs(s)) for n, s in zip(a.shape, a.strides) if n > 1), key=lambda t: t[1]):
        if s < span:
            return True
        span = s * n
    return False


def _written_alias(ir: Function, values) -> bool:
    """Whether an array the kernel may write shares memory with another array argument (blocks
    could then race through the two names; the executor tracks them as one)."""
    import numpy as np
    arrays = [(i, v.array) for i, v in enumerate(values) if hasattr(v, "array")]
    written = written_array_args(ir, runner._ALL_WRITES)
    if any((written is None or i in written) and _overlaps_itself(a) for i, a in arrays):
        return True
    for k, (i, a) in enumerate(arrays):
        for j, b in arrays[k + 1:]:
            if (written is None or i in written or j in written) and np.may_share_memory(a, b):
                return True
    return False


_explained: set = set()
_told = []


def _say_once_without_compiler(e: Exception) -> None:
    """Without a C compiler every launch runs on the NumPy executor: say so once per process."""
    if isinstance(e, CompilerMissing) and not _told:
        import sys
        _told.append(1)
        print(f"tilescope: {e}; kernels run on the NumPy executor, which is several times slower",
              file=sys.stderr)
_last = runner._last


def last_launch() -> Dict[str, Any]:
    """What the latest launch did: {'threads': n, 'scratch': bytes of block scratch} when
    compiled, {'declined': reason} otherwise."""
    return dict(_last)


def explain(ir: Function, reason: str, engine: str) -> None:
    """Say once per kernel and reason why it runs on the NumPy executor."""
    if engine == "compiled":
        raise LaunchError(f"kernel '{ir.name}' cannot run compiled: {reason}")
    _last.clear()
    _last["declined"] = reason
    key = (ir.name, reason)
    if key not in _explained:
        _explained.add(key)
        log.info("kernel '%s' runs on the NumPy executor: %s", ir.name, reason)
        if os.environ.get(ENV_EXPLAIN, "") not in ("", "0"):
            import sys
            print(f"tilescope: kernel '{ir.name}' runs on the NumPy executor: {reason}", file=sys.stderr)
