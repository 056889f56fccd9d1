"""Runtime helpers for a transpiled cuTile kernel: blocks, control-flow frames, loads and
stores, launching. Self-contained (NumPy + ml_dtypes only) but for the semantics library's
modules, which come before it in every module `tilescope transpile` writes.

Execution model (the same as tilescope's CPU executor): a kernel function runs once for a
*group* of blocks. Every run-time value is a NumPy array whose leading axis is the block
axis: a tile of shape S is (B, *S) for the B blocks of the group, or (1, *S) when every
block has the same value. Control flow that differs between blocks runs under an active
mask (`Blocks.active`); stores, atomics and prints only touch active blocks.

Checks: the transpiled module runs *unchecked*: out-of-bounds tile elements are padded on
load and dropped on store exactly as `tilescope run` does, but nothing is reported (no
bounds, race or poison reports). Use `tilescope run` to get those reports.
"""
import os as _os
import sys as _sys

import ml_dtypes
import numpy as np


# ---- blocks, masks and structured control flow -------------------------------------------

class Blocks:
    """The group of blocks a kernel function runs for: ids (B, 3), the grid, the active mask."""

    def __init__(self, grid, block_ids):
        self.grid = tuple(grid)
        self.block_ids = np.asarray(block_ids, dtype=np.int64)
        self.nb = len(self.block_ids)
        self.active = None                   # None: every block of the group is running
        self.returned = np.zeros(self.nb, dtype=bool)
        self.printed = {}                    # block -> printed text (emitted in block order)

    def active_mask(self):
        return np.ones(self.nb, dtype=bool) if self.active is None else self.active

    def return_(self):
        self.returned |= self.active_mask()
        self.active = np.zeros(self.nb, dtype=bool)


class Branch:
    """A structured `if`. When every block takes the same side, only that side runs, unmasked;
    otherwise each side that some active block takes runs under its mask and `join` selects
    the results per block."""

    def __init__(self, ctx, cond):
        self.ctx = ctx
        self.cond = np.asarray(cond).reshape(-1).astype(bool)
        self.uniform = self.cond.shape[0] == 1 or self.cond.all() or not self.cond.any()
        self.saved = ctx.active
        self.values = {True: None, False: None}
        self.side = None

    def then(self):
        return self._enter(True)

    def orelse(self):
        return self._enter(False)

    def _enter(self, side):
        self.side = side
        if self.uniform:
            return bool(self.cond[0]) == side
        ctx = self.ctx
        ctx.active = self.saved
        mask = self.cond if side else ~self.cond
        if not (mask & ctx.active_mask()).any():
            return False
        ctx.active = mask if self.saved is None else (self.saved & mask)
        return True

    def yield_(self, *values):
        self.values[self.side] = list(values)

    def join(self):
        if not self.uniform:
            self.ctx.active = self.saved
        t, e = self.values[True], self.values[False]
        if self.uniform:
            return t if bool(self.cond[0]) else e
        if t is None or e is None:
            return e if t is None else t
        return [select(self.cond, a, b) for a, b in zip(t, e)]


class Loop:
    """A `for` (`range`) or `while` (`repeat`) loop whose blocks may leave it at different
    iterations: each iteration runs under the mask of the blocks still in the loop;
    `break_` / `continue_` record the leaving values of the active blocks."""

    MAX_ITERATIONS = 10_000_000

    def __init__(self, ctx, carried, nresults=None):
        self.ctx = ctx
        self.carried = list(carried)         # values for the next iteration
        # values at `break`: the carried ones, then those only `break` provides
        self.exits = list(carried) + [None] * max(0, (nresults or 0) - len(self.carried))
        self.broken = np.zeros(ctx.nb, dtype=bool)
        self.is_for = False

    def range(self, start, stop, step, dtype):
        ctx, outer = self.ctx, self.ctx.active
        self.is_for = True
        start, stop, step = (np.asarray(v).reshape(-1) for v in (start, stop, step))
        try:
            i = start.astype(np.int64)
            while True:
                live = np.broadcast_to(i < stop, (ctx.nb,)) & ~self.broken
                if outer is not None:
                    live = live & outer
                if not live.any():
                    return
                ctx.active = None if (live.all() and outer is None) else live
                yield i.astype(dtype.numpy)
                i = i + step
        finally:
            ctx.active = outer

    def repeat(self):
        ctx, outer = self.ctx, self.ctx.active
        try:
            for _ in range(self.MAX_ITERATIONS):
                live = ~self.broken if outer is None else (~self.broken & outer)
                if not live.any():
                    return
                ctx.active = None if (live.all() and outer is None) else live
                yield
            raise RuntimeError(f"a while loop ran more than {self.MAX_ITERATIONS} iterations")
        finally:
            ctx.active = outer

    def _leave(self, target, values):
        mask = self.ctx.active_mask()
        for i, v in enumerate(values):
            target[i] = merge(mask, v, target[i])
        self.ctx.active = np.zeros(self.ctx.nb, dtype=bool)
        return mask

    def continue_(self, *values):
        self._leave(self.carried, values)

    def break_(self, *values):
        self.broken |= self._leave(self.exits, values)

    def end(self):
        """The loop's results: for a `for`, the last carried values of blocks that ran to the end."""
        if not self.is_for:
            return list(self.exits)
        done = ~self.broken
        return [merge(done, c, r) for c, r in zip(self.carried, self.exits)]


# ---- element-wise ops ----------------------------------------------------------------

def astype(x, src, dst, rounding_mode=None):
    return convert(x, src, dst, rounding_mode)


def where(cond, x, y, dtype):
    return np.where(cond, x, y).astype(dtype.numpy, copy=False)


# `compare`, `binary` and `unary` are semantics/arithmetic.py's (above); constants, arange and
# shape ops are semantics/shapes.py's.


# ---- reductions and scans ----------------------------------------------------------------
# `reduce` and `scan` are semantics/reductions.py's (above).


# ---- matrix multiply -------------------------------------------------------------------
# `mma` and `mma_scaled` are semantics/products.py's (above).

class MmaChunks:
    """The products of a loop that only accumulates `mma`s, joined `per` iterations at a time
    (one product over the concatenated K, as tilescope's executor runs such loops; such a loop
    has the same bounds in every block and never runs masked)."""

    def __init__(self, ctx, start, stop, step, per, acc, x_dtype, y_dtype):
        self.on = int(np.asarray(step).reshape(-1)[0]) > 0
        self.per, self.acc, self.pending = per, acc, []
        self.dtypes = (x_dtype, y_dtype)

    def add(self, x, y, acc):
        if not self.on:
            return canonical_nans(mma(x, y, acc, *self.dtypes))
        self.pending.append((x, y))
        if len(self.pending) == self.per:
            self._flush()
        return acc

    def end(self, acc):
        if not self.on:
            return acc
        if self.pending:
            self._flush()
        return self.acc

    def _flush(self):
        xs, ys = zip(*self.pending)
        self.pending = []
        lead = max(v.shape[0] for v in xs + ys)
        x, y = (np.concatenate([np.broadcast_to(v, (lead,) + v.shape[1:]) for v in vs], axis=axis)
                for vs, axis in ((xs, -1), (ys, -2)))
        self.acc = canonical_nans(mma(x, y, self.acc, *self.dtypes))


# ---- block ids and arrays --------------------------------------------------------------

def bid(ctx, axis):
    return ctx.block_ids[:, axis].astype(np.int32)


def num_blocks(ctx, axis):
    return np.full((1,), ctx.grid[axis], dtype=np.int32)


def array_dim(a, axis, what, dtype):
    if what == "shape":
        return np.asarray(a.shape[axis], dtype=np.int64).reshape(-1).astype(dtype.numpy)
    return np.full((1,), a.strides[axis] // a.itemsize, dtype=dtype.numpy)


def num_tiles(a, axis, shape, order, traversal_steps=None):
    step = (traversal_steps or shape)[axis]
    n = np.asarray(a.shape[order[axis]], dtype=np.int64).reshape(-1)
    return (-(-n // step)).astype(np.int32)


# ---- tile loads and stores ---------------------------------------------------------------

# Padding, lanes, loads and stores are semantics/memory.py's (above); UNDETERMINED padding is
# the tagged NaN (as `tilescope run --check poison` pads).

def _load_elements(a, coords, pad, lane_mask=None):
    bc, ok = in_array(a, coords)
    return load_lanes(a, bc, ok, pad, lane_mask)[0]


def _store_elements(ctx, a, coords, values, lane_mask=None):
    """Per-lane stores for the active blocks; lanes outside the array or masked off are dropped."""
    bc, ok = in_array(a, coords)
    want, okf, bcf, (vals,) = store_lanes(ctx, ok, bc, lane_mask, values)
    sel = want & okf
    if sel.any():
        write_lanes(a, bcf, vals, sel)


def load_tile(ctx, a, *index, shape, order, padding_mode, dtype, traversal_steps=None):
    """The tile at tile coordinates `index` of array `a`, for every block: (B|1, *shape)."""
    if a.ndim == 0:
        return np.array(a).reshape(1)           # a copy: the kernel may store to it later
    index = [np.asarray(i) for i in index]
    if traversal_steps is None and tiles_fully_inside(index, shape, order, a.shape):
        vals = tile_view(a, shape, order)[tuple(np.broadcast_arrays(*[i.astype(np.intp) for i in index]))]
    else:
        coords = tile_coords(index, shape, order, traversal_steps)
        vals = _load_elements(a, coords, padding_for(padding_mode, dtype, poison=True))
    if vals.shape[0] != 1 and vals.shape[0] != ctx.nb:
        vals = np.broadcast_to(vals, (ctx.nb,) + vals.shape[1:])
    return vals


def store_tile(ctx, a, *index_and_tile, shape, order, traversal_steps=None):
    """Store the tile (last argument) at tile coordinates `index` for the active blocks."""
    index, tile = index_and_tile[:-1], index_and_tile[-1]
    mask = ctx.active_mask()
    if not mask.any():
        return
    index = [np.asarray(i) for i in index]
    if a.ndim == 0:
        a[()] = expand_rows(ctx, np.asarray(tile).reshape((-1,)))[mask][-1]
        return
    shape = tuple(shape)
    if traversal_steps is None and a.flags.writeable and \
            tiles_fully_inside([np.broadcast_to(i, (ctx.nb,))[mask] for i in index], shape, order, a.shape):
        idx = [np.broadcast_to(i, (ctx.nb,))[mask].astype(np.intp) for i in index]
        full = np.broadcast_to(tile, (ctx.nb,) + shape)
        tile_view(a, shape, order, writeable=True)[tuple(idx)] = full[mask]
        return
    _store_elements(ctx, a, tile_coords(index, shape, order, traversal_steps), tile)


# ---- gathers, scatters and atomics ------------------------------------------------------------

def gather(a, *rest, ndim, has_mask=False):
    """a[indices] per lane (one index tile per array axis); lanes out of bounds or masked off
    take the padding value (rest: indices..., padding, [mask])."""
    idx, pad = rest[:ndim], rest[ndim]
    mask = rest[ndim + 1] if has_mask else None
    return _load_elements(a, list(idx), pad, mask)


def scatter(ctx, a, *rest, ndim, has_mask=False):
    """a[indices] = value per lane for the active blocks; out-of-bounds / masked lanes are dropped."""
    idx, value = rest[:ndim], rest[ndim]
    mask = rest[ndim + 1] if has_mask else None
    _store_elements(ctx, a, list(idx), value, mask)


# `apply_atomic` is semantics/atomics.py's (above).


def _atomic_lanes(ctx, a, coords, ok, mode, update, expected=None):
    """Run an atomic over the active, in-bounds lanes; returns the (B, *S) old values."""
    dt = a.dtype
    want, okf, cf, (upd, exp) = store_lanes(ctx, ok, coords, None, update, expected)
    sel = want & okf
    old = np.array(exp, dtype=dt) if mode == "cas" else np.zeros(want.shape, dtype=dt)
    if sel.any():
        old[sel] = apply_atomic(a, tuple(c[sel] for c in cf), mode, np.asarray(upd[sel], dtype=dt),
                                 None if exp is None else np.asarray(exp[sel], dtype=dt))
    return old


def atomic(ctx, a, *rest, mode):
    """atomic_<mode>(a, indices..., update): returns the old values; out-of-bounds lanes are no-ops."""
    idx, update = rest[:a.ndim], rest[a.ndim]
    coords, ok = in_array(a, idx) if a.ndim else ([], np.ones((1,), dtype=bool))
    return _atomic_lanes(ctx, a, coords, ok, mode, update)


def atomic_cas(ctx, a, *rest):
    """atomic_cas(a, indices..., expected, desired): returns the old values."""
    idx, expected, desired = rest[:a.ndim], rest[a.ndim], rest[a.ndim + 1]
    coords, ok = in_array(a, idx) if a.ndim else ([], np.ones((1,), dtype=bool))
    return _atomic_lanes(ctx, a, coords, ok, "cas", desired, expected)


# ---- tile shapes ----------------------------------------------------------------------------------

def extract(x, *index, shape):
    """The sub-tile of `shape` at sub-tile grid position `index`."""
    return extract_subtile(x, index, shape)


def insert(x, val, *index):
    """A copy of `x` with sub-tile `val` written at sub-tile grid position `index`."""
    return insert_subtile(x, val, index)


# ---- printing and asserts ------------------------------------------------------------------------


def print_(ctx, *operands, pieces, dtypes):
    """Device-side print: for each active block, the pieces (text, or (operand, printf spec))."""
    for b, text in printed_lines(pieces, operands, dtypes, np.flatnonzero(ctx.active_mask())):
        ctx.printed.setdefault(tuple(int(v) for v in ctx.block_ids[b]), []).append(text)


class KernelAssertionError(AssertionError):
    pass


def assert_(ctx, cond, message, where):
    """Device-side assert: the first active block with a false element stops the launch."""
    ok = cond.reshape(cond.shape[0], -1).all(axis=1)
    bad = ~np.broadcast_to(ok, (ctx.nb,)) & ctx.active_mask()
    if bad.any():
        block = tuple(int(v) for v in ctx.block_ids[int(np.argmax(bad))])
        raise KernelAssertionError(f"assertion failed in {where}, block {block}" + (f": {message}" if message else ""))


# ---- launching ----------------------------------------------------------------------------

def launch_groups(kernel, grid, values, group):
    """Run `kernel(ctx, *values)` over the grid, `group` blocks at a time (block order), with
    the numerics `tilescope run` would use (TILESCOPE_NUMERICS: exact, the default, or fast)."""
    grid = check_grid(grid)
    n = grid[0] * grid[1] * grid[2]
    lin = np.arange(n, dtype=np.int64)
    ids = np.stack([lin % grid[0], (lin // grid[0]) % grid[1], lin // (grid[0] * grid[1])], axis=1)
    printed = {}
    mode = _os.environ.get(ENV_NUMERICS, "").strip().lower() or "exact"
    try:
        with np.errstate(all="ignore"), numerics_mode(mode):
            for start in range(0, n, group):
                ctx = Blocks(grid, ids[start:start + group])
                try:
                    kernel(ctx, *values)
                finally:
                    printed.update(ctx.printed)
    finally:
        for block in sorted(printed, key=lambda b: tuple(reversed(b))):   # linear block order
            _sys.stdout.write("".join(printed[block]))


def check_grid(grid):
    """The grid as 3 positive ints (up to 3 given, missing ones are 1; an int is a 1-d grid), or a
    ValueError."""
    dims = (grid,) if isinstance(grid, (int, np.integer)) else grid
    try:
        dims = tuple(dims)
    except TypeError:
        raise ValueError(f"grid must be 1 to 3 positive ints, got {grid!r}") from None
    if len(dims) > 3 or any(isinstance(d, (bool, np.bool_)) or not isinstance(d, (int, np.integer))
                                      or d <= 0 for d in dims):
        raise ValueError(f"grid must be 1 to 3 positive ints, got {grid!r}")
    return tuple(int(d) for d in dims) + (1,) * (3 - len(dims))


def _same_constant(value, compiled):
    if isinstance(compiled, tuple):
        return isinstance(value, tuple) and len(value) == len(compiled) and \
            all(_same_constant(v, c) for v, c in zip(value, compiled))
    if isinstance(compiled, bool) or compiled is None or isinstance(compiled, str):
        return type(value) is type(compiled) and value == compiled
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        return False
    return value == compiled or (value != value and compiled != compiled)     # NaN is NaN


def check_constant(value, compiled, name):
    """A constant argument must be the value the kernel was transpiled for (it is compiled in)."""
    if not _same_constant(value, compiled):
        raise ValueError(f"argument '{name}': this module was transpiled for {name}={compiled!r}, got {value!r} "
                         f"(transpile the kernel again for other constants)")


def check_array(a, name, dtype, shape):
    """An array argument, checked against the dtype and static dims the kernel was compiled for."""
    a = np.asarray(a) if not isinstance(a, np.ndarray) else a
    if a.dtype != dtype.numpy or a.ndim != len(shape) or \
            any(s is not None and s != n for s, n in zip(shape, a.shape)):
        want = ", ".join("?" if s is None else str(s) for s in shape)
        raise ValueError(f"argument '{name}': expected a {dtype.name} array of shape ({want}), "
                         f"got {a.dtype} {a.shape} (transpile the kernel again for other arguments)")
    return a


def scalar_arg(value, dtype):
    """A scalar kernel argument as a (1,) storage array."""
    return np.asarray([value], dtype=dtype.numpy)
# ==== end of prelude ========================================================================
