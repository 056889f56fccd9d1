"""Array access for a group of blocks: array references and views, element coordinates,
padding (with the UNDETERMINED poison), fast strided tile paths, and the checks every
memory rule shares (bounds reports, race records, poison at stores).

Every index or coordinate array carries the executor's leading block axis (size B, or 1
when uniform). Whatever the kernel does, no rule here reads or writes outside the
caller's arrays: out-of-bounds lanes are padded or dropped (and reported).
"""
from __future__ import annotations

import functools
from typing import Callable, List, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from ...enums import PaddingMode
from .grid import memo_per_array
from ...semantics import memory
from ...semantics.memory import active_rows, expand_rows, is_poison, poison_value, read_clipped  # noqa: F401
from ...semantics.tilegeom import in_bounds, tile_coords, tile_view, tiles_fully_inside  # noqa: F401


# ---- array references ---------------------------------------------------------

class ArrayRef:
    """A kernel's array argument as the executor sees it: the caller's NumPy array (a view)."""
    __slots__ = ("array", "name", "index", "unchanging", "_cache")

    def __init__(self, array: np.ndarray, name: str = "", index: int = 0):
        self.array = array
        self.name = name
        self.index = index
        self.unchanging = False      # set by the launcher: no op of the launch writes it
        self._cache = None

    @property
    def shape(self) -> Tuple[int, ...]:
        return self.array.shape

    @property
    def base(self) -> "ArrayRef":
        return self


class SliceRef:
    """`Array.slice` views of one base array, with per-block bounds.

    Along each axis, `origin[k]` (None, or an int64 array of leading size B or 1) is the
    view's first element in the base array and `extent[k]` (an int, or such an array) its
    length. Bounds are clamped into the parent when the view is made, so a coordinate
    inside the view is always inside the base array.
    """
    __slots__ = ("base", "origin", "extent")

    def __init__(self, base: ArrayRef, origin: List[Optional[np.ndarray]], extent: List):
        self.base = base
        self.origin = origin
        self.extent = extent

    # The base array's, as an ArrayRef has them.
    array = property(lambda self: self.base.array)
    name = property(lambda self: self.base.name)
    index = property(lambda self: self.base.index)


class MultiRef:
    """A per-block choice among arrays (`lst[i]` with a run-time `i` that differs per block)."""
    __slots__ = ("items", "which")

    def __init__(self, items: List, which: np.ndarray):
        self.items = items          # ArrayRef or SliceRef
        self.which = which          # (B,) int: the item each block uses


def geometry(ref) -> Tuple[ArrayRef, List[Optional[np.ndarray]], List]:
    """(base array, per-axis origin (None or array), per-axis extent (int or array))."""
    if isinstance(ref, SliceRef):
        return ref.base, ref.origin, ref.extent
    return ref, [None] * ref.array.ndim, list(ref.array.shape)


def _select(cond: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    c = cond.reshape(cond.shape + (1,) * (max(a.ndim, b.ndim) - 1))
    return np.where(c, a, b)


def per_array(rule: Callable) -> Callable:
    """Wrap a memory rule whose first input is an array reference so that it also takes a
    MultiRef: the rule runs once per distinct array, masked to the blocks using it, and the
    results are merged per block (array results by `where`, references into a MultiRef)."""
    @functools.wraps(rule)
    def wrapper(ex, op, ref, *rest):
        if not isinstance(ref, MultiRef):
            return rule(ex, op, ref, *rest)
        active = ex.active_mask()
        keys = [int(k) for k in np.unique(ref.which) if ((ref.which == k) & active).any()]
        out = None
        for k in keys or [int(ref.which[0])]:
            mask = ref.which == k
            res = ex.with_mask(mask, lambda r=ref.items[k]: rule(ex, op, r, *rest))
            if res is None:
                continue
            if isinstance(res, (ArrayRef, SliceRef, MultiRef)):
                out = {} if out is None else out
                out[k] = res
            else:
                res = np.asarray(res)
                out = res if out is None else _select(mask, res, out)
        if isinstance(out, dict):
            items = list(ref.items)
            for k, r in out.items():
                items[k] = r
            return MultiRef(items, ref.which)
        return out
    return wrapper


# ---- tile coordinates -----------------------------------------------------------

class Tiling(NamedTuple):
    """Per-block tile indices that form a regular grid of tiles (`regular_tiles`)."""
    key: tuple        # basic-slicing key into the tile view: ints, and slices where indices vary
    sizes: tuple      # extent of each varying index component, in index order
    order: tuple      # positions in `sizes` from the slowest-varying (in block order) to the fastest


def regular_tiles(index: Sequence[np.ndarray], nb: int, seen: Optional[dict] = None) -> Optional[Tiling]:
    """Express per-block tile indices as basic slicing of a tile view, when they form a regular grid.

    `view[key]` then has shape (*sizes, *tile), and `grid_to_blocks` turns it into the
    (B, *tile) block order. Handles any number of varying components, each running over
    consecutive tile indices at its own pace in block order (x fastest: a row `(bid(0),)`, a
    2-d grid `(bid(0), bid(1))`, a batched `(bid(2), bid(0), bid(1))`); None otherwise (then
    fancy indexing is needed). `seen` caches each component's analysis per index array (a loop
    indexes with the same block ids every iteration, next to a new loop index).
    """
    key, varying = [], []
    for k, i in enumerate(index):
        part = memo_per_array(seen, i, lambda i: _component(i, nb))
        if part is None:
            return None
        if isinstance(part, int):
            key.append(part)
        else:
            key.append(None)
            varying.append((k, part))
    if not varying:
        return Tiling(tuple(key), (), ())
    fastest_first = sorted(range(len(varying)), key=lambda j: varying[j][1][0])
    sizes, span = [0] * len(varying), 1
    for j in fastest_first:
        k, (run, lo, n) = varying[j]
        if run != span:
            return None
        sizes[j], span = n, span * n
        key[k] = slice(lo, lo + n)
    if span != nb:
        return None
    return Tiling(tuple(key), tuple(sizes), tuple(reversed(fastest_first)))


def _component(i, nb: int):
    """One component of per-block tile indices: its value when the same for every block, else
    (run, lo, n) when it runs over lo..lo+n-1 changing every `run` blocks (and wrapping around),
    else None."""
    i = np.asarray(i).reshape(-1)
    if i.shape[0] == 1 or (i == i[0]).all():
        return int(i[0])
    if i.shape[0] != nb:
        return None
    run = int(np.argmax(i[1:] != i[:-1])) + 1     # how many consecutive blocks share the first value
    lo, n = int(i[0]), int(i.max()) - int(i[0]) + 1
    if not np.array_equal(i, lo + (np.arange(nb) // run) % n):
        return None
    return run, lo, n


def grid_to_blocks(x: np.ndarray, tiling: Tiling) -> np.ndarray:
    """`view[key]` of shape (*sizes, *tile) → (B, *tile) in block order."""
    nv = len(tiling.sizes)
    if nv == 0:
        return x[None]
    return x.transpose(tiling.order + tuple(range(nv, x.ndim))).reshape((-1,) + x.shape[nv:])


def blocks_to_grid(x: np.ndarray, tiling: Tiling, tile_ndim: int) -> np.ndarray:
    """Inverse of `grid_to_blocks` for storing values into `view[key]`: `x` holds them in block
    order over its leading axes, (B, *tile) or the (nz, ny, nx, *tile) of grid form."""
    lead, tile = x.shape[:x.ndim - tile_ndim], x.shape[x.ndim - tile_ndim:]
    nv = len(tiling.sizes)
    if nv == 0:
        return x[(-1,) * len(lead)]
    ordered = x.reshape(tuple(tiling.sizes[j] for j in tiling.order) + tile)
    back = tuple(int(j) for j in np.argsort(tiling.order))
    return ordered.transpose(back + tuple(range(nv, ordered.ndim)))


def tile_index_bounds(index: Sequence[np.ndarray], tile_shape, order, shape, steps=None) -> np.ndarray:
    """(B,) mask of tiles that touch the array at all (a fully out-of-bounds tile is UB on GPU).

    `shape` holds one extent per array axis (ints, or per-block arrays for slices)."""
    steps = tuple(tile_shape) if steps is None else tuple(steps)
    ok = None
    for k, t in enumerate(tile_shape):
        n = shape[order[k]]
        lo = np.asarray(index[k]).astype(np.int64).reshape(-1) * steps[k]
        m = (lo < n) & (lo + t > 0)
        ok = m if ok is None else (ok & m)
    return ok


def resolve(ref, coords: Sequence[np.ndarray]) -> Tuple[ArrayRef, List[np.ndarray], np.ndarray]:
    """Coordinates in a view → (base array, base coordinates, in-view mask); all broadcast together."""
    base, origin, extent = geometry(ref)
    coords = [np.asarray(c).astype(np.int64) for c in coords]
    if not coords:
        return base, [], np.ones((1,), dtype=bool)
    lead = (-1,) + (1,) * (max(c.ndim for c in coords) - 1)
    out, ok = [], None
    for k, c in enumerate(coords):
        e = extent[k]
        e = e.reshape(lead) if isinstance(e, np.ndarray) else e
        m = (c >= 0) & (c < e)
        if origin[k] is not None:
            c = c + origin[k].reshape(lead)
        out.append(c)
        ok = m if ok is None else (ok & m)
    full = np.broadcast_shapes(ok.shape, *[c.shape for c in out])
    return base, [np.broadcast_to(c, full) for c in out], np.broadcast_to(ok, full)


# ---- raw memory: flat element offsets from the base pointer -------------------------

def element_strides(a: np.ndarray) -> Tuple[int, ...]:
    return tuple(s // a.itemsize for s in a.strides)


def raw_coords(base: ArrayRef, offsets: np.ndarray) -> Tuple[List[np.ndarray], np.ndarray]:
    """Element offsets from the array's base pointer (its element (0, ..., 0)) → coordinates
    of the element at that address, and a mask of offsets that hit an element of the array
    (anything else is memory the kernel was not given)."""
    a = base.array
    off = np.asarray(offsets).astype(np.int64)
    if a.ndim == 0:
        return [], off == 0
    if a.size == 0:
        return [np.zeros(off.shape, np.int64) for _ in a.shape], np.zeros(off.shape, bool)
    if a.flags.c_contiguous:
        ok = (off >= 0) & (off < a.size)
        coords = np.unravel_index(np.clip(off, 0, a.size - 1), a.shape)
        return [c.astype(np.int64) for c in coords], ok
    key = (a.shape, a.strides)
    if base._cache is None or base._cache[0] != key:
        strides = element_strides(a)
        addr = np.zeros(a.shape, np.int64)
        for k, (n, s) in enumerate(zip(a.shape, strides)):
            addr = addr + (np.arange(n, dtype=np.int64) * s).reshape((-1,) + (1,) * (a.ndim - k - 1))
        addr = addr.reshape(-1)
        sorter = np.argsort(addr, kind="stable")
        base._cache = (key, addr[sorter], sorter)
    _, sorted_addr, sorter = base._cache
    pos = np.clip(np.searchsorted(sorted_addr, off), 0, len(sorted_addr) - 1)
    ok = sorted_addr[pos] == off
    coords = np.unravel_index(sorter[pos], a.shape)
    return [c.astype(np.int64) for c in coords], ok


def view_base_offset(ref) -> np.ndarray:
    """Element offset of a view's first element from its base array's (per block, (B|1,))."""
    base, origin, _ = geometry(ref)
    strides = element_strides(base.array)
    shift = np.zeros((1,), np.int64)
    for o, s in zip(origin, strides):
        if o is not None:
            shift = shift + o.astype(np.int64) * s
    return shift


# ---- padding (semantics/memory.py; the executor passes PaddingMode members) ----------------

def padding_for(mode: PaddingMode, dt, poison: bool = False) -> np.ndarray:
    """Padding of `mode` for the cuTile dtype `dt`; with `poison` (the `poison` check)
    UNDETERMINED pads floats with the tagged NaN, reported if it reaches a store."""
    return memory.padding_for(mode.name, dt, poison)


def _any_nan(values: np.ndarray) -> bool:
    v = np.asarray(values)
    if v.dtype.kind == "f":
        return bool(np.isnan(v.min()) or np.isnan(v.max())) if v.size else False
    return True      # ml_dtypes floats: let is_poison decide


# ---- reports ---------------------------------------------------------------------

def bounds_reporting(op, name: str) -> dict:
    """How an element access with a `check_bounds` attribute treats lanes out of bounds: checked
    (the default), such a lane is cuTile's way to mask it and nothing is reported; unchecked, it
    is undefined behaviour on the GPU, and reported."""
    checked = op.attrs["check_bounds"]
    return {"what": name if checked else f"{name} with check_bounds=False", "ub": not checked,
            "report_oob": not checked}


def report_once(ex, op, kind: str, message: str, block) -> None:
    """One report per (op, kind) per launch: a loop or a big grid must not flood the output."""
    ex.report(message, block=tuple(int(v) for v in block), once=(id(op), kind))


def first_lane(bad: np.ndarray):
    """(block row, lane position) of the first True of a (B, *S) mask (block-major, row-major)."""
    flat = int(np.argmax(bad.reshape(-1)))
    pos = np.unravel_index(flat, bad.shape)
    return int(pos[0]), tuple(int(p) for p in pos[1:])


def check_poison(ex, op, ref, values: np.ndarray, sel: np.ndarray, coords: Sequence[np.ndarray],
                 into: str = "a store") -> None:
    """Report a stored lane (selected by `sel`, shape (B, *S)) whose value is the UNDETERMINED poison;
    `into`: what writes it (a store, or an atomic such as atomic_add)."""
    if not ex.checks.poison or memory.POISON_BITS.get(values.dtype.name) is None:
        return
    if not _any_nan(values):
        return
    if callable(coords):
        coords = coords()
    bad = sel & is_poison(values)
    if bad.any():
        b, lane = first_lane(bad)
        elem = tuple(int(np.broadcast_to(c, bad.shape)[(b,) + lane]) for c in coords)
        report_once(ex, op, "poison",
                    f"a value derived from UNDETERMINED padding reaches {into}: array '{ref.name}' "
                    f"element {elem} (load with an explicit padding_mode, or keep padded lanes out of "
                    f"the stored result)", ex.block_ids[b])


# ---- per-lane loads and stores through any view ------------------------------------

def _describe_ref(ref) -> str:
    return f"array '{ref.name}' of shape {tuple(ref.array.shape)}"


def _lane_blocks(ex, shape) -> np.ndarray:
    return np.broadcast_to(ex.linear_block_ids().reshape((-1,) + (1,) * (len(shape) - 1)), shape)


def _report_oob(ex, op, ref, bad: np.ndarray, coords, what: str, outcome: str, ub: bool) -> None:
    if not bad.any():
        return
    on_oob = getattr(ex.races, "out_of_bounds", None)         # a launch trace (tilescope.trace)
    if on_oob is not None:
        on_oob(ex, op, ref, bad, coords)
    b, lane = first_lane(bad)
    elem = tuple(int(np.broadcast_to(c, bad.shape)[(b,) + lane]) for c in coords)
    why = "undefined behaviour on the GPU; here " if ub else ""
    report_once(ex, op, "oob", f"{what} out of bounds: {_describe_ref(ref)}, element {elem} "
                               f"(lane {lane}): {why}{outcome}", ex.block_ids[b])


def load_elements(ex, op, ref, coords: Sequence[np.ndarray], pad, lane_mask=None, *, what: str,
                  ub: bool = False, report_oob: bool = True) -> np.ndarray:
    """Per-lane element loads through a view: (B|1, *S) values; lanes outside the view or
    masked off take `pad` (broadcastable). `coords` are view coordinates, one per axis."""
    base, bc, ok = resolve(ref, coords)
    a = base.array
    vals, sel = memory.load_lanes(a, bc, ok, pad, lane_mask)
    if report_oob and ex.checks.bounds and not ok.all():
        want = expand_rows(ex, np.broadcast_to(True if lane_mask is None else lane_mask, ok.shape))
        bad = want & ~expand_rows(ex, ok) & active_rows(ex, ok.ndim)
        _report_oob(ex, op, ref, bad, bc, what, "the lane reads the padding value", ub)
    if ex.races is not None and a.ndim:
        full = (ex.nb,) + tuple(np.broadcast_shapes(sel.shape, vals.shape)[1:])
        take = np.broadcast_to(expand_rows(ex, sel), full) & active_rows(ex, len(full))
        if take.any():
            cs = tuple(np.broadcast_to(expand_rows(ex, c), full)[take] for c in bc)
            ex.races.record_elements(ex, op, base, cs, _lane_blocks(ex, full)[take], write=False)
    return vals


def store_elements(ex, op, ref, coords: Sequence[np.ndarray], values: np.ndarray, lane_mask=None, *,
                   what: str, ub: bool = False, report_oob: bool = True) -> None:
    """Per-lane element stores through a view, for active blocks only; lanes outside the view
    or masked off are dropped. Where several lanes write one element, the last in (block,
    row-major lane) order wins, as when blocks run one after another."""
    base, bc, ok = resolve(ref, coords)
    want, okf, bcf, (vals,) = memory.store_lanes(ex, ok, bc, lane_mask, values)
    sel = want & okf
    if report_oob and ex.checks.bounds:
        _report_oob(ex, op, ref, want & ~okf, bcf, what, "the lane's store is dropped", ub)
    if not sel.any():
        return
    check_poison(ex, op, ref, vals, sel, bcf)
    record = None if ex.races is None else \
        (lambda cs: ex.races.record_elements(ex, op, base, cs, _lane_blocks(ex, sel.shape)[sel], write=True))
    memory.write_lanes(base.array, bcf, vals, sel, record)
