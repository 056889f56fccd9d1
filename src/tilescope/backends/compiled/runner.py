"""Running a compiled kernel: the parameter block, the decision to run blocks concurrently,
the thread pool, and a fast path for repeated launches.

A launch's *plan* holds everything that depends only on the kernel, the grid and the
arguments' metadata (dtypes, shapes, strides, scalar values); a launch whose arguments have
the same metadata as an earlier one reuses it and only fills in the arrays' addresses (the
fast path, `fast_launch`: no argument description, front end or analysis on the way).
"""
from __future__ import annotations

import collections
import contextlib
import ctypes
import os
import threading
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

import numpy as np

from ...signatures import ACTIVE as RECORDERS
from ..numpy.executor import Checks, Sink
from ..numpy.launcher import uses_spin_lock, written_array_args
from . import blas, disjoint, lane_ranges, order, reports
from .blas import gemm_pointers
from .callbacks import numpy_rule_callback, print_callback
from .cgen import Unsupported

ENV_THREADS = "TILESCOPE_THREADS"
_NO_BLOCK = np.iinfo(np.int64).max


class _Ctx(ctypes.Structure):
    """ts_ctx of runtime_math.py, field for field."""
    _fields_ = [("numpy_rule", ctypes.c_void_p), ("gemm", ctypes.c_void_p * 2), ("blas_ilp64", ctypes.c_int64),
                ("reports", ctypes.c_void_p), ("nreports", ctypes.c_int64), ("report_lock", ctypes.c_int32),
                ("failed", ctypes.c_int64), ("ticket", ctypes.c_int64), ("print", ctypes.c_void_p),
                ("shadow", ctypes.c_void_p), ("conflict", ctypes.c_int64), ("log", ctypes.c_void_p),
                ("log_cap", ctypes.c_int64), ("log_n", ctypes.c_int64), ("log_lost", ctypes.c_int64)]


def thread_count(threads: Optional[int] = None) -> int:
    if threads is None:
        env = os.environ.get(ENV_THREADS, "").strip()
        threads = int(env) if env.isdigit() and int(env) > 0 else (os.cpu_count() or 1)
    return max(1, int(threads))


_pool = None
_pool_size = 0
_scratch = threading.local()
_all_scratch: List[np.ndarray] = []      # every thread's scratch (one it outgrew is dropped)
_last: Dict[str, Any] = {}


def _workers(n: int):
    from concurrent.futures import ThreadPoolExecutor      # (only when a launch uses threads)
    global _pool, _pool_size
    if _pool is None or _pool_size < n:
        _pool = ThreadPoolExecutor(max_workers=n, thread_name_prefix="tilescope-cpu")
        _pool_size = n
    return _pool


def _arena(nbytes: int) -> np.ndarray:
    """This thread's scratch for block values (kept from launch to launch: no page faults)."""
    buf = getattr(_scratch, "buf", None)
    if buf is None or buf.nbytes < nbytes:
        if buf is not None:
            _all_scratch[:] = [b for b in _all_scratch if b is not buf]
        buf = np.zeros(nbytes + 64, np.uint8)
        _scratch.buf = buf
        _all_scratch.append(buf)
    return buf


def params_block(ck, values: List[Any]) -> np.ndarray:
    """The int64 parameter block: per array its address, shape and strides (in elements); per
    scalar its bits."""
    words = []
    for (kind, t), v in zip(ck.params, values):
        if kind == "array":
            a = v.array
            item = a.dtype.itemsize
            if any(s % item for s in a.strides):
                raise Unsupported(f"array '{v.name}' has strides that are not whole elements")
            words.append(a.ctypes.data)
            words.extend(a.shape)
            words.extend(s // item for s in a.strides)
        else:
            x = np.asarray(v).reshape(-1)[:1]
            raw = np.zeros(1, np.int64)
            raw.view(np.uint8)[:x.dtype.itemsize] = x.view(np.uint8)
            words.append(int(raw[0]))
    return np.array(words, dtype=np.int64)


def independent(ck, grid3, P: np.ndarray, values) -> bool:
    """Whether this launch's blocks provably touch disjoint tiles of the arrays they write:
    by the tile ownership proof (disjoint.py), else by coordinate ranges (lane_ranges.py)."""
    static = disjoint.statically_independent(ck.fn, grid3)
    if static:
        return True
    if static is None and ck.owners is not None:
        total = grid3[0] * grid3[1] * grid3[2]
        table = np.empty((total, ck.owner_width), np.int64)
        ck.owners(P.ctypes.data, grid3[0], grid3[1], grid3[2], 0, total, table.ctypes.data)
        if disjoint.owners_disjoint(ck.fn, table):
            return True
    return lane_ranges.independent(ck.fn, grid3, values)


@dataclass
class Plan:
    ck: Any
    grid3: tuple
    P: np.ndarray                 # parameter block (array addresses filled in per launch)
    threads: int
    names: List[str] = field(default_factory=list)


def plan(ck, grid3, values, checks, threads: Optional[int], tracked: bool = False) -> Optional[Plan]:
    """The launch's plan, or None when the race check needs more: tracking (run_tracked), or
    the NumPy executor. `tracked`: `ck` records its tiles (races are found while running)."""
    P = params_block(ck, values)
    proven = tracked or independent(ck, grid3, P, values)
    if checks.races and not proven and not uses_spin_lock(ck.fn):    # (the executor does not check those)
        return None
    parallel = (proven or order.tails_hold_all_writes(ck.fn)) and order.heads_run_freely(ck.fn) and not ck.asserts
    total = grid3[0] * grid3[1] * grid3[2]
    n = min(thread_count(threads) if parallel else 1, total)
    return Plan(ck, tuple(grid3), P, n)


def execute(pl: Plan, P: np.ndarray, checks, sink, values, shadow=None, log=None) -> bool:
    """Run every block of the plan with parameter block P; reports go to `checks`. With
    `shadow` (tracked tiles: run_tracked), False when two blocks touched one tile. `log`: a
    trace_log.TraceLog the kernel (built with options.log) appends its accesses to."""
    ck, grid3, n = pl.ck, pl.grid3, pl.threads
    nsites = len(ck.sites)
    rep = np.empty((max(nsites, 1), reports.WIDTH), np.int64)
    rep[:, 0] = _NO_BLOCK
    ctx = _Ctx()
    ctx.numpy_rule = _callback_address()
    if ck.uses_blas:
        ctx.gemm[0], ctx.gemm[1], ctx.blas_ilp64 = gemm_pointers()
    if ck.prints:
        printer = print_callback(ck, grid3, sink)          # (kept alive for the launch)
        ctx.print = ctypes.cast(printer, ctypes.c_void_p)
    ctx.reports = rep.ctypes.data
    ctx.nreports = nsites
    if shadow is not None:
        table = np.array([s.ctypes.data for s in shadow], np.int64)
        ctx.shadow = table.ctypes.data
    if log is not None:
        ctx.log, ctx.log_cap = log.buf.ctypes.data, log.capacity
    total = grid3[0] * grid3[1] * grid3[2]
    next_block = ctypes.c_int64(0)
    chunk = max(1, total // (n * 8)) if n > 1 else total
    args = (P.ctypes.data, grid3[0], grid3[1], grid3[2], total, chunk, ctypes.addressof(next_block),
            ctypes.addressof(ctx))

    def work():
        scratch = _arena(ck.arena)
        with blas.in_worker() if ck.uses_blas else contextlib.nullcontext():
            ck.run_shared(*args, scratch.ctypes.data)

    _last.clear()
    _last["threads"] = n
    _last["scratch"] = n * (ck.arena + 64)      # block scratch this launch uses (see _arena)
    try:
        with blas.one_thread() if ck.uses_blas else contextlib.nullcontext():
            if n == 1:
                work()
            else:
                pool = _workers(n - 1)
                futures = [pool.submit(work) for _ in range(n - 1)]
                work()
                for fu in futures:
                    fu.result()
    finally:
        if log is not None:
            log.handed, log.lost = ctx.log_n, ctx.log_lost
    if ctx.conflict:
        return False
    if nsites and min(rep[:, 0].tolist()) != _NO_BLOCK:
        reports.deliver(ck, rep, grid3, values, checks, sink)
    return True


_callback = []


def _callback_address() -> int:
    if not _callback:
        _callback.append(ctypes.cast(numpy_rule_callback(), ctypes.c_void_p).value)
    return _callback[0]


def run(ck, grid3, values, checks, sink, *, threads: Optional[int] = None, log=None) -> bool:
    """Plan and run a launch; False (nothing run) when the race check needs the NumPy executor.
    A kernel that can stop mid-launch (a failed assert, a runaway while loop) puts every array
    it writes back as it was before raising, as the executor does (rollback.py). `log`: see
    execute (a traced launch, whose plan the fast path does not keep)."""
    pl = plan(ck, grid3, values, checks, threads)
    if pl is None:
        return False
    execute_undoable(pl, pl.P, checks, sink, values, log)
    if log is None:
        _remember(pl, values)
    return True


def execute_undoable(pl: Plan, P: np.ndarray, checks, sink, values, log=None) -> None:
    """execute(); a kernel that can stop mid-launch (a failed assert, a runaway while loop)
    puts every array it writes back as it was before raising, as the executor does."""
    if not pl.ck.may_stop:
        execute(pl, P, checks, sink, values, log=log)
        return
    written = written_array_args(pl.ck.fn, _ALL_WRITES)
    saved, seen = [], set()
    for i in (range(len(values)) if written is None else sorted(written)):
        for ref in (values[i] if isinstance(values[i], list) else [values[i]]):
            a = getattr(ref, "array", None)
            if isinstance(a, np.ndarray) and id(a) not in seen:
                seen.add(id(a))
                saved.append((a, a.copy()))
    try:
        execute(pl, P, checks, sink, values, log=log)
    except BaseException:
        for a, copy in reversed(saved):          # (reversed: overlapping arguments end as they began)
            np.copyto(a, copy)
        raise


def run_tracked(ck, grid3, values, checks, sink, *, threads: Optional[int] = None, log=None) -> bool:
    """Run a kernel compiled to record which block touches each tile of the written arrays
    (disjoint.trackable): False when two blocks touched one tile (a race, or blocks that must
    run in order), after putting back every array the kernel writes (the NumPy executor then
    runs the launch and reports the race exactly)."""
    pl = plan(ck, grid3, values, checks, threads, tracked=True)
    layout = disjoint.trackable(ck.fn)
    entries = []
    for pos in sorted(layout):
        shape, order_ = layout[pos]
        a = values[pos].array
        counts = [-(-a.shape[order_[k]] // t) for k, t in enumerate(shape)]
        entries.append(max(int(np.prod(counts, dtype=np.int64)), 1))
    if 16 * sum(entries) > SHADOW_BYTES:
        raise Unsupported(f"tracking which block touches each element would take {16 * sum(entries) >> 20} MiB "
                          f"(more than {SHADOW_BYTES >> 20}); the NumPy executor checks races here")
    shadow = []
    for n in entries:
        shadow += [np.full(n, -1, np.int64), np.full(n, -1, np.int64)]
    written = written_array_args(ck.fn, _ALL_WRITES)
    saved = [(values[i].array, values[i].array.copy()) for i in sorted(written or ())]
    if execute(pl, pl.P, checks, sink, values, shadow, log):
        return True
    for a, copy in saved:
        np.copyto(a, copy)
    checks.reports.clear()
    sink.by_block.clear()
    if log is not None:
        log.handed = log.lost = 0
    return False


SHADOW_BYTES = 1 << 30              # most memory run_tracked's tables (two int64 per tile) may take

_ALL_WRITES = ("store_tile", "scatter", "tiled_store", "raw_store", "store_advanced", "atomic", "atomic_cas",
               "raw_atomic", "raw_atomic_cas", "tiled_atomic")


# ---- the fast path --------------------------------------------------------------------------

PLANS_KEPT = 1024                   # launch plans kept per process; least recently used go first
_plans: "collections.OrderedDict[tuple, Any]" = collections.OrderedDict()
_plans_lock = threading.Lock()
_pending = threading.local()        # the key of a launch the fast path missed (remembered on success)
_ENVS = ("TILESCOPE_CHECKS", "TILESCOPE_NUMERICS", "TILESCOPE_ENGINE", "TILESCOPE_THREADS", "TILESCOPE_BLOCK",
         "TILESCOPE_PDB")


_ENV = getattr(os.environ, "_data", None)      # the live mapping os.environ wraps (POSIX: bytes keys)
_ENV_KEYS = tuple(e.encode() for e in _ENVS) if os.name == "posix" else _ENVS


def _settings() -> tuple:
    """The environment variables a launch depends on (read directly: os.environ.get costs
    microseconds each)."""
    if _ENV is None:
        return tuple(os.environ.get(e) for e in _ENVS)
    return tuple(_ENV.get(e) for e in _ENV_KEYS)


def _arg_key(a):
    t = type(a)
    if t is np.ndarray:
        return (a.dtype, a.shape, a.strides, a.flags.writeable)
    if t is int or t is float or t is bool:
        return (t, a)
    raise KeyError


def fast_launch(grid, kernel, args, checks: Optional[dict], numerics, engine, threads, out):
    """Run a launch like an earlier one (same kernel, grid, argument metadata and settings) from
    its plan; returns the executor's Checks, or None (then the launch takes the full path,
    which remembers its plan when it runs compiled). `checks`: the launch's check settings."""
    _pending.key = _pending.args = None
    if RECORDERS or type(args) not in (tuple, list):
        return None
    options = (None if checks is None else tuple(sorted(checks.items())), out, numerics, engine, threads)
    try:
        key = (kernel, grid, tuple(_arg_key(a) for a in args), options, _settings())
        hit = _plans.get(key)
    except (KeyError, TypeError):
        return None
    if hit is None:
        _pending.key, _pending.args = key, args
        return None
    with contextlib.suppress(KeyError):           # (evicted meanwhile by another thread)
        _plans.move_to_end(key)
    pl, positions, arrays_at, names = hit
    arrays = [args[i] for _, i in arrays_at]
    for k in range(1, len(arrays)):          # arrays sharing memory are not in the key: look
        for b in arrays[:k]:
            if np.may_share_memory(arrays[k], b):
                _pending.key, _pending.args = None, None
                return None
    P = pl.P.copy()
    for slot, i in arrays_at:
        P[slot] = args[i].ctypes.data
    checks, sink = Checks(**checks), Sink()
    values = [_Named(args[i], n) for i, n in zip(positions, names)]
    execute_undoable(pl, P, checks, sink, values)
    _emit(checks, sink, out)
    return checks


class _Named:
    """What reports need of an argument: its array and name (as the executor's ArrayRef)."""
    __slots__ = ("array", "name")

    def __init__(self, array, name):
        self.array, self.name = array, name


def _emit(checks, sink, out) -> None:
    import sys
    sink.flush(out or sys.stdout)
    for r in checks.reports:
        print(f"tilescope: {r}", file=sys.stderr)


def forget_pending() -> None:
    """The launch the fast path missed runs on the NumPy executor: nothing to remember."""
    _pending.key = _pending.args = None


def _remember(pl: Plan, values) -> None:
    """Keep the plan of a launch the fast path missed, when its arguments map simply onto the
    kernel's values (arrays and scalars, no tuples or lists)."""
    key, args = getattr(_pending, "key", None), getattr(_pending, "args", None)
    _pending.key = _pending.args = None
    if key is None:
        return
    ir = pl.ck.fn
    positions = []
    for i, p in enumerate(ir.params):
        if p.is_constant:
            continue
        if len(p.values) != 1:
            return
        positions.append(i)
    if len(positions) != len(values):
        return
    arrays_at, slot, names = [], 0, []
    for (kind, t), i, v in zip(pl.ck.params, positions, values):
        names.append(getattr(v, "name", ""))
        if kind == "array":
            if type(args[i]) is not np.ndarray or v.array is not args[i]:
                return
            arrays_at.append((slot, i))
            slot += 1 + 2 * t.ndim
        else:
            slot += 1
    with _plans_lock:
        _plans[key] = (pl, positions, arrays_at, names)
        # Bounded: each plan holds its kernel (and so its loaded library) and the user's
        # function; a process launching many kernels or shapes would otherwise keep them all.
        while len(_plans) > PLANS_KEPT:
            _plans.popitem(last=False)


def scratch_bytes() -> int:
    """Bytes of block scratch the pool's threads and the caller hold, kept from launch to launch
    (a launch's own use is last_launch()['scratch'])."""
    return sum(b.nbytes for b in _all_scratch)
