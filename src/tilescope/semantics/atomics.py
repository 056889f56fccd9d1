"""Atomic read-modify-write and compare-and-swap on NumPy arrays, lane by lane in execution order."""
from __future__ import annotations

import numpy as np


# ---- atomics ----------------------------------------------------------------------------------
# Lanes hitting one element are applied in execution order (block, then lane, row-major), so the
# old values they return are those of a sequential run: order-independent read-modify-writes use
# segmented prefix scans, float adds and CAS replay each element's lanes in turn.

_ATOMIC_UINT = {4: np.uint32, 8: np.uint64, 2: np.uint16}
_ATOMIC_IDENTITY = {
    "add": lambda dt: 0,
    "or": lambda dt: 0,
    "xor": lambda dt: 0,
    "and": lambda dt: -1 if dt.kind == "i" else np.iinfo(dt).max,
    "max": lambda dt: np.iinfo(dt).min,
    "min": lambda dt: np.iinfo(dt).max,
}
_ATOMIC_COMBINE = {"add": np.add, "max": np.maximum, "min": np.minimum, "and": np.bitwise_and,
                   "or": np.bitwise_or, "xor": np.bitwise_xor}


def _atomic_bits(x: np.ndarray) -> np.ndarray:
    return x.view(_ATOMIC_UINT[x.dtype.itemsize]) if x.dtype.kind == "f" or x.dtype.kind == "V" else x


def _segmented_inclusive_scan(values: np.ndarray, seg: np.ndarray, fn) -> np.ndarray:
    """Inclusive scan of `values` within runs of equal `seg` (exact for associative `fn`)."""
    x = values.copy()
    d, n = 1, len(x)
    while d < n:
        same = seg[d:] == seg[:-d]
        if not same.any():
            break
        x[d:] = np.where(same, fn(x[:-d], x[d:]), x[d:])
        d *= 2
    return x


def _replay(init, su, starts, lengths, step):
    """Apply each address's lanes in order: old values (sorted-lane order) and final values.
    `step(cur, lane_positions)` returns the new values after those lanes."""
    old = np.empty_like(su) if su is not None else None
    cur = init.copy()
    for r in range(int(lengths.max())):
        segs = np.flatnonzero(lengths > r)
        pos = starts[segs] + r
        old[pos] = cur[segs]
        cur[segs] = step(cur[segs], pos)
    return old, cur


def apply_atomic(a: np.ndarray, coords, mode: str, update: np.ndarray, expected: np.ndarray = None):
    """Atomically apply `mode` for lanes listed in execution order (coords: 1-D per axis);
    returns the old value each lane saw. `a` is updated in place."""
    n = len(update)
    if n == 0:
        return update.copy()
    lin = np.ravel_multi_index(coords, a.shape) if a.ndim else np.zeros(n, np.int64)
    order = np.argsort(lin, kind="stable")
    sl = lin[order]
    head = np.concatenate([[True], sl[1:] != sl[:-1]])
    starts = np.flatnonzero(head)
    lengths = np.diff(np.concatenate([starts, [n]]))
    ucoords = tuple(np.asarray(c)[order][starts] for c in coords)
    init = np.array(a[ucoords]) if a.ndim else np.array([a[()]])
    su = update[order]
    dt = a.dtype
    unique = len(starts) == n
    if mode == "cas":
        se = expected[order]

        def step(cur, pos):
            return np.where(_atomic_bits(cur) == _atomic_bits(se[pos]), su[pos], cur)
        old_s, final = (init.copy(), step(init, np.arange(n))) if unique else _replay(init, su, starts, lengths, step)
    elif mode == "xchg":
        old_s = np.empty_like(su)
        old_s[1:] = su[:-1]
        old_s[starts] = init
        final = su[starts + lengths - 1]
    elif mode == "add" and dt.kind not in "iu":
        if unique:
            old_s, final = init.copy(), (init + su).astype(dt)
        elif len(starts) - int((lengths == 1).sum()) < int(lengths.max()):
            old_s, final = np.empty_like(su), init.copy()
            for s in range(len(starts)):
                lo, ln = starts[s], lengths[s]
                run = np.add.accumulate(np.concatenate([init[s:s + 1], su[lo:lo + ln]]), dtype=dt)
                old_s[lo:lo + ln] = run[:-1]
                final[s] = run[-1]
        else:
            old_s, final = _replay(init, su, starts, lengths, lambda cur, pos: (cur + su[pos]).astype(dt))
    else:
        fn = _ATOMIC_COMBINE[mode]
        if unique:
            old_s, final = init.copy(), fn(init, su).astype(dt)
        else:
            seg = np.cumsum(head) - 1
            if mode == "add":      # integer add wraps: prefix sums minus each run's offset are exact
                total = np.cumsum(su, dtype=dt)
                incl = (total - (total[starts] - su[starts])[seg]).astype(dt)
            else:
                incl = _segmented_inclusive_scan(su, seg, fn)
            excl = np.empty_like(incl)
            excl[1:] = incl[:-1]
            excl[starts] = np.asarray(_ATOMIC_IDENTITY[mode](dt)).astype(dt)
            old_s = fn(init[seg], excl).astype(dt)
            final = fn(init, incl[starts + lengths - 1]).astype(dt)
    if a.ndim:
        a[ucoords] = final
    else:
        a[()] = final[0]
    old = np.empty_like(old_s)
    old[order] = old_s
    return old
