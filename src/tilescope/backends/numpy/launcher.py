"""From a `launch(grid, kernel, args)` call to executed block groups."""
from __future__ import annotations

import inspect
import sys
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from ...errors import TileError
from ...ir.types import TileType
from ...meta import ConstantSpec, ListSpec, MetaTensor, ScalarSpec, TupleSpec, arg_spec_of
from ...run import LaunchError, as_host_array, normalize_grid
from . import core_rules  # noqa: F401  (registers the core rules)
from .executor import Checks, Executor, Sink
from .races import RaceTracker
from .tiles import ArrayRef

GROUP_BUDGET = 1 << 22          # tile elements live per value in one vectorised group
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


def needs_sequential(fn) -> bool:
    """Spin locks (CAS/xchg inside loops) need blocks to run one after another."""
    def walk(block, in_loop):
        for op in block.ops:
            if in_loop and op.name in ("atomic_cas", "atomic") and op.attrs.get("fn", "cas") in ("cas", "xchg"):
                return True
            inner = in_loop or op.name in ("for", "loop")
            for b in op.blocks:
                if walk(b, inner):
                    return True
        return False
    return walk(fn.body, False)


def group_size(fn, nblocks: int) -> int:
    biggest = 1
    for op in fn.walk():
        for r in op.results:
            if isinstance(r.type, TileType) and r.type.shape:
                biggest = max(biggest, int(np.prod(r.type.shape)))
    return max(1, min(nblocks, GROUP_BUDGET // biggest))


def run_kernel(grid, kernel, args, *, checks: Optional[dict] = None, sequential: Optional[bool] = None,
               group: Optional[int] = None, out=None):
    from ...compiler import resolve_kernel
    grid3 = normalize_grid(grid)
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
    chk = Checks(**(checks or {}))
    sink = Sink()
    tracker = RaceTracker() if chk.races else None
    nblocks = grid3[0] * grid3[1] * grid3[2]
    lin = np.arange(nblocks, dtype=np.int64)
    ids = np.stack([lin % grid3[0], (lin // grid3[0]) % grid3[1], lin // (grid3[0] * grid3[1])], axis=1)
    if sequential is None:
        sequential = needs_sequential(ir)
    size = 1 if sequential else (group or group_size(ir, nblocks))
    try:
        for start in range(0, nblocks, size):
            ex = Executor(ir, grid3, ids[start:start + size], values, chk, sink)
            ex.races = tracker
            ex.run()
    finally:
        sink.flush(out or sys.stdout)
        for r in chk.reports:
            print(f"tilescope: {r}", file=sys.stderr)
    return chk
