"""Per-lane loads and stores on NumPy arrays, as the GPU sees them: lanes outside the array
take the padding value on load and are dropped on store; where lanes collide, the last in
(block, row-major lane) order wins, as when blocks run one after another.

Dependency-free (NumPy only): the executor's memory rules add bounds reports, race records and
views over it, and transpiled modules carry it whole. `blocks` is the group of blocks running
(the executor, or a transpiled module's `Blocks`): it has `nb` and `active_mask()`.
"""
from __future__ import annotations

import numpy as np

from .tilegeom import keep_last_writes

# ---- padding values and the UNDETERMINED poison ----------------------------------------------

# A quiet NaN whose 9 payload bits under the quiet bit spell POISON_PAYLOAD marks tile
# elements that came from UNDETERMINED padding. The payload sits in the top mantissa bits
# so it survives float32 <-> float16/float64/tf32 conversions and NumPy's NaN propagation
# through + - * and sums. Tracking is best effort: ops that return a fresh NaN (exp, bf16
# arithmetic in ml_dtypes) drop it, and fp8/fp4/integer tiles are padded with 0 instead.
POISON_PAYLOAD = 0b101101011
POISON_BITS = {   # storage dtype name -> (bits of the poison NaN, payload shift, payload width)
    "float32": (0x7FC00000 | (POISON_PAYLOAD << 13), 13, 9),
    "float64": (0x7FF8000000000000 | (POISON_PAYLOAD << 42), 42, 9),
    "float16": (0x7E00 | POISON_PAYLOAD, 0, 9),
    "bfloat16": (0x7FC0 | (POISON_PAYLOAD >> 3), 0, 6),
}
UINT_OF_SIZE = {2: np.uint16, 4: np.uint32, 8: np.uint64}
PAD_VALUES = {"NEG_ZERO": -0.0, "NAN": np.nan, "POS_INF": np.inf, "NEG_INF": -np.inf}


def poison_value(dtype):
    """The poison NaN of a float storage dtype, or None when the dtype cannot carry one."""
    spec = POISON_BITS.get(np.dtype(dtype).name)
    if spec is None:
        return None
    dtype = np.dtype(dtype)
    return np.array(spec[0], dtype=UINT_OF_SIZE[dtype.itemsize]).view(dtype)[()]


def is_poison(values):
    """Elements carrying the UNDETERMINED-padding payload (all False for dtypes without one)."""
    values = np.asarray(values)
    spec = POISON_BITS.get(values.dtype.name)
    if spec is None:
        return np.zeros(values.shape, dtype=bool)
    _, shift, width = spec
    want = POISON_PAYLOAD >> (9 - width)
    bits = values.view(UINT_OF_SIZE[values.dtype.itemsize])
    nan = np.isnan(values.astype(np.float32)) if values.dtype.name == "bfloat16" else np.isnan(values)
    return nan & (((bits >> shift) & ((1 << width) - 1)) == want)


def is_float_storage(dtype) -> bool:
    """NumPy floats and ml_dtypes' (bfloat16, float8_*, float4_*)."""
    return dtype.kind == "f" or dtype.kind == "V" or dtype.name.startswith(("bfloat", "float8", "float4"))


def padding_value(mode: str, dtype, poison: bool = False):
    """The fill value of padding mode `mode` (its name) in storage dtype `dtype` (a NumPy scalar).

    UNDETERMINED pads with 0, which is what the GPU's tile loads produce in practice; with
    `poison` floats get the tagged NaN instead (reported by the executor if it reaches a store).
    """
    dtype = np.dtype(dtype)
    if not is_float_storage(dtype):
        return np.zeros((), dtype=dtype)[()]          # integer tiles: every float mode pads with 0
    if mode == "UNDETERMINED":
        p = poison_value(dtype) if poison else None
        return p if p is not None else np.zeros((), dtype=dtype)[()]
    return np.asarray(PAD_VALUES.get(mode, 0.0), dtype=np.float32).astype(dtype)[()]


def padding_for(mode: str, dt, poison: bool = False):
    """Padding for the cuTile dtype `dt` (float8_e5m3fnu is stored as raw uint8 bits)."""
    if dt.name == "float8_e5m3fnu":
        # Unsigned, no infinities: NaN (0xFF) for NAN/±INF, else +0.
        return np.uint8(0xFF if mode in ("NAN", "POS_INF", "NEG_INF") else 0)
    return padding_value(mode, dt.numpy, poison)


# ---- lanes -----------------------------------------------------------------------------------

def expand_rows(blocks, x):
    """x with its block axis at size B (copy-free)."""
    x = np.asarray(x)
    return x if x.shape[0] == blocks.nb else np.broadcast_to(x, (blocks.nb,) + x.shape[1:])


def active_rows(blocks, ndim: int):
    """The active-block mask shaped (B, 1, ..., 1) for arrays of `ndim` dims."""
    return blocks.active_mask().reshape((-1,) + (1,) * (ndim - 1))


def in_array(a, coords):
    """Element coordinates in array `a` -> (the coordinates broadcast together, in-bounds mask)."""
    coords = [np.asarray(c).astype(np.int64) for c in coords]
    full = np.broadcast_shapes(*[c.shape for c in coords])
    ok = None
    for c, n in zip(coords, a.shape):
        m = (c >= 0) & (c < n)
        ok = m if ok is None else (ok & m)
    return [np.broadcast_to(c, full) for c in coords], np.broadcast_to(ok, full)


def read_clipped(a, coords):
    """a[coords] with every coordinate clipped into the array (callers mask the result)."""
    full = np.broadcast_shapes(*[c.shape for c in coords])
    if a.size == 0:
        return np.zeros(full, dtype=a.dtype)
    clipped = tuple(np.clip(c, 0, max(n - 1, 0)).astype(np.intp) for c, n in zip(coords, a.shape))
    return a[clipped]


def load_lanes(a, coords, ok, pad, lane_mask=None):
    """(values, selected lanes) of a per-lane load: lanes outside the array (`ok` False) or
    masked off read `pad`."""
    vals = np.broadcast_to(a.reshape((1,)), ok.shape) if a.ndim == 0 else read_clipped(a, coords)
    sel = ok if lane_mask is None else (ok & lane_mask)
    if not sel.all():
        vals = np.where(sel, vals, np.asarray(pad, dtype=a.dtype))
    return vals, sel


def spread(blocks, x, shape):
    """A lane operand (B|1, ...) broadcast to the lanes' full (B, *S) shape."""
    x = np.asarray(x)
    return np.broadcast_to(expand_rows(blocks, np.broadcast_to(x, (x.shape[0],) + tuple(shape[1:]))), shape)


def store_lanes(blocks, ok, coords, lane_mask, *operands):
    """The lanes of a store or an atomic, broadcast to (B, *S): (lanes wanted: active blocks,
    unmasked; lanes in bounds; coordinates; the operands, None staying None)."""
    shapes = [np.shape(o) for o in operands if o is not None]
    if lane_mask is not None:
        shapes.append(np.shape(lane_mask))
    shape = (blocks.nb,) + tuple(np.broadcast_shapes(ok.shape, *shapes)[1:])
    want = np.broadcast_to(active_rows(blocks, len(shape)), shape)
    if lane_mask is not None:
        want = want & spread(blocks, lane_mask, shape)
    return (want, spread(blocks, ok, shape), [spread(blocks, c, shape) for c in coords],
            [None if o is None else spread(blocks, o, shape) for o in operands])


def write_lanes(a, coords, values, sel, on_lanes=None):
    """a[coords] = values for the selected lanes, the last colliding lane winning; `on_lanes`
    sees the written coordinates first (the executor's race records)."""
    if a.ndim == 0:
        a[()] = values[sel][-1]
        return
    cs = tuple(c[sel] for c in coords)
    if on_lanes is not None:
        on_lanes(cs)
    cs, v = keep_last_writes(cs, values[sel], a.shape)
    a[cs] = v
