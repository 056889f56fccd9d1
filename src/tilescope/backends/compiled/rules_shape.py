"""C rules of the shape primitives: broadcast, reshape and permute are views (new element
strides over the same buffer, copied only when a reshape cannot be a view); arange and
literal tiles fill a buffer."""
from __future__ import annotations

from typing import Optional, Sequence, Tuple

from .cgen import CVal, c_literal, contiguous_strides, is_contiguous
from .rules import rule


@rule("broadcast")
def _broadcast(g, op):
    x = g.val(op.operands[0])
    shape = tuple(op.results[0].type.shape)
    g.define(op.results[0], broadcast_view(x, shape))


def broadcast_view(x: CVal, shape: Tuple[int, ...]) -> CVal:
    if not x.strided:
        return CVal(x.dtype, shape, expr=x.expr, strides=(0,) * len(shape))
    lead = len(shape) - len(x.shape)
    strides = []
    for k, n in enumerate(shape):
        j = k - lead
        if j < 0 or (x.shape[j] == 1 and n != 1):
            strides.append(0)
        else:
            strides.append(x.strides[j])
    return CVal(x.dtype, shape, buf=x.buf, strides=tuple(strides), iota=x.iota)


@rule("reshape")
def _reshape(g, op):
    x = g.val(op.operands[0])
    shape = tuple(op.results[0].type.shape)
    v = reshape_view(x, shape)
    if v is None:
        out = g.buffer(x.dtype, x.shape)
        g.copy_into(out, x)
        v = reshape_view(out, shape)
    if not shape and v.strided:
        g.scalar(op.results[0], v.element("0"))
        return
    g.define(op.results[0], v)


def reshape_view(x: CVal, shape: Tuple[int, ...]) -> Optional[CVal]:
    """`x` with a new shape of the same size, without copying, or None."""
    if not x.strided:
        return CVal(x.dtype, shape, expr=x.expr, strides=(0,) * len(shape))
    if is_contiguous(x) or (x.size == 1 and not x.iota):
        return CVal(x.dtype, shape, buf=x.buf, strides=contiguous_strides(shape))
    strides = _nocopy_strides(x.shape, x.strides, shape)
    return None if strides is None else CVal(x.dtype, shape, buf=x.buf, strides=strides, iota=x.iota)


def _nocopy_strides(old: Sequence[int], old_strides: Sequence[int], new: Sequence[int]):
    """Strides of a reshape that only splits or merges runs of dims walked evenly (as NumPy's)."""
    old = [(n, s) for n, s in zip(old, old_strides) if n != 1]
    new_strides = [0] * len(new)
    oi, ni = 0, 0
    new_nz = [k for k, n in enumerate(new) if n != 1]
    while oi < len(old) and ni < len(new_nz):
        # grow one group on each side until their sizes agree
        o_end, n_end = oi + 1, ni + 1
        o_size, n_size = old[oi][0], new[new_nz[ni]]
        while o_size != n_size:
            if o_size < n_size:
                if o_end >= len(old):
                    return None
                o_size *= old[o_end][0]
                o_end += 1
            else:
                if n_end >= len(new_nz):
                    return None
                n_size *= new[new_nz[n_end]]
                n_end += 1
        for k in range(oi, o_end - 1):             # the old group must be one even walk
            if old[k][1] != old[k + 1][1] * old[k + 1][0]:
                return None
        step = old[o_end - 1][1]
        for k in reversed(range(ni, n_end)):
            new_strides[new_nz[k]] = step
            step *= new[new_nz[k]]
        oi, ni = o_end, n_end
    if oi != len(old) or ni != len(new_nz):
        return None
    return tuple(new_strides)


@rule("permute")
def _permute(g, op):
    x = g.val(op.operands[0])
    axes = tuple(op.attrs["axes"])
    shape = tuple(op.results[0].type.shape)
    if not x.strided:
        g.define(op.results[0], CVal(x.dtype, shape, expr=x.expr, strides=(0,) * len(shape)))
        return
    g.define(op.results[0], CVal(x.dtype, shape, buf=x.buf, strides=tuple(x.strides[a] for a in axes), iota=x.iota))


@rule("arange")
def _arange(g, op):
    """No buffer: each reader computes the element from its index (so a gather at `base +
    arange` reads consecutive elements, which the C compiler sees)."""
    t = op.results[0].type
    g.define(op.results[0], CVal(t.dtype, tuple(t.shape), strides=(1,), iota=True))


@rule("literal_tile")
def _literal_tile(g, op):
    t = op.results[0].type
    out = g.buffer(t.dtype, t.shape, f"v{op.results[0].id}")
    for k, v in enumerate(op.attrs["values"]):
        g.w(f"{out.buf}[{k}] = {c_literal(v, t.dtype)};")
    g.define(op.results[0], out)

