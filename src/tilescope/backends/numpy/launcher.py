"""From a `launch(grid, kernel, args)` call to executed block groups."""
from __future__ import annotations

import inspect
import os
import sys
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from ...errors import TileError
from ...ir.types import ArrayType, TileType
from ...meta import ConstantSpec, ListSpec, MetaTensor, ScalarSpec, TupleSpec, arg_spec_of
from ...run import LaunchError, as_host_array, normalize_grid
from . import core_rules  # noqa: F401  (registers the core rules)
from . import debugger
from .executor import Checks, Executor, Sink
from .progress import Progress
from .races import RaceTracker
from .tiles import ArrayRef

GROUP_BUDGET = 1 << 22
MAX_TILE_ELEMENTS = 1 << 26     # far beyond any real tile; keeps a typo from exhausting memory
_compiled: Dict[Any, Any] = {}


def _param_specs(fn, args: Sequence[Any]):
    from ...lang.annotations import is_constant_annotation
    from ...lang.bridge import translate
    params = list(inspect.signature(fn).parameters.values())
    if len(args) != len(params):
        raise LaunchError(f"kernel '{fn.__name__}' takes {len(params)} argument(s) but {len(args)} were given")
    hints = getattr(fn, "__annotations__", {}) or {}
    specs, hosts = [], []
    for p, a in zip(params, args):
        ann = hints.get(p.name)
        if isinstance(ann, str):
            try:
                ann = eval(ann, fn.__globals__)
            except Exception:
                ann = None
        if is_constant_annotation(ann):
            specs.append(ConstantSpec(translate(a)))
            hosts.append(None)
            continue
        host, spec = _describe(a, p.name)
        specs.append(spec)
        hosts.append(host)
    return specs, hosts


def _describe(a: Any, name: str):
    if isinstance(a, (bool, int, float, np.generic)):
        return a, arg_spec_of(a)
    if isinstance(a, tuple):
        parts = [_describe(x, f"{name}[{i}]") for i, x in enumerate(a)]
        return tuple(h for h, _ in parts), TupleSpec([s for _, s in parts])
    if isinstance(a, list):
        hosts = [as_host_array(x, f"{name}[{i}]") for i, x in enumerate(a)]
        return hosts, arg_spec_of(hosts)
    if a is None or isinstance(a, str):
        return None, ConstantSpec(a)
    host = as_host_array(a, name)
    try:
        return host, MetaTensor.like(host)
    except (TypeError, ValueError) as e:
        raise LaunchError(f"argument '{name}': {e}") from None


def _runtime_values(param, host, spec, name: str) -> List[Any]:
    """Executor values for one parameter, in the order of `Param.values`."""
    if isinstance(spec, ConstantSpec):
        return []
    if isinstance(spec, TupleSpec):
        out = []
        for i, (h, s) in enumerate(zip(host, spec.items)):
            out.extend(_runtime_values(None, h, s, f"{name}[{i}]"))
        return out
    if isinstance(spec, MetaTensor):
        return [ArrayRef(host, name)]
    if isinstance(spec, ListSpec):
        return [[ArrayRef(h, f"{name}[{i}]") for i, h in enumerate(host)]]
    if isinstance(spec, ScalarSpec):
        return [np.asarray([host], dtype=spec.dtype.numpy)]
    raise LaunchError(f"unsupported argument '{name}'")


def compile_for(fn, specs):
    import tilescope
    key = (fn, tuple(repr(s) for s in specs))
    c = _compiled.get(key)
    if c is None:
        c = tilescope.compile(fn, specs)
        _compiled[key] = c
    return c


_CAS_OPS = ("atomic_cas", "raw_atomic_cas")
_RMW_OPS = ("atomic", "raw_atomic", "tiled_atomic")
_VIEW_OPS = ("array_slice", "tiled_view", "raw_memory", "list_item")


def _is_cas_or_xchg(op) -> bool:
    return op.name in _CAS_OPS or (op.name in _RMW_OPS and op.attrs.get("mode") == "xchg")


def needs_sequential(fn) -> bool:
    """Spin locks (CAS/xchg inside loops) need blocks to run one after another; so do atomics
    whose order would otherwise depend on how blocks are grouped (see `_atomic_order_matters`)."""
    return uses_spin_lock(fn) or _atomic_order_matters(fn)


_WRITE_OPS = ("store_tile", "scatter", "tiled_store", "raw_store", "store_advanced")


def written_array_args(fn):
    """Positions of the array arguments some plain store may write (reads of the others
    cannot race), or None when a list-of-arrays argument is written (its items share one
    position)."""
    args = {v.id: i for i, v in enumerate(fn.body.args)}
    written = set()
    for op in fn.walk():
        if op.name not in _WRITE_OPS:
            continue
        v = op.operands[0]
        while v.owner is not None and v.owner.name in _VIEW_OPS:
            v = v.owner.operands[0]
        if v.id not in args or not isinstance(v.type, ArrayType):
            return None
        written.add(args[v.id])
    return written


def uses_spin_lock(fn) -> bool:
    """CAS or exchange inside a loop: the shape of a spin lock."""
    def walk(block, in_loop):
        for op in block.ops:
            if in_loop and _is_cas_or_xchg(op):
                return True
            inner = in_loop or op.name in ("for", "loop")
            for b in op.blocks:
                if walk(b, inner):
                    return True
        return False
    return walk(fn.body, False)


def _atomic_order_matters(fn) -> bool:
    """A vectorised group applies one atomic op for all its blocks before the next op, while
    one-block-at-a-time execution finishes a block first. The two orders agree unless a block
    may hit one array atomically more than once (an atomic in a loop, or two atomics on one
    array parameter) and the order is observable: returned old values are used, float add
    (rounding depends on order), or CAS/xchg."""
    sites, used = [], set()

    def walk(block, in_loop):
        for op in block.ops:
            used.update(v.id for v in op.operands)
            if op.name in _CAS_OPS or op.name in _RMW_OPS:
                sites.append((op, in_loop))
            for b in op.blocks:
                walk(b, in_loop or op.name in ("for", "loop"))
    walk(fn.body, False)

    def root(v):
        while v.owner is not None and v.owner.name in _VIEW_OPS:
            v = v.owner.operands[0]
        return v.id
    per_root: Dict[int, int] = {}
    for op, _ in sites:
        per_root[root(op.operands[0])] = per_root.get(root(op.operands[0]), 0) + 1
    for op, in_loop in sites:
        if not (in_loop or per_root[root(op.operands[0])] > 1):
            continue
        if _is_cas_or_xchg(op) or any(r.id in used for r in op.results):
            return True
        if op.attrs.get("mode") == "add" and op.operands[0].type.dtype.is_float:
            return True
    return False


def group_size(fn, nblocks: int) -> int:
    biggest = 1
    for op in fn.walk():
        for r in op.results:
            if isinstance(r.type, TileType) and r.type.shape:
                size = int(np.prod(r.type.shape, dtype=object))
                if size > MAX_TILE_ELEMENTS:
                    raise LaunchError(f"a tile of shape {r.type.shape} ({size} elements) is too large for the CPU "
                                      f"executor (limit {MAX_TILE_ELEMENTS} elements per tile)")
                biggest = max(biggest, size)
    return max(1, min(nblocks, GROUP_BUDGET // biggest))


def run_kernel(grid, kernel, args, *, checks: Optional[dict] = None, sequential: Optional[bool] = None,
               group: Optional[int] = None, out=None, block=None):
    """Run `kernel` over `grid` on NumPy arrays (updated in place).

    `block=(x, y, z)` (or the environment variable `TILESCOPE_BLOCK="x,y,z"`) runs only
    that block, e.g. to debug it with `breakpoint()` (see `debugger.py`).
    """
    from ...compiler import resolve_kernel
    grid3 = normalize_grid(grid)
    only = _selected_block(block, grid3)
    fn, _ = resolve_kernel(kernel)
    if not isinstance(args, (tuple, list)):
        raise LaunchError(f"kernel arguments must be a tuple, got {type(args).__name__}")
    specs, hosts = _param_specs(fn, list(args))
    from ...signatures import ACTIVE
    for recorder in ACTIVE:
        recorder.add(fn, specs)
    compiled = compile_for(fn, specs)
    ir = compiled.final
    names = [p.name for p in ir.params]
    values: List[Any] = []
    for prm, host, spec in zip(ir.params, hosts, specs):
        values.extend(_runtime_values(prm, host, spec, prm.name))
    for i, v in enumerate(values):
        if isinstance(v, ArrayRef):
            v.index = i
    _reject_read_only_outputs(ir, values)
    chk = Checks(**(checks if checks is not None else checks_from_env()))
    sink = Sink()
    # Plain accesses ordered by a spin lock look like races to the tracker (it does not model
    # acquire/release), so kernels with spin locks run without race tracking.
    tracker = RaceTracker(watched_reads=written_array_args(ir)) if chk.races and not uses_spin_lock(ir) else None
    nblocks = grid3[0] * grid3[1] * grid3[2]
    if only is not None:
        nblocks = 1
    if sequential is None:
        sequential = needs_sequential(ir)
    size = 1 if sequential else (group or group_size(ir, nblocks))
    progress = Progress(fn.__name__, nblocks)
    try:
        for start in range(0, nblocks, size):
            progress.update(start)
            ids = np.asarray([only], dtype=np.int64) if only is not None else \
                _block_ids(grid3, start, min(start + size, nblocks))
            ex = Executor(ir, grid3, ids, values, chk, sink)
            ex.races = tracker
            ex.breakpoint_hook = debugger.breakpoint_hook
            if start == 0 and debugger.stop_at_entry_requested():
                debugger.stop_at_entry(ex)
            ex.run()
    finally:
        progress.close()
        sink.flush(out or sys.stdout)
        for r in chk.reports:
            print(f"tilescope: {r}", file=sys.stderr)
    return chk


def checks_from_env() -> dict:
    """`TILESCOPE_CHECKS`: comma-separated `bounds`, `races`, `poison`, `strict`, `all` or `none`
    (default: bounds,races)."""
    return parse_checks(os.environ.get("TILESCOPE_CHECKS", ""))


def parse_checks(text: str) -> dict:
    text = text.strip().lower()
    if not text:
        return {}
    words = {w.strip() for w in text.split(",") if w.strip()}
    unknown = words - {"bounds", "races", "poison", "strict", "none", "all"}
    if unknown:
        raise LaunchError(f"unknown check(s) {', '.join(sorted(unknown))} "
                          f"(use bounds, races, poison, strict, all or none)")
    if "none" in words:
        return {"bounds": False, "races": False}
    # `strict` alone keeps the default checks and makes them fatal.
    every = "all" in words or not (words & {"bounds", "races", "poison"})
    return {"bounds": every or "bounds" in words, "races": every or "races" in words, "strict": "strict" in words,
            "poison": "all" in words or "poison" in words}


def _block_ids(grid3, start: int, stop: int) -> np.ndarray:
    """(stop - start, 3) block coordinates of linear ids start..stop-1 (made per group, so a
    huge grid costs no memory up front)."""
    lin = np.arange(start, stop, dtype=np.int64)
    return np.stack([lin % grid3[0], (lin // grid3[0]) % grid3[1], lin // (grid3[0] * grid3[1])], axis=1)


def _reject_read_only_outputs(ir, values) -> None:
    """Fail before running anything (so nothing is written) when the kernel may store into a
    read-only array."""
    written = written_array_args(ir)
    for i, v in enumerate(values):
        if written is not None and i not in written:
            continue
        for ref in (v if isinstance(v, list) else [v]):
            if isinstance(ref, ArrayRef) and not ref.array.flags.writeable:
                raise LaunchError(f"argument '{ref.name}' is a read-only array but the kernel may write to it")


def _selected_block(block, grid3):
    """The single block to run (the `block` argument, else TILESCOPE_BLOCK), checked against the grid."""
    if block is None:
        text = os.environ.get(debugger.ENV_BLOCK)
        if not text:
            return None
        try:
            block = debugger.parse_block(text)
        except ValueError as e:
            raise LaunchError(f"{debugger.ENV_BLOCK}: {e}") from None
    elif isinstance(block, str):
        try:
            block = debugger.parse_block(block)
        except ValueError as e:
            raise LaunchError(str(e)) from None
    else:
        block = tuple(int(c) for c in block) + (0,) * (3 - len(tuple(block)))
    if len(block) != 3 or any(not 0 <= c < g for c, g in zip(block, grid3)):
        raise LaunchError(f"block {tuple(block)} is outside the grid {grid3}")
    return tuple(block)
