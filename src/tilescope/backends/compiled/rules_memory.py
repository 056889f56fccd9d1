"""C rules of block ids, array shapes and tile loads/stores (load_tile, store_tile, num_tiles).

A tile's origin along tile axis k is index[k] * step[k] elements of array axis order[k]
(step: traversal_steps, else the tile shape). Loads of tiles inside the array copy them
with compile-time tile strides; partial tiles are padded per padding_mode; stores drop the
elements outside the array. A tile entirely outside the array is reported (bounds check),
as the executor does.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Optional, Tuple

import numpy as np

from ..numpy.tiles import padding_for
from .cgen import CVal, Unsupported, ctype, tile_of
from .rules import rule


@rule("bid")
def _bid(g, op):
    g.scalar(op.results[0], f"(int32_t)b{op.attrs['axis']}")


@rule("num_blocks")
def _num_blocks(g, op):
    g.scalar(op.results[0], f"(int32_t)g{op.attrs['axis']}")


@rule("array_dim")
def _array_dim(g, op):
    a = g.array(op.operands[0])
    axis = op.attrs["axis"]
    what = a.dim(axis) if op.attrs["what"] == "shape" else a.stride(axis)
    g.scalar(op.results[0], f"({ctype(op.results[0].type.dtype)}){what}")


@rule("num_tiles")
def _num_tiles(g, op):
    a = g.array(op.operands[0])
    axis, shape, order = op.attrs["axis"], op.attrs["shape"], op.attrs["order"]
    step = op.attrs.get("traversal_steps", shape)[axis]
    n = a.dim(order[axis])
    g.scalar(op.results[0], f"(int32_t)(({n} + {step - 1}) / {step})")


def _plain_access(op) -> None:
    order = op.attrs.get("memory_order")
    if getattr(order, "name", order) not in (None, "WEAK"):
        raise Unsupported(f"{op.name} with memory order {getattr(order, 'name', order)} is not supported "
                          f"by the compiled backend yet")


def padding_bits(mode, dtype) -> str:
    """C literal of the executor's padding value for `mode` (tiles.padding_for, no poison)."""
    v = np.asarray(padding_for(mode, dtype, False))
    raw = int(v.reshape(1).view(f"u{v.dtype.itemsize}")[0])
    if dtype.name in ("float32", "tfloat32"):
        return f"ts_u2f(0x{raw:08X}u)"
    if dtype.name == "float64":
        return f"ts_u2d(0x{raw:016X}ull)"
    return f"({ctype(dtype)})0x{raw:X}u"


class _Tile:
    """C expressions of a tile access: per tile axis its origin variable, array extent and stride."""

    def __init__(self, g, op, arr, index, shape, order, steps):
        self.shape, self.order = tuple(shape), tuple(order)
        steps = tuple(steps) if steps is not None else self.shape
        w = g.w
        self.origin = []
        for k, (i, s) in enumerate(zip(index, steps)):
            name = g.fresh("o")
            w(f"const int64_t {name} = (int64_t){g.val(i).scalar_expr()} * {s};")
            self.origin.append(name)
        self.extent = [arr.dim(order[k]) for k in range(len(self.shape))]
        self.stride = [arr.stride(order[k]) for k in range(len(self.shape))]
        self.index_exprs = [g.val(i).scalar_expr() for i in index]

    def inside(self) -> str:
        return " && ".join(f"{o} >= 0 && {o} + {t} <= {n}" for o, t, n in zip(self.origin, self.shape, self.extent))

    def touches(self) -> str:
        return " && ".join(f"{o} < {n} && {o} + {t} > 0" for o, t, n in zip(self.origin, self.shape, self.extent))

    def offset(self, idx) -> str:
        return " + ".join(f"({o} + {i})*{s}" for o, i, s in zip(self.origin, idx, self.stride))

    def lane_inside(self, idx) -> str:
        return " && ".join(f"(uint64_t)({o} + {i}) < (uint64_t){n}" for o, i, n in zip(self.origin, idx, self.extent))


def _check_touch(g, op, tile: _Tile, arr, what: str) -> None:
    if not g.options.bounds or not tile.shape:
        return
    site = g.report_site(op, "tile-oob", what=what, array=arr.param_index, tile_shape=tile.shape, ndim=arr.ndim)
    w = g.w
    w.open(f"if (TS_UNLIKELY(!({tile.touches()})))")
    details = [f"(int64_t){e}" for e in tile.index_exprs] + [arr.dim(k) for k in range(arr.ndim)]
    w(f"const int64_t det[{len(details)}] = {{{', '.join(details)}}};")
    w(f"ts_report(ctx, {site}, lin, {len(details)}, det);")
    w.close()


def _track(g, arr, tile: "_Tile", write: bool) -> None:
    """Record the block's access of this tile (options.track: disjoint.trackable)."""
    slots = g.tracked_slots
    if arr.param_index not in slots:
        return
    slot = slots[arr.param_index]
    w = g.w
    counts = [f"(({tile.extent[k]} + {t - 1}) / {t})" for k, t in enumerate(tile.shape)]
    idx = [f"(int64_t)({e})" for e in tile.index_exprs]
    inside = " && ".join(f"{i} >= 0 && {i} < {c}" for i, c in zip(idx, counts))
    lin = idx[0]
    for i, c in zip(idx[1:], counts[1:]):
        lin = f"({lin}) * {c} + {i}"
    w(f"if ({inside}) ts_track(ctx, {slot}, {lin}, lin, {1 if write else 0});")


@dataclass(frozen=True)
class LogSite:
    """An access a launch trace records (options.log): the op, its array argument, and the
    tile it reads or writes; each ts_log entry names its site by position."""
    op: Any
    param_index: int
    write: bool
    shape: Tuple[int, ...]
    order: Tuple[int, ...]
    lanes: Optional[str] = None       # element accesses: 'read', 'write', 'atomic' or 'oob' (entries: coordinates)


def _log(g, op, arr, tile: "_Tile", steps, write: bool) -> None:
    """Append the block's access of this tile to the launch's trace log (options.log)."""
    if not g.options.log:
        return
    _loggable(arr, len(tile.shape))
    if steps is not None and tuple(steps) != tile.shape:
        raise Unsupported("traces of tiles with traversal steps are recorded by the NumPy executor")
    site = len(g.log_sites)
    g.log_sites.append(LogSite(op, arr.param_index, write, tile.shape, tile.order))
    g.w(log_entry(site, f"ts_occ[{site}]++", [f"(int64_t)({e})" for e in tile.index_exprs]))


def lane_log_sites(g, op, arr, kinds) -> Tuple[Optional[str], List[int]]:
    """For a per-element access in a traced launch (options.log): the C name of this call's
    occurrence (counted once per call, before the lanes) and a log site per kind of lane
    ('read', 'write', 'atomic', 'oob'); (None, []) when not tracing."""
    if not g.options.log:
        return None, []
    _loggable(arr, arr.ndim)
    first = len(g.log_sites)
    for kind in kinds:
        g.log_sites.append(LogSite(op, arr.param_index, kind in ("write", "atomic"), (), (), kind))
    occ = g.fresh("occ")
    g.w(f"const int32_t {occ} = ts_occ[{first}]++;")
    return occ, list(range(first, first + len(kinds)))


def _loggable(arr, rank: int) -> None:
    """Refuse what a log entry cannot describe (the executor traces it): accesses through a view,
    whose coordinates are the view's, and more than five coordinates."""
    if arr.ptr_expr is not None:
        raise Unsupported("traces of accesses through array views are recorded by the NumPy executor")
    if rank > 5:
        raise Unsupported("traces of tiles or arrays of rank above 5 are recorded by the NumPy executor")


def log_entry(site: int, occ: str, where) -> str:
    """The C statement appending an entry to the trace log: its site, the block, the occurrence
    `occ`, and `where` (a tile's index or a lane's element coordinates)."""
    return (f"{{ const int64_t at[{len(where)}] = {{{', '.join(where)}}}; "
            f"ts_log(ctx, {site}, lin, {occ}, {len(where)}, at); }}")


def _tile_loops(g, shape, body):
    """Loops over a tile's elements with named indices; body(idx, flat) writes one element."""
    w = g.w
    names = [g.fresh("k") for _ in shape]
    with w.loops(names, shape):
        strides, step = [], 1
        for t in reversed(shape):
            strides.append(step)
            step *= t
        strides.reverse()
        flat = " + ".join(f"{n}*{s}" if s != 1 else n for n, s in zip(names, strides)) or "0"
        body(names, flat)


@rule("load_tile")
def _load_tile(g, op):
    load_tile(g, op, tuple(op.results[0].type.shape), op.attrs["order"], op.attrs.get("traversal_steps"),
              op.attrs["padding_mode"])


def load_tile(g, op, shape, order, steps, padding_mode) -> None:
    _plain_access(op)
    arr = g.array(op.operands[0])
    if arr.ndim == 0:
        raise Unsupported("loads from 0-d arrays are not supported by the compiled backend yet")
    if g.options.poison:
        raise Unsupported("the poison check runs on the NumPy executor")
    t = op.results[0].type
    if g.options.bounds and not op.attrs.get("check_bounds", True):
        raise Unsupported("check_bounds=False with the bounds check runs on the NumPy executor")
    out = g.buffer(t.dtype, shape, f"v{op.results[0].id}")
    w = g.w
    tile = None
    if g.options.log:            # (before the guard: a tile BLAS reads in place is read all the same)
        tile = _Tile(g, op, arr, op.operands[1:], shape, order, steps)
        _log(g, op, arr, tile, steps, write=False)
    if g.guard is not None:              # (a tile that BLAS reads in place instead: rules_matmul._InPlace)
        w.open(f"if (!{g.guard})")
    tile = tile or _Tile(g, op, arr, op.operands[1:], shape, order, steps)
    _check_touch(g, op, tile, arr, "load")
    _track(g, arr, tile, write=False)
    pad = padding_bits(padding_mode, t.dtype)
    w.open(f"if (TS_LIKELY({tile.inside()}))")
    _tile_loops(g, shape, lambda idx, flat: w(f"{out.buf}[{flat}] = {arr.ptr()}[{tile.offset(idx)}];"))
    w.close()
    w.open("else")
    _tile_loops(g, shape, lambda idx, flat: w(
        f"{out.buf}[{flat}] = ({tile.lane_inside(idx)}) ? {arr.ptr()}[{tile.offset(idx)}] : {pad};"))
    w.close()
    if g.guard is not None:
        w.close()
    g.define(op.results[0], out)


@rule("store_tile")
def _store_tile(g, op):
    store_tile(g, op, tuple(op.operands[-1].type.shape), op.attrs["order"], op.attrs.get("traversal_steps"))


def store_tile(g, op, shape, order, steps) -> None:
    _plain_access(op)
    arr = g.array(op.operands[0])
    value = g.val_lazy(op.operands[-1])
    if arr.ndim == 0 or len(shape) != arr.ndim:
        raise Unsupported("stores into 0-d arrays or of mismatched rank run on the NumPy executor")
    if g.options.poison:
        raise Unsupported("the poison check runs on the NumPy executor")
    if g.options.bounds and not op.attrs.get("check_bounds", True):
        raise Unsupported("check_bounds=False with the bounds check runs on the NumPy executor")
    tile = _Tile(g, op, arr, op.operands[1:-1], shape, order, steps)
    _check_touch(g, op, tile, arr, "store")
    _track(g, arr, tile, write=True)
    _log(g, op, arr, tile, steps, write=True)
    src = tile_of(value, shape)
    w = g.w
    w.open(f"if (TS_LIKELY({tile.inside()}))")
    _store_loops(g, shape, src, lambda idx, e: w(f"{arr.ptr()}[{tile.offset(idx)}] = {e};"))
    w.close()
    w.open("else")
    _store_loops(g, shape, src, lambda idx, e: w(
        f"if ({tile.lane_inside(idx)}) {arr.ptr()}[{tile.offset(idx)}] = {e};"))
    w.close()


def _store_loops(g, shape, src: CVal, body):
    w = g.w
    names = [g.fresh("k") for _ in shape]
    with w.loops(names, shape):
        body(names, src.at(names))


# ---- views -------------------------------------------------------------------------------------

@rule("array_slice")
def _array_slice(g, op):
    """Array.slice: bounds clamped into the array (a report when they break 0 <= start <= stop
    <= extent), the view's pointer moved to `start` along the axis."""
    from dataclasses import replace
    arr = g.array(op.operands[0])
    ax = op.attrs["axis"]
    w = g.w
    lo, hi, n = g.fresh("lo"), g.fresh("hi"), g.fresh("n")
    w(f"const int64_t {n} = {arr.dim(ax)};")
    w(f"int64_t {lo} = (int64_t){g.val(op.operands[1]).scalar_expr()}, {hi} = (int64_t){g.val(op.operands[2]).scalar_expr()};")
    if g.options.bounds:
        site = g.report_site(op, "slice", axis=ax, array=arr.param_index)
        w(f"if (TS_UNLIKELY({lo} < 0 || {hi} < {lo} || {hi} > {n})) "
          f"{{ const int64_t det[3] = {{{lo}, {hi}, {n}}}; ts_report(ctx, {site}, lin, 3, det); }}")
    w(f"{lo} = {lo} < 0 ? 0 : {lo} > {n} ? {n} : {lo};")
    w(f"{hi} = {hi} < {lo} ? {lo} : {hi} > {n} ? {n} : {hi};")
    ptr = g.fresh("view")
    w(f"{ctype(arr.dtype)} *const {ptr} = {arr.ptr()} + {lo} * {arr.stride(ax)};")
    dims = [arr.dim(k) for k in range(arr.ndim)]
    dims[ax] = f"({hi} - {lo})"
    g.arrays[op.results[0].id] = replace(arr, ptr_expr=ptr, dims=dims)


@rule("tiled_view")
def _tiled_view(g, op):
    g.arrays[op.results[0].id] = g.array(op.operands[0])


def _view_layout(vt):
    shape = tuple(vt.tile_shape or (1,) * len(vt.order))
    steps = tuple(vt.traversal_steps) if vt.traversal_steps else shape
    return shape, tuple(vt.order), (None if steps == shape else steps)


@rule("tiled_load")
def _tiled_load(g, op):
    shape, order, steps = _view_layout(op.operands[0].type)
    load_tile(g, op, shape, order, steps, op.operands[0].type.padding_mode)


@rule("tiled_store")
def _tiled_store(g, op):
    shape, order, steps = _view_layout(op.operands[0].type)
    store_tile(g, op, shape, order, steps)


@rule("tiled_num_tiles")
def _tiled_num_tiles(g, op):
    shape, order, steps = _view_layout(op.operands[0].type)
    a = g.array(op.operands[0])
    step = (steps or shape)[op.attrs["axis"]]
    n = a.dim(order[op.attrs["axis"]])
    g.scalar(op.results[0], f"(int32_t)(({n} + {step - 1}) / {step})")
