"""Stores of tiles whose rows are narrower than a sector (docs/cost-model.md histories 162, 163): set
BG's causal mask stores one (8, 8) bfloat16 tile a block into each of 13 arrays, 16-byte rows, and took
2.4 to 3.3 times the model's time. Each block stores a (TR, TC) bfloat16 tile computed from its position
into one array or eight, at tile (bid(0), bid(1)) — consecutive blocks go down the rows, so the two
halves of a 32-byte sector are written by blocks a column of tiles apart — or, in the `_across`
kernels, at (bid(1), bid(0)): neighbours write neighbouring halves. Microbenchmarks of
bench/cost_validate.py (`slim_*`)."""
import cuda.tile as ct

ConstInt = ct.Constant[int]


def _mask(r, c, TR, TC):
    rows = ct.reshape(r * TR + ct.arange(TR, dtype=ct.int32), (TR, 1))
    cols = ct.reshape(c * TC + ct.arange(TC, dtype=ct.int32), (1, TC))
    return ct.astype(ct.where(cols <= rows, 0.0, -1.0), ct.bfloat16)


@ct.kernel
def slim_store(out, TR: ConstInt, TC: ConstInt):
    """One tile a block, blocks down the rows first."""
    ct.store(out, index=(ct.bid(0), ct.bid(1)), tile=_mask(ct.bid(0), ct.bid(1), TR, TC))


@ct.kernel
def slim_store8(o0, o1, o2, o3, o4, o5, o6, o7, TR: ConstInt, TC: ConstInt):
    """The same tile into eight arrays, blocks down the rows first."""
    tile = _mask(ct.bid(0), ct.bid(1), TR, TC)
    for out in ct.static_iter((o0, o1, o2, o3, o4, o5, o6, o7)):
        ct.store(out, index=(ct.bid(0), ct.bid(1)), tile=tile)


@ct.kernel
def slim_store8_across(o0, o1, o2, o3, o4, o5, o6, o7, TR: ConstInt, TC: ConstInt):
    """The same tile into eight arrays, blocks along the rows first."""
    tile = _mask(ct.bid(1), ct.bid(0), TR, TC)
    for out in ct.static_iter((o0, o1, o2, o3, o4, o5, o6, o7)):
        ct.store(out, index=(ct.bid(1), ct.bid(0)), tile=tile)
