"""From a `launch(grid, kernel, args)` call to executed block groups."""
from __future__ import annotations

import collections
import contextlib
import dataclasses
import functools
import importlib
import inspect
import os
import sys
import threading
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ...annotations import array_annotation, is_constant_annotation, metadata_of, scalar_annotation
from ...compiler import resolve_kernel
from ...dtypes import DType, as_dtype
from ...errors import TileTypeError
from ...ir.core import per_function
from ...ir.types import ArrayType, TileType
from ...launch_args import LaunchError, as_host_array, normalize_grid
from ...meta import ConstantSpec, DataclassSpec, ListSpec, MetaTensor, ScalarSpec, TupleSpec, arg_spec_of
from ...ops.bridge import translate
from ...pyeval import annotation_value
from ...semantics.numerics import ENV_NUMERICS, NUMERICS_MODES, numerics_mode
from ...signatures import ACTIVE
from ...trace import TraceRecorder, session_for
from . import forwarding, fusion
from . import debugger
from .executor import Checks, Executor, Sink
from ...targets import NEWEST_TARGET
from .progress import Progress
from .races import RaceTracker
from .rollback import Snapshot
from .tiles import ArrayRef

GROUP_BUDGET = 1 << 22          # tile elements of one value in one vectorised step, at most
STREAM_GROUP_BUDGET = 1 << 24   # ... for kernels that hold no value whole (forwarding.streams_only)
MIN_GROUP_BUDGET = 1 << 16      # ... and at least, however small the arguments
MAX_TILE_ELEMENTS = 1 << 26     # far beyond any real tile; keeps a typo from exhausting memory
COMPILED_KEPT = 512             # compiled kernels kept per process (least recently launched go first)
_compiled: "collections.OrderedDict[Any, Any]" = collections.OrderedDict()
_compile_lock = threading.RLock()
# The compiled CPU backend builds on this executor (its fallback, reports and rollback), so
# the executor finds it by name at the first launch rather than importing it: the modules
# depend one way. It provides fast_launch(...) and launch(...); see backends/compiled/hook.py.
COMPILED_BACKEND = "tilescope.backends.compiled.hook"


@functools.lru_cache(maxsize=None)
def compiled_backend():
    return importlib.import_module(COMPILED_BACKEND)


class ArgumentCountError(LaunchError, TypeError):
    """Wrong number of kernel arguments (a TypeError, as upstream raises)."""


@functools.lru_cache(maxsize=256)
def _parameters(fn) -> Tuple[Tuple[str, Any], ...]:
    """(name, annotation) of each parameter of a kernel's Python function (string
    annotations evaluated; one that does not evaluate counts as none)."""
    hints = getattr(fn, "__annotations__", {}) or {}
    out = []
    for p in inspect.signature(fn).parameters.values():
        ann = hints.get(p.name)
        if isinstance(ann, str):    # evaluated without running code (tilescope.pyeval)
            ann = annotation_value(ann, fn.__globals__, fn.__code__.co_filename)
        out.append((p.name, ann))
    return tuple(out)


def _param_specs(fn, args: Sequence[Any]):
    params = _parameters(fn)
    if len(args) != len(params):
        n, m = len(params), len(args)
        raise ArgumentCountError(f"Kernel expects {n} argument{'' if n == 1 else 's'} but {m} "
                                 f"{'was' if m == 1 else 'were'} given (kernel '{fn.__name__}')")
    specs, hosts = [], []
    for (name, ann), a in zip(params, args):
        _reject_tuple_subclasses(a, f"kernel argument #{len(specs)}")
        if is_constant_annotation(ann):
            _check_constant_arg(a, ann, f"kernel argument #{len(specs)}")
        elif isinstance(a, str):
            raise TypeError(f"Invalid kernel argument #{len(specs)}: Objects of type 'str' are only "
                            f"accepted for parameters annotated as Constant.")
        try:
            host, spec = _describe_annotated(a, ann, name)
        except _BadField as e:
            raise TypeError(f"Invalid field '{e.field}' of kernel argument #{len(specs)}: Objects of type "
                            f"'{e.type_name}' are not supported") from None
        specs.append(spec)
        hosts.append(host)
    return specs, hosts


def _describe_annotated(a: Any, ann: Any, name: str):
    """(host value, spec) of one argument under its parameter annotation: `ct.Constant[...]`,
    array annotations (index dtype, static dims), list annotations and `tuple[...]` of those."""
    from typing import get_args, get_origin
    if is_constant_annotation(ann):
        return None, ConstantSpec(_constant_arg(translate(a)))
    base = get_args(ann)[0] if metadata_of(ann) else ann
    if get_origin(base) is tuple and isinstance(a, tuple):
        item_anns = get_args(base)
        if len(item_anns) == 2 and item_anns[1] is Ellipsis:
            item_anns = (item_anns[0],) * len(a)
        if len(item_anns) != len(a):
            raise TypeError(f"argument '{name}': Received a tuple of length {len(a)} for a parameter "
                            f"annotated as a tuple of length {len(item_anns)}")
        parts = [_describe_annotated(x, t, f"{name}[{i}]") for i, (x, t) in enumerate(zip(a, item_anns))]
        return tuple(h for h, _ in parts), TupleSpec([s for _, s in parts])
    list_ann = next((m for m in metadata_of(ann) if type(m).__name__ == "ListAnnotation"), None)
    if list_ann is not None and isinstance(a, list) and a:
        hosts = [as_host_array(x, f"{name}[{i}]") for i, x in enumerate(a)]
        metas = [_annotated_meta(h, list_ann.element, f"{name}[{i}]") for i, h in enumerate(hosts)]
        _check_same_static(metas, name)
        first = metas[0]
        for i, m in enumerate(metas[1:], 1):
            if m.dtype is not first.dtype or m.ndim != first.ndim:
                raise LaunchError(f"argument '{name}': list element {i} is {m!r} but element 0 is {first!r}; "
                                  f"all elements need the same dtype and rank")
        # dims the items disagree on are unknown (None); static ones agree (checked above)
        merged = lambda attr: tuple(v if all(getattr(m, attr)[k] == v for m in metas) else None  # noqa: E731
                                    for k, v in enumerate(getattr(first, attr)))
        item = MetaTensor(merged("shape"), first.dtype, merged("strides"), index_dtype=first.index_dtype,
                          static_shape=first.static_shape, static_strides=first.static_strides)
        return hosts, ListSpec(item)
    aa = array_annotation(ann)
    if aa is not None and not isinstance(a, (bool, int, float, tuple, list, np.generic)) and a is not None:
        host = as_host_array(a, name)
        return host, _annotated_meta(host, aa, name)
    return _describe(a, name)


def _reject_tuple_subclasses(a: Any, what: str) -> None:
    """Named tuples are not flattened like tuples (upstream accepts only plain tuples)."""
    if isinstance(a, tuple):
        if type(a) is not tuple:
            raise TypeError(f"Invalid {what}: '{type(a).__name__}' is a subclass of 'tuple'. "
                            f"Only plain tuples are accepted.")
        for i, x in enumerate(a):
            _reject_tuple_subclasses(x, f"item #{i} of {what}")


def _check_constant_arg(a: Any, ann: Any, what: str) -> None:
    """A `ct.Constant[...]` argument must be a compile-time value throughout (no arrays inside),
    and run-time scalar annotations (ScalarInt64) make no sense inside it."""
    import enum
    from typing import get_args

    def walk_ann(t):
        if scalar_annotation(t) is not None:
            raise TypeError("Constant annotation cannot be combined with ScalarAnnotation/ScalarInt64")
        for sub in get_args(t):
            walk_ann(sub)
    walk_ann(get_args(ann)[0] if metadata_of(ann) else ann)

    def walk(x, path):
        if isinstance(x, tuple):
            for i, y in enumerate(x):
                walk(y, path + [i])
        elif not (x is None or isinstance(x, (bool, int, float, str, DType, enum.Enum, np.generic))
                  or _constant_arg(x) is not x or isinstance(x, type) or callable(x)
                  or dataclasses.is_dataclass(x)):
            items = "".join(f"item #{i} of " for i in reversed(path))
            raise TypeError(f"Invalid {items}{what}: Could not interpret object of type "
                            f"'{type(x).__name__}' as a constant.")
    walk(a, [])


def _annotated_meta(host, aa, name: str) -> MetaTensor:
    """MetaTensor of an array under an ArrayAnnotation (index dtype, static shape/stride dims)."""
    ndim = np.ndim(host) if not hasattr(host, "ndim") else host.ndim
    flags = {}
    for what in ("shape", "stride"):
        dims = tuple(getattr(aa, f"static_{what}_dims", ()) or ())
        for d in dims:
            if not -ndim <= d < ndim:
                raise ValueError(f"argument '{name}': static_{what}_dims contains axis {d}, out of "
                                 f"range for a {ndim}-d array")
        flags[what] = tuple(i in {d % ndim for d in dims} for i in range(ndim))
    try:
        return MetaTensor.like(host, index_dtype=translate(aa.index_dtype),
                               static_shape=flags["shape"], static_strides=flags["stride"])
    except (TypeError, ValueError) as e:
        raise _array_error(name, e) from None


def _check_same_static(metas, name: str) -> None:
    """The items of a list argument share one compiled description: static dims must agree."""
    first = metas[0]
    for m in metas[1:]:
        for what, attr, flags in (("shape", "shape", first.static_shape),
                                  ("stride", "strides", first.static_strides)):
            for axis, static in enumerate(flags):
                if static and getattr(m, attr)[axis] != getattr(first, attr)[axis]:
                    raise ValueError(f"argument '{name}': list items vary in static {what} at axis {axis} "
                                     f"({getattr(first, attr)[axis]} vs {getattr(m, attr)[axis]})")


def _array_error(name: str, e: Exception) -> Exception:
    """A shape or stride beyond the index dtype is upstream's OverflowError; others are LaunchErrors."""
    if "does not fit index dtype" in str(e):
        return OverflowError(f"argument '{name}': {e}")
    return LaunchError(f"argument '{name}': {e}")


def _constant_arg(a: Any) -> Any:
    """A torch dtype passed as a constant is the cuTile dtype of the same name (`c == ct.float32`)."""
    if type(a).__module__ == "torch" and type(a).__name__ == "dtype":
        try:
            return as_dtype(a)
        except (TypeError, ValueError):
            return a
    return a


class _BadField(Exception):
    """A dataclass argument's field holds something no kernel argument can be."""

    def __init__(self, field: str, type_name: str):
        self.field, self.type_name = field, type_name


def _describe_dataclass(a: Any, name: str):
    """A frozen dataclass instance is passed field by field, like a tuple (upstream's cconv v3)."""
    if not type(a).__dataclass_params__.frozen:
        raise TileTypeError(f"argument '{name}' of type {type(a).__name__}: Only frozen dataclasses are "
                            f"supported as kernel arguments")
    hosts, specs = [], []
    for f in dataclasses.fields(a):
        v = getattr(a, f.name)
        try:
            h, s = _describe(v, f"{name}.{f.name}")
        except LaunchError:
            raise _BadField(f.name, type(v).__name__) from None
        hosts.append(h)
        specs.append(s)
    return tuple(hosts), DataclassSpec(type(a), specs)


def _describe(a: Any, name: str):
    if isinstance(a, (bool, int, float, np.generic)):
        return a, arg_spec_of(a)
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return _describe_dataclass(a, name)
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
        raise _array_error(name, e) from None


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
    """The kernel compiled for these specs, once per process (threads launching the same kernel
    for the first time wait for one compilation). No tileiras is involved, so no feature is gated
    on a version (the newest known is the target whatever TILESCOPE_TILEIRAS_VERSION says).
    TILESCOPE_TRUST=1 (`tilescope run --trust`) evaluates compile-time Python as Python."""
    import tilescope
    trust = os.environ.get("TILESCOPE_TRUST") == "1"
    key = (fn, tuple(repr(s) for s in specs), trust)
    c = _compiled.get(key)
    if c is None:
        with _compile_lock:
            c = _compiled.get(key)
            if c is None:
                c = tilescope.compile(fn, specs, trust=trust, tileiras_version="%d.%d" % NEWEST_TARGET)
                _compiled[key] = c
                # Bounded: a long process creating kernels (tests, a fuzzer) would otherwise
                # keep every one alive through this cache.
                while len(_compiled) > COMPILED_KEPT:
                    _compiled.popitem(last=False)
    else:
        with contextlib.suppress(KeyError):      # (evicted meanwhile by another thread)
            _compiled.move_to_end(key)
    return c


_CAS_OPS = ("atomic_cas", "raw_atomic_cas")
_RMW_OPS = ("atomic", "raw_atomic", "tiled_atomic")
_VIEW_OPS = ("array_slice", "tiled_view", "raw_memory", "list_item")


def _is_cas_or_xchg(op) -> bool:
    return op.name in _CAS_OPS or (op.name in _RMW_OPS and op.attrs.get("mode") == "xchg")


@per_function
def needs_sequential(fn) -> bool:
    """Spin locks (CAS/xchg inside loops) need blocks to run one after another; so do atomics
    whose order would otherwise depend on how blocks are grouped (see `_atomic_order_matters`)."""
    return uses_spin_lock(fn) or _atomic_order_matters(fn)


_WRITE_OPS = ("store_tile", "scatter", "tiled_store", "raw_store", "store_advanced")


def written_array_args(fn, ops=_WRITE_OPS):
    """Positions of the array arguments some plain store (some op of `ops`) may write (reads
    of the others cannot race), or None when a list-of-arrays argument is written (its items
    share one position)."""
    args = {v.id: i for i, v in enumerate(fn.body.args)}
    written = set()
    for op in fn.walk():
        if op.name not in ops:
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


def group_size(fn, nblocks: int, args_bytes: int = 0, args=None) -> int:
    """Blocks per vectorised step: as many as fit the budget for the largest tile value.

    The budget follows the arguments' size (a step holds a few dozen tile-sized temporaries,
    some in float64), so peak extra memory stays a small multiple of the arguments.
    """
    share, biggest, shape = _group_profile(fn)
    if biggest > MAX_TILE_ELEMENTS:
        raise LaunchError(f"a tile of shape {shape} ({biggest} elements) is too large for the CPU "
                          f"executor (limit {MAX_TILE_ELEMENTS} elements per tile)")
    # Each group costs a few hundred microseconds of bookkeeping; kernels that only stream
    # (loads computed straight into stores) save it with larger groups, `args` (the launch's
    # values) permitting.
    if forwarding.streams_only(fn) and args is not None and forwarding.whole_tiles(fn, args):
        share, cap = 8, STREAM_GROUP_BUDGET          # no group-sized value is ever held
    else:
        cap = GROUP_BUDGET
    budget = cap if not args_bytes else min(cap, max(MIN_GROUP_BUDGET, args_bytes // share))
    return max(1, min(nblocks, budget // biggest))


@per_function
def _group_profile(fn) -> Tuple[int, int, tuple]:
    """(share, elements, shape): the divisor of the group budget and the largest tile value."""
    # Matrix products gain from large groups (operands shared along grid axes are loaded and
    # converted once, see grid.py; BLAS calls get fewer), most when their loops only
    # accumulate them (fusion.py: little else per block); other work runs best on cache-sized
    # groups.
    has_mma = any(op.name == "mma" for op in fn.walk())
    share = 8 if fusion.all_mmas_joined(fn) else 24 if has_mma else 48
    biggest, shape = 1, ()
    for op in fn.walk():
        for r in op.results:
            if isinstance(r.type, TileType) and r.type.shape:
                size = int(np.prod(r.type.shape, dtype=object))
                if size > biggest:
                    biggest, shape = size, tuple(r.type.shape)
    return share, biggest, shape


def box_aligned(size: int, grid3) -> int:
    """A group size whose groups are boxes of the grid (whole rows, or whole planes), so values
    shared along a grid axis can be kept once (see grid.py); `size` when that would halve it."""
    gx, gy = grid3[0], grid3[0] * grid3[1]
    for unit in (gy, gx):
        if size >= unit:
            return size - size % unit
    largest = next(d for d in range(size, 0, -1) if gx % d == 0)      # the largest divisor ≤ size
    return largest if largest * 2 > size else size


def _torch_as_numpy(args):
    """torch tensors in host memory (CPU ones and the device layer's) as the NumPy views of
    them the launch would make anyway, so that a repeated launch meets the compiled backend's
    fast path, whose key is NumPy arrays; anything else, and any tensor that cannot be viewed,
    is left for the full path (and its located errors)."""
    if type(args) not in (tuple, list) or not any(type(a).__module__.startswith("torch") for a in args):
        return args
    out = []
    for a in args:
        if type(a).__module__.startswith("torch"):
            try:
                a = as_host_array(a, "")
            except Exception:      # the full path describes the argument with its name
                pass
        out.append(a)
    return type(args)(out)


def run_kernel(grid, kernel, args, *, checks: Optional[dict] = None, sequential: Optional[bool] = None,
               group: Optional[int] = None, out=None, block=None, numerics: Optional[str] = None,
               trace: Optional[str] = None, engine: Optional[str] = None, threads: Optional[int] = None):
    """Run `kernel` over `grid` on NumPy arrays (updated in place).

    `numerics` is 'exact' (the GPU's rounding, the default) or 'fast' (see numerics.py); the
    environment variable `TILESCOPE_NUMERICS` sets it when the argument is not given.

    `block=(x, y, z)` (or the environment variable `TILESCOPE_BLOCK="x,y,z"`) runs only
    that block, e.g. to debug it with `breakpoint()` (see `debugger.py`).

    `trace=DIR` writes a page and PNGs of which block touched which elements (tilescope.trace).

    `engine` is 'auto' (the default, or `TILESCOPE_ENGINE`): the compiled CPU backend
    (backends/compiled) where it can run the launch, else this executor; 'compiled' (an
    error where it cannot) or 'numpy'. `sequential`, `group`, `block` and `trace` are this
    executor's settings and select it. `threads`: the compiled backend's thread count.
    """
    tracing = session_for(trace)
    if tracing is not None and not tracing.admit(resolve_kernel(kernel)[0].__name__):
        tracing = None                       # past the kernel's traced launches: runs as untraced
    if sequential is None and group is None and block is None and tracing is None:
        args = _torch_as_numpy(args)
        done = compiled_backend().fast_launch(grid, kernel, args,
                                              checks if checks is not None else checks_from_env(),
                                              numerics, engine, threads, out)
        if done is not None:                 # a launch like an earlier compiled one, run from its plan
            return done
    grid3 = normalize_grid(grid)
    only = _selected_block(block, grid3)
    fn, _ = resolve_kernel(kernel)
    if not isinstance(args, (tuple, list)):
        raise LaunchError(f"kernel arguments must be a tuple, got {type(args).__name__}")
    specs, hosts = _param_specs(fn, list(args))
    for recorder in ACTIVE:
        recorder.add(fn, specs)
    compiled = compile_for(fn, specs)
    ir = compiled.final
    values: List[Any] = []
    for prm, host, spec in zip(ir.params, hosts, specs):
        values.extend(_runtime_values(prm, host, spec, prm.name))
    for i, v in enumerate(values):
        if isinstance(v, ArrayRef):
            v.index = i
    _reject_read_only_outputs(ir, values)
    _mark_unchanging(ir, values)
    chk = Checks(**(checks if checks is not None else checks_from_env()))
    sink = Sink()
    mode = numerics_setting(numerics)
    executor_only = sequential is True or group is not None or only is not None \
        or debugger.stop_at_entry_requested()
    logged = TraceRecorder(None, races_checked=chk.races and not uses_spin_lock(ir)) \
        if tracing is not None else None          # (spin locks: see the race tracker below)
    failed, done = None, False                # (the launch's exception, for its trace page)
    try:
        done = compiled_backend().launch(ir, grid3, values, chk, sink, out, numerics=mode, engine=engine,
                                         threads=threads, executor_only=executor_only, trace=logged)
    except BaseException as e:
        failed = e
        raise
    finally:
        if logged is not None and (done or failed is not None):
            _write_trace(tracing, logged, ir, grid3, chk, compiled, hosts, specs, failed)
    if done:
        return chk
    # Plain accesses ordered by a spin lock look like races to the tracker (it does not model
    # acquire/release), so kernels with spin locks run without race tracking.
    tracker = None
    if (chk.races or chk.uninit) and not uses_spin_lock(ir):
        arrays = [(r.name, r.array) for v in values for r in (v if isinstance(v, list) else [v])
                  if isinstance(r, ArrayRef)]
        tracker = RaceTracker(watched_reads=written_array_args(ir) if chk.races else set(), report_races=chk.races,
                              arrays=arrays)
    if tracing is not None:                  # records every access, then hands it to the race tracker
        tracker = TraceRecorder(tracker)
    nblocks = grid3[0] * grid3[1] * grid3[2]
    if only is not None:
        nblocks = 1
    if sequential is None:
        sequential = needs_sequential(ir)
    args_bytes = sum(v.array.nbytes for v in values if isinstance(v, ArrayRef))
    size = 1 if sequential else (group or box_aligned(group_size(ir, nblocks, args_bytes, values), grid3))
    snapshot = Snapshot(values, written_array_args(ir, _WRITE_OPS + _CAS_OPS + _RMW_OPS))
    progress = Progress(fn.__name__, nblocks)
    try:
        with numerics_mode(mode):
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
        if chk.uninit and tracker is not None and only is None:
            tracker.report_unwritten(fn.__name__, chk)
    except BaseException as e:
        failed = e
        snapshot.restore()        # nothing half-written: the arrays are as before the launch
        if isinstance(e, KeyboardInterrupt):
            raise KeyboardInterrupt(f"launch of '{fn.__name__}' interrupted; its arrays are as they were "
                                    f"before it") from None
        if isinstance(e, MemoryError):      # (one line from here, not a traceback through NumPy)
            raise MemoryError(f"launch of '{fn.__name__}' ran out of memory ({e}); its arrays are as they were "
                              f"before it") from None
        raise
    finally:
        snapshot.release()
        progress.close()
        sink.flush(out or sys.stdout)
        for r in chk.reports:
            print(f"tilescope: {r}", file=sys.stderr)
        if tracing is not None:
            _write_trace(tracing, tracker, ir, grid3, chk, compiled, hosts, specs, failed)
    return chk


def _write_trace(tracing, recorder, ir, grid3, chk, compiled, hosts, specs, failed) -> None:
    """Write the launch's trace page and say where (the page lists the scalar arguments' values)."""
    scalars = {p.name: np.asarray(h).item() for p, h, s in zip(ir.params, hosts, specs) if isinstance(s, ScalarSpec)}
    print(f"tilescope: {tracing.write(recorder, ir, grid3, chk, compiled, scalars, failed)}", file=sys.stderr)


def numerics_setting(numerics: Optional[str]) -> str:
    """The numerics mode of a launch: `numerics`, else `TILESCOPE_NUMERICS`, else 'exact'."""
    text = numerics if numerics is not None else os.environ.get(ENV_NUMERICS, "")
    mode = text.strip().lower() or "exact"
    if mode not in NUMERICS_MODES:
        where = "numerics" if numerics is not None else ENV_NUMERICS
        raise LaunchError(f"{where}: unknown numerics mode {text!r} (use {' or '.join(NUMERICS_MODES)})")
    return mode


def checks_from_env() -> dict:
    """`TILESCOPE_CHECKS`: comma-separated `bounds`, `races`, `poison`, `uninit`, `strict`, `all` or
    `none` (default: bounds,races)."""
    return parse_checks(os.environ.get("TILESCOPE_CHECKS", ""))


def parse_checks(text: str) -> dict:
    text = text.strip().lower()
    if not text:
        return {}
    words = {w.strip() for w in text.split(",") if w.strip()}
    unknown = words - {"bounds", "races", "poison", "uninit", "strict", "none", "all"}
    if unknown:
        raise LaunchError(f"unknown check(s) {', '.join(sorted(unknown))} "
                          f"(use bounds, races, poison, uninit, strict, all or none)")
    if "none" in words:
        return {"bounds": False, "races": False}
    # `strict` alone keeps the default checks and makes them fatal.
    every = "all" in words or not (words & {"bounds", "races", "poison", "uninit"})
    return {"bounds": every or "bounds" in words, "races": every or "races" in words, "strict": "strict" in words,
            "poison": "all" in words or "poison" in words, "uninit": "all" in words or "uninit" in words}


def _block_ids(grid3, start: int, stop: int) -> np.ndarray:
    """(stop - start, 3) block coordinates of linear ids start..stop-1 (made per group, so a
    huge grid costs no memory up front)."""
    lin = np.arange(start, stop, dtype=np.int64)
    return np.stack([lin % grid3[0], (lin // grid3[0]) % grid3[1], lin // (grid3[0] * grid3[1])], axis=1)


def _mark_unchanging(ir, values) -> None:
    """Mark the arrays no op of this launch can change (nor any array overlapping them):
    tiles loaded from those may be views of the caller's memory instead of copies."""
    changed = written_array_args(ir, _WRITE_OPS + _CAS_OPS + _RMW_OPS)
    refs = [(i, r) for i, v in enumerate(values) for r in (v if isinstance(v, list) else [v])
            if isinstance(r, ArrayRef)]
    targets = [r.array for i, r in refs if changed is None or i in changed]
    for _, r in refs:
        r.unchanging = not any(np.may_share_memory(r.array, t) for t in targets)


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
