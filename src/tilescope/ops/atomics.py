"""Atomic read-modify-write and compare-and-swap on array elements.

Three addressings share one set of typing rules:
  * `ct.atomic_*(array, indices, ...)`: element indices, as `gather`/`scatter`;
  * `RawArrayMemory.atomic_*_offset(offset, ...)`: flat element offsets;
  * `TiledView.atomic_store_*(index, update)`: a whole tile of a tiled view (no result).

Dtype rules (as upstream): add takes 32/64-bit ints and f32/f64 plus f16/bf16; max/min
take 32/64-bit ints only; and/or/xor take 32/64-bit ints and need the update's dtype to
equal the array's exactly; xchg and cas take 32/64-bit ints and floats. The update is
broadcast to the index shape *before* it is converted, so a bare literal update of a
non-scalar index is an int32 (or float32) tile: it converts only where promotion would.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Optional, Tuple

from .. import dtypes as D
from ..enums import MemoryOrder, MemoryScope
from ..ir.core import Value
from ..ir.primitive import BOOL, INT, one_of
from ..ir.types import RawMemoryType, TiledViewType, TileType
from .common import (broadcast_to, expect, implicit_cast, is_number, is_tile, no_results,
                     type_or_describe)
from .gather import broadcastable_to, custom_mask, indexed_lanes, mask_operands, stored_value
from .memory import memory_order_scope, scalar_index_items
from .registry import MEMORY_ORDER, MEMORY_SCOPE, Attr, generated_surface, method, no_rule, primitive, surface
from .views import raw_lanes, raw_offset, require_view, view_tile_operand

Shape = Tuple[int, ...]

_INT_32_64 = (D.int32, D.int64, D.uint32, D.uint64)
_INT_FLOAT_32_64 = _INT_32_64 + (D.float32, D.float64)
RMW_ORDERS = (MemoryOrder.RELAXED, MemoryOrder.ACQUIRE, MemoryOrder.RELEASE, MemoryOrder.ACQ_REL)


@dataclass(frozen=True)
class RmwSpec:
    bitwise: bool
    dtypes: Tuple[D.DType, ...]


RMW = {
    "xchg": RmwSpec(False, _INT_FLOAT_32_64),
    "add": RmwSpec(False, _INT_FLOAT_32_64 + (D.float16, D.bfloat16)),
    "max": RmwSpec(False, _INT_32_64),
    "min": RmwSpec(False, _INT_32_64),
    "and": RmwSpec(True, _INT_32_64),
    "or": RmwSpec(True, _INT_32_64),
    "xor": RmwSpec(True, _INT_32_64),
}

# Atomics order memory as acq_rel at device scope unless told otherwise.
ATOMIC_ORDER = {"memory_order": Attr(MEMORY_ORDER, MemoryOrder.ACQ_REL),
                "memory_scope": Attr(MEMORY_SCOPE, MemoryScope.DEVICE)}
_RMW_MODE = Attr(one_of(*RMW))
_STORED = Attr(INT, -1)          # the operand holding the stored value (for upstream parity reports)

ATOMIC = primitive(
    "atomic", "Atomic read-modify-write `mode` (add, max, min, and, or, xor, xchg) of the elements at "
    "element indices (as scatter; out-of-bounds skipped when `check_bounds`); result: the old values.",
    operands=("array", "*index", "update"), traits=("side_effects",),
    attrs={"mode": _RMW_MODE, "check_bounds": Attr(BOOL, True), **ATOMIC_ORDER, "stored_operand": _STORED})
ATOMIC_CAS = primitive(
    "atomic_cas", "Atomic compare-and-swap at element indices: where old == expected store desired; "
    "result: the old values (`expected` where out of bounds).", operands=("array", "*index", "expected", "desired"),
    traits=("side_effects",), attrs={"check_bounds": Attr(BOOL, True), **ATOMIC_ORDER, "stored_operand": _STORED})
RAW_ATOMIC = primitive(
    "raw_atomic", "`atomic` on raw memory at element offsets (where the mask holds).",
    operands=("memory", "offset", "update", "mask?has_mask"), traits=("side_effects",),
    attrs={"mode": _RMW_MODE, "has_mask": Attr(BOOL, False), **ATOMIC_ORDER, "stored_operand": _STORED})
RAW_ATOMIC_CAS = primitive(
    "raw_atomic_cas", "`atomic_cas` on raw memory at element offsets (where the mask holds).",
    operands=("memory", "offset", "expected", "desired", "mask?has_mask"), traits=("side_effects",),
    attrs={"has_mask": Attr(BOOL, False), **ATOMIC_ORDER, "stored_operand": _STORED})
TILED_ATOMIC = primitive(
    "tiled_atomic", "Atomic reduction `mode` of a tile into a tiled view at a tile index (no result); "
    "out-of-bounds elements are skipped.", operands=("view", "*index", "update"), results=0,
    traits=("side_effects",), attrs={"mode": _RMW_MODE, **ATOMIC_ORDER, "stored_operand": _STORED})


# ---- typing helpers -----------------------------------------------------------------

def rmw_update(ctx, update: Any, shape: Shape, dtype: D.DType, bitwise: bool, what: str = "index",
               target: str = "index shape") -> Value:
    """Broadcast the update to `shape`, then convert it (bitwise ops need an exact dtype match)."""
    if not is_tile(update) and not is_number(update):
        raise ctx.type_error(f"Update must be a tile or a scalar, got {type_or_describe(update)}")
    ushape = update.type.shape if is_tile(update) else ()
    if not broadcastable_to(ushape, shape):
        raise ctx.type_error(f"Update shape {ushape} is not broadcastable to the {target} {shape}")
    if is_number(update) and shape == ():
        loose = update                 # a scalar literal stays loose and adapts to the array dtype
        update_dtype = D.literal_dtype(update)
    else:
        loose = None
        if is_number(update):
            update = ctx.to_value(update)
        update = broadcast_to(ctx, update, shape)
        update_dtype = update.type.dtype
    if bitwise:
        if update_dtype is not dtype:
            raise ctx.type_error(f"Bitwise atomic read-modify-write operations require the update dtype "
                                 f"({update_dtype}) to exactly match the target dtype ({dtype})")
        return ctx.to_value(loose, dtype) if loose is not None else update
    return implicit_cast(ctx, loose if loose is not None else update, dtype,
                         "Update is incompatible with the target dtype")


def _rmw_checks(ctx, op: str, dtype: D.DType, what: str = "array"):
    if dtype not in RMW[op].dtypes:
        raise ctx.type_error(f"Unsupported {what} dtype: {dtype}")


def _order(ctx, memory_order, memory_scope, opname):
    return memory_order_scope(ctx, memory_order, memory_scope, opname, RMW_ORDERS)


def _rmw_operands(ctx, op: str, dtype: D.DType, update, shape: Shape, memory_order, memory_scope):
    """(update operand, memory order, memory scope) of an RMW atomic `op` on `dtype` lanes of `shape`."""
    _rmw_checks(ctx, op, dtype)
    u = rmw_update(ctx, update, shape, dtype, RMW[op].bitwise)
    return (u,) + _order(ctx, memory_order, memory_scope, "tile_atomic_rmw")


# ---- ct.atomic_* (element indices) --------------------------------------------------

def _indexed_rmw(op: str):
    def stub(array, indices, update, /, *, check_bounds=True, memory_order=MemoryOrder.ACQ_REL,
             memory_scope=MemoryScope.DEVICE):
        pass
    sf = generated_surface("atomics", f"atomic_{op}", stub,
                           f"Atomically apply `{op}` with `update` to the elements of `array` at `indices` "
                           f"(as `scatter`) and return their old values, shaped like the broadcast indices.")

    @sf.rule
    def rule(ctx, array, indices, update, check_bounds, memory_order, memory_scope):
        cb, a, idx, shape = indexed_lanes(ctx, array, indices, check_bounds)
        dtype = a.type.dtype
        u, mo, ms = _rmw_operands(ctx, op, dtype, update, shape, memory_order, memory_scope)
        return ctx.emit1("atomic", [a] + idx + [u], TileType(dtype, shape), mode=op, check_bounds=cb,
                         memory_order=mo, memory_scope=ms)
    return sf


atomic_xchg = _indexed_rmw("xchg")
atomic_add = _indexed_rmw("add")
atomic_max = _indexed_rmw("max")
atomic_min = _indexed_rmw("min")
atomic_and = _indexed_rmw("and")
atomic_or = _indexed_rmw("or")
atomic_xor = _indexed_rmw("xor")


def _cas_operands(ctx, dtype, shape, expected, desired, memory_order, memory_scope):
    """(expected, desired, memory order, memory scope) of a compare-and-swap on `dtype` lanes of `shape`."""
    if dtype not in _INT_FLOAT_32_64:
        raise ctx.type_error(f"Unsupported array dtype: {dtype}")
    e = stored_value(ctx, expected, shape, dtype, "Expected value")
    d = stored_value(ctx, desired, shape, dtype, "Desired value")
    return (e, d) + _order(ctx, memory_order, memory_scope, "tile_atomic_cas")


@surface("atomics")
def atomic_cas(array, indices, expected, desired, /, *, check_bounds=True, memory_order=MemoryOrder.ACQ_REL,
               memory_scope=MemoryScope.DEVICE):
    """Atomic compare-and-swap at `indices`: where the element equals `expected`, write `desired`.

    Returns the old elements (shaped like the broadcast indices); out-of-bounds
    positions are skipped and return `expected`.
    """


@atomic_cas.rule
def _(ctx, array, indices, expected, desired, check_bounds, memory_order, memory_scope):
    cb, a, idx, shape = indexed_lanes(ctx, array, indices, check_bounds)
    e, d, mo, ms = _cas_operands(ctx, a.type.dtype, shape, expected, desired, memory_order, memory_scope)
    return ctx.emit1("atomic_cas", [a] + idx + [e, d], TileType(a.type.dtype, shape), check_bounds=cb,
                     memory_order=mo, memory_scope=ms)


# ---- RawArrayMemory.atomic_*_offset ---------------------------------------------------

def _require_raw(ctx, raw: Any) -> Value:
    if isinstance(raw, Value) and isinstance(raw.type, RawMemoryType):
        return raw
    raise ctx.type_error(f"Expected a RawArrayMemory, but given value has type {type_or_describe(raw)}")


def _raw_lanes(ctx, raw: Any, offset: Any, mask: Any):
    """(raw memory, offset operand, lane shape, mask or None) of a raw-memory atomic."""
    raw = _require_raw(ctx, raw)
    off, shape = raw_offset(ctx, raw, offset)
    return raw, off, shape, custom_mask(ctx, mask, shape)


def _emit_raw(ctx, name: str, operands: List[Value], shape, mask: Optional[Value], mo, ms, **attrs) -> Value:
    """Emit a raw-memory atomic: its old values, shaped like the offsets (the stored value is the
    last operand before the mask)."""
    extra, has_mask = mask_operands(mask)
    return ctx.emit1(name, operands + extra, TileType(operands[0].type.dtype, shape),
                     **dict(attrs, has_mask=has_mask, memory_order=mo, memory_scope=ms,
                            stored_operand=len(operands) - 1))


def _raw_rmw(op: str):
    def stub(self, offset, update, /, *, mask=None, memory_order=MemoryOrder.ACQ_REL,
             memory_scope=MemoryScope.DEVICE):
        pass
    name = f"atomic_{op}_offset"
    sf = generated_surface("atomics", f"RawArrayMemory.{name}", stub,
                           f"Atomically apply `{op}` with `update` at base + `offset` (in elements) where "
                           f"`mask` holds; returns the old values shaped like `offset`.")

    @sf.rule
    def rule(ctx, self, offset, update, mask, memory_order, memory_scope):
        raw, off, shape, m = _raw_lanes(ctx, self, offset, mask)
        u, mo, ms = _rmw_operands(ctx, op, raw.type.dtype, update, shape, memory_order, memory_scope)
        return _emit_raw(ctx, "raw_atomic", [raw, off, u], shape, m, mo, ms, mode=op)
    method(RawMemoryType, name, sf)
    return sf


for _op in RMW:
    _raw_rmw(_op)


@surface("atomics", name="RawArrayMemory.atomic_cas_offset")
def atomic_cas_offset(self, offset, expected, desired, /, *, mask=None, memory_order=MemoryOrder.ACQ_REL,
                      memory_scope=MemoryScope.DEVICE):
    """Atomic compare-and-swap at base + `offset` (in elements) where `mask` holds; returns old values."""


@atomic_cas_offset.rule
def _(ctx, self, offset, expected, desired, mask, memory_order, memory_scope):
    raw, off, shape, m = _raw_lanes(ctx, self, offset, mask)
    e, d, mo, ms = _cas_operands(ctx, raw.type.dtype, shape, expected, desired, memory_order, memory_scope)
    return _emit_raw(ctx, "raw_atomic_cas", [raw, off, e, d], shape, m, mo, ms)


method(RawMemoryType, "atomic_cas_offset", atomic_cas_offset)


# ---- TiledView.atomic_store_* ------------------------------------------------------------

def _view_rmw(op: str):
    def stub(self, index, update, /):
        pass
    name = f"atomic_store_{op}"
    sf = generated_surface("atomics", f"TiledView.{name}", stub,
                           f"Atomically combine (`{op}`) the tile `update` into the view's tile at `index`; "
                           f"out-of-bounds elements are skipped. Returns nothing.")

    @sf.rule
    def rule(ctx, self, index, update):
        view = require_view(ctx, self)
        vt: TiledViewType = view.type
        _rmw_checks(ctx, op, vt.dtype, "tiled view")
        idx = scalar_index_items(ctx, index, len(vt.order), "tiled view")
        full = vt.tile_shape or (1,) * len(vt.order)
        u = broadcast_to(ctx, view_tile_operand(ctx, vt, update, "Update"), full)
        u = rmw_update(ctx, u, full, vt.dtype, RMW[op].bitwise, target="tiled view's tile shape")
        ctx.emit("tiled_atomic", [view] + idx + [u], [], mode=op, memory_order=MemoryOrder.RELAXED,
                 memory_scope=MemoryScope.DEVICE)
        return None
    method(TiledViewType, name, sf)
    return sf


for _op in ("add", "max", "min", "and", "or", "xor"):
    _view_rmw(_op)

del _op


# ---- CPU executor rules ------------------------------------------------------------
# Each element is updated atomically and the returned tile holds the values each lane saw
# before its own update. The executor applies the lanes of one op in (block, row-major lane)
# order, the order one-block-at-a-time execution would use, so old values and float sums
# never depend on how blocks are grouped. Order-independent integer ops run vectorised
# (segmented scans over lanes sorted by address); float add (rounded per update in the
# array's dtype, f16/bf16 included) and CAS replay each address's lanes in order.
#
# Lanes that are masked off or out of bounds are no-ops: an RMW returns 0 there and a CAS
# returns `expected` (cuTile documents the latter; the former is tilescope's choice — the
# GPU value is unspecified). CAS compares bit patterns, as the hardware does (so -0.0 and
# 0.0 differ and a NaN matches itself).

import numpy as _np  # noqa: E402

from ..backends.numpy import tiles as _T  # noqa: E402
from ..semantics import memory as lanes  # noqa: E402
from ..semantics.atomics import apply_atomic  # noqa: E402

def _atomic_lanes(ex, op, base, coords, ok, lane_mask, mode, update, expected, *, what, ub, report_oob):
    """Run an atomic over the active, in-bounds, unmasked lanes; returns the (B, *S) old values."""
    dt = base.array.dtype
    want, okf, cf, (upd, exp) = lanes.store_lanes(ex, ok, coords, lane_mask, update, expected)
    sel = want & okf
    if report_oob and ex.checks.bounds and not okf.all():
        bad = want & ~okf
        if bad.any():
            b, lane = _T.first_lane(bad)
            elem = tuple(int(c[(b,) + lane]) for c in cf)
            why = "undefined behaviour on the GPU; tilescope makes the lane a no-op" if ub else "the lane is a no-op"
            _T.report_once(ex, op, "oob", f"{what} out of bounds: array '{base.name}' of shape "
                                          f"{tuple(base.array.shape)}, element {elem} (lane {lane}): {why}",
                           ex.block_ids[b])
    old = _np.array(exp, dtype=dt) if mode == "cas" else _np.zeros(want.shape, dtype=dt)
    if not sel.any():
        return old
    if ex.checks.poison:        # an update computed from UNDETERMINED padding, as for a store
        _T.check_poison(ex, op, base, _np.broadcast_to(_np.asarray(upd), sel.shape), sel, cf, into=what)
    cs = tuple(c[sel] for c in cf)
    on_atomic = getattr(ex.races, "record_atomic", None)       # the race tracker, or a launch trace
    if on_atomic is not None:
        on_atomic(ex, op, base, cs,
                  _np.broadcast_to(ex.linear_block_ids().reshape((-1,) + (1,) * (want.ndim - 1)), want.shape)[sel])
    old[sel] = apply_atomic(base.array, cs, mode, _np.asarray(upd[sel], dtype=dt),
                            None if exp is None else _np.asarray(exp[sel], dtype=dt))
    return old


# With bounds checks, an out-of-bounds index is cuTile's way to mask an atomic lane (atomics
# take no mask), so it is not reported; without them it is undefined behaviour and reported.

@ATOMIC.numpy
@_T.per_array
def _(ex, op, ref, *rest):
    n = op.operands[0].type.ndim
    idx, update = rest[:n], rest[n]
    base, coords, ok = _T.resolve(ref, idx)
    return _atomic_lanes(ex, op, base, coords, ok, None, op.attrs["mode"], update, None,
                         **_T.bounds_reporting(op, f"atomic_{op.attrs['mode']}"))


@ATOMIC_CAS.numpy
@_T.per_array
def _(ex, op, ref, *rest):
    n = op.operands[0].type.ndim
    idx, expected, desired = rest[:n], rest[n], rest[n + 1]
    base, coords, ok = _T.resolve(ref, idx)
    return _atomic_lanes(ex, op, base, coords, ok, None, "cas", desired, expected,
                         **_T.bounds_reporting(op, "atomic_cas"))


@RAW_ATOMIC.numpy
@_T.per_array
def _(ex, op, ref, offsets, update, *mask):
    m = mask[0] if op.attrs["has_mask"] else None
    what = f"atomic_{op.attrs['mode']}_offset"
    base, coords, ok = raw_lanes(ex, op, ref, offsets, m, what)
    return _atomic_lanes(ex, op, base, coords, ok, m, op.attrs["mode"], update, None, what=what, ub=True,
                         report_oob=False)


@RAW_ATOMIC_CAS.numpy
@_T.per_array
def _(ex, op, ref, offsets, expected, desired, *mask):
    m = mask[0] if op.attrs["has_mask"] else None
    base, coords, ok = raw_lanes(ex, op, ref, offsets, m, "atomic_cas_offset")
    return _atomic_lanes(ex, op, base, coords, ok, m, "cas", desired, expected, what="atomic_cas_offset", ub=True,
                         report_oob=False)


@TILED_ATOMIC.numpy
@_T.per_array
def _(ex, op, ref, *rest):
    vt: TiledViewType = op.operands[0].type
    index, update = rest[:-1], rest[-1]
    shape = vt.tile_shape or (1,) * len(vt.order)
    steps = tuple(vt.traversal_steps) if vt.traversal_steps else shape
    coords = _T.tile_coords(index, shape, tuple(vt.order), steps)
    base, bc, ok = _T.resolve(ref, coords)
    _atomic_lanes(ex, op, base, bc, ok, None, op.attrs["mode"], update, None,
                  what=f"TiledView.atomic_store_{op.attrs['mode']}", ub=False, report_oob=False)
    return None


@ATOMIC.transpile
def _(w, op):
    w.call(op, "atomic", "ctx", w.args(op.operands), mode=op.attrs["mode"])


@ATOMIC_CAS.transpile
def _(w, op):
    w.call(op, "atomic_cas", "ctx", w.args(op.operands))


no_rule("transpile", "raw-memory and tiled-view atomics are not transpiled yet", RAW_ATOMIC, RAW_ATOMIC_CAS, TILED_ATOMIC)


# ---- typing (the verifier's rules) and folding -------------------------------------------

def _old_values(op):
    """Typing rule: the old values, of the memory's dtype and the lanes' shape."""
    mem, r = op.operands[0].type, op.results[0].type
    if op.name in ("atomic", "atomic_cas"):      # array, an index tile per axis, update (or expected, desired)
        want = 1 + mem.ndim + (2 if op.name == "atomic_cas" else 1)
        expect(len(op.operands) == want, f"{len(op.operands)} operands, expected {want} for this array")
    expect(isinstance(r, TileType) and r.dtype is mem.dtype, f"old values of {mem} cannot be {r}")
    return [r]


for _p in (ATOMIC, ATOMIC_CAS, RAW_ATOMIC, RAW_ATOMIC_CAS):
    _p.typing(_old_values)
TILED_ATOMIC.typing(no_results)

no_rule("fold", "writes memory", ATOMIC, ATOMIC_CAS, RAW_ATOMIC, RAW_ATOMIC_CAS, TILED_ATOMIC)
no_rule("tileir", "not lowered to TileIR yet", RAW_ATOMIC, RAW_ATOMIC_CAS, TILED_ATOMIC)
