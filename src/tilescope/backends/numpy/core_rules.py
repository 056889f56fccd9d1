"""NumPy rules for the core ops: constants, block ids, array metadata, tile loads/stores, arithmetic."""
from __future__ import annotations

import numpy as np

from ...ops.registry import numpy_rule
from .executor import Executor, np_dtype
from .numerics import convert
from .tiles import ArrayRef, gather_tiles, padding_value, tile_coords, tile_index_bounds, in_bounds, tile_view, \
    tiles_fully_inside


def _result_type(op):
    return op.results[0].type


@numpy_rule("const")
def _const(ex: Executor, op):
    t = _result_type(op)
    return np.full((1,), op.attrs["value"], dtype=np_dtype(t))


@numpy_rule("undef")
def _undef(ex: Executor, op):
    t = _result_type(op)
    return np.zeros((1,) + t.shape, dtype=np_dtype(t))


@numpy_rule("bid")
def _bid(ex: Executor, op):
    return ex.block_ids[:, op.attrs["axis"]].astype(np.int32)


@numpy_rule("num_blocks")
def _num_blocks(ex: Executor, op):
    return np.full((1,), ex.grid[op.attrs["axis"]], dtype=np.int32)


@numpy_rule("array_dim")
def _array_dim(ex: Executor, op, arr: ArrayRef):
    axis = op.attrs["axis"]
    a = arr.array
    if op.attrs["what"] == "shape":
        value = a.shape[axis]
    else:
        value = a.strides[axis] // a.itemsize
    return np.full((1,), value, dtype=np_dtype(_result_type(op)))


@numpy_rule("list_len")
def _list_len(ex: Executor, op, lst):
    return np.full((1,), len(lst), dtype=np.int32)


@numpy_rule("broadcast")
def _broadcast(ex: Executor, op, x):
    shape = _result_type(op).shape
    return np.broadcast_to(x, (x.shape[0],) + shape)


@numpy_rule("reshape")
def _reshape(ex: Executor, op, x):
    shape = _result_type(op).shape
    return x.reshape((x.shape[0],) + shape)


@numpy_rule("astype")
def _astype(ex: Executor, op, x):
    return convert(x, op.operands[0].type.dtype, op.attrs["dtype"])


@numpy_rule("breakpoint")
def _breakpoint(ex: Executor, op):
    hook = getattr(ex, "breakpoint_hook", None)
    if hook is not None:
        hook(ex, op)
    return None


def _floordiv(x, y):
    if x.dtype.kind in "iu":
        safe = np.where(y == 0, 1, y)
        return np.where(y == 0, 0, np.floor_divide(x, safe)).astype(x.dtype)
    return np.floor_divide(x, y)


def _mod(x, y):
    if x.dtype.kind in "iu":
        safe = np.where(y == 0, 1, y)
        return np.where(y == 0, 0, np.mod(x, safe)).astype(x.dtype)
    return np.mod(x, y)


def _pow(x, y):
    if x.dtype.kind in "iu":
        neg = y < 0
        r = np.power(x, np.where(neg, 0, y))
        # x ** -k for integers: 1 when x == 1, -1/1 alternating for -1, else 0 (truncated).
        special = np.where(x == 1, 1, np.where(x == -1, np.where(y % 2 == 0, 1, -1), 0))
        return np.where(neg, special, r).astype(x.dtype)
    return np.power(x, y)


def _cdiv(x, y):
    safe = np.where(y == 0, 1, y)
    return np.where(y == 0, 0, -np.floor_divide(-x, safe)).astype(x.dtype)


_BINARY = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "truediv": np.true_divide,
    "floordiv": _floordiv, "mod": _mod, "pow": _pow, "cdiv": _cdiv,
}


@numpy_rule("binary")
def _binary(ex: Executor, op, x, y):
    fn = op.attrs["fn"]
    if fn in ("max", "min"):
        if op.attrs.get("propagate_nan"):
            f = np.maximum if fn == "max" else np.minimum
        else:
            f = np.fmax if fn == "max" else np.fmin
        return f(x, y)
    out = _BINARY[fn](x, y)
    want = np_dtype(_result_type(op))
    return out if out.dtype == want else out.astype(want)


_COMPARE = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
            "gt": np.greater, "ge": np.greater_equal}


@numpy_rule("compare")
def _compare(ex: Executor, op, x, y):
    return _COMPARE[op.attrs["fn"]](x, y)


# ---- tile loads and stores ---------------------------------------------------

@numpy_rule("load_tile")
def _load_tile(ex: Executor, op, arr: ArrayRef, *index):
    t = _result_type(op)
    a = arr.array
    order = op.attrs["order"]
    if ex.checks.bounds:
        _check_tile_touches(ex, op, arr, index, t.shape, order, "load")
    pad = padding_value(op.attrs["padding_mode"], a.dtype)
    vals, _ = gather_tiles(a, index, t.shape, order, pad)
    if vals.shape[0] != 1 and vals.shape[0] != ex.nb:
        vals = np.broadcast_to(vals, (ex.nb,) + vals.shape[1:])
    return vals


@numpy_rule("store_tile")
def _store_tile(ex: Executor, op, arr: ArrayRef, *rest):
    index, tile = rest[:-1], rest[-1]
    a = arr.array
    order = op.attrs["order"]
    shape = op.operands[-1].type.shape
    mask = ex.active_mask()
    if ex.checks.bounds:
        _check_tile_touches(ex, op, arr, index, shape, order, "store")
    index = [np.broadcast_to(i, (ex.nb,))[mask] for i in index]
    tile = np.broadcast_to(tile, (ex.nb,) + tuple(shape))[mask]
    if tile.shape[0] == 0:
        return None
    if ex.checks.races:
        ex.races.record_tile_store(ex, op, arr, index, shape, order, mask)
    if len(shape) == 0:
        a[()] = tile[-1]
        return None
    if tiles_fully_inside(index, shape, order, a.shape) and a.flags.writeable:
        view = tile_view(a, shape, order, writeable=True)
        view[tuple(i.astype(np.intp) for i in index)] = tile
        return None
    coords = tile_coords(index, shape, order)
    inb = in_bounds(coords, a.shape)
    full = np.broadcast_shapes(*[c.shape for c in coords])
    sel = np.broadcast_to(inb, full)
    cs = tuple(np.broadcast_to(c, full)[sel] for c in coords)
    a[cs] = np.broadcast_to(tile, full)[sel]
    return None


def _check_tile_touches(ex, op, arr, index, shape, order, what):
    ok = tile_index_bounds(index, shape, order, arr.array.shape) if shape else np.ones(1, bool)
    if ok.all():
        return
    ok = np.broadcast_to(ok, (ex.nb,))
    bad = ~ok & ex.active_mask()
    if bad.any():
        b = int(np.argmax(bad))
        idx = tuple(int(np.broadcast_to(i, (ex.nb,))[b]) for i in index)
        ex.report(f"{what} of a tile entirely out of bounds (undefined behaviour on the GPU): "
                  f"array '{arr.name}' of shape {arr.array.shape}, tile index {idx}, tile shape {tuple(shape)}",
                  block=tuple(int(v) for v in ex.block_ids[b]))
