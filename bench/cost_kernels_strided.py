"""Gathers and scatters of one element every S (docs/cost-model.md history 119): set AF's second pass
on a token-major map reads and writes one 4-byte element in each 68-byte row (S = 17) and took 2.6
to 3.9 times the same pass on an expert-major map. Version 46's element-by-element law charges the
cache lines a warp instruction touches; these ask whether lanes a few sectors apart in one line cost
a line or a sector each. One tile of TILE lanes a block, lane i at (block * TILE + i) * S: a copy
(gather, then scatter to the same places), a read alone (gathered, stored contiguous) and a write
alone (loaded contiguous, scattered). Microbenchmarks of bench/cost_validate.py (`strided_*`)."""
import cuda.tile as ct

ConstInt = ct.Constant[int]


def _places(S, TILE):
    return (ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)) * S


@ct.kernel
def strided_copy(x, y, S: ConstInt, TILE: ConstInt):
    """Each lane's element read and written back in place of another array."""
    idx = _places(S, TILE)
    ct.scatter(y, idx, ct.gather(x, idx))


@ct.kernel
def strided_read(x, out, S: ConstInt, TILE: ConstInt):
    """Each lane's element read, the tile stored contiguous."""
    ct.store(out, index=(ct.bid(0),), tile=ct.gather(x, _places(S, TILE)))


@ct.kernel
def strided_write(src, y, S: ConstInt, TILE: ConstInt):
    """A contiguous tile loaded, each lane's element written S apart."""
    ct.scatter(y, _places(S, TILE), ct.load(src, index=(ct.bid(0),), shape=(TILE,)))


@ct.kernel
def strided_tile_read(x, out, TILE: ConstInt):
    """A tile of TILE elements of an array whose elements lie S apart (its stride, in the
    argument's spec), stored contiguous (history 180)."""
    ct.store(out, index=(ct.bid(0),), tile=ct.load(x, index=(ct.bid(0),), shape=(TILE,)))


@ct.kernel
def strided_tile_write(src, y, TILE: ConstInt):
    """A contiguous tile stored to an array whose elements lie S apart."""
    ct.store(y, index=(ct.bid(0),), tile=ct.load(src, index=(ct.bid(0),), shape=(TILE,)))


@ct.kernel
def strided_tile_add(x, y, z, TILE: ConstInt):
    """Vector add with a strided first operand."""
    b = ct.bid(0)
    ct.store(z, index=(b,), tile=ct.load(x, index=(b,), shape=(TILE,)) + ct.load(y, index=(b,), shape=(TILE,)))
