"""Kernels for tests/cost: loops whose trip counts metadata cannot or can exactly give."""
import cuda.tile as ct


@ct.kernel
def until_small(x, y, TILE: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    s = ct.sum(t)
    while s > 1.0:
        s = s * 0.5
    ct.store(y, index=(ct.bid(0),), tile=t * s)


@ct.kernel
def per_block_trips(x, y, TILE: ct.Constant[int]):
    acc = ct.zeros((TILE,), dtype=ct.float32)
    for j in range(ct.bid(0)):
        acc += ct.load(x, index=(j,), shape=(TILE,))
    ct.store(y, index=(ct.bid(0),), tile=ct.sum(acc, axis=0, keepdims=True))
