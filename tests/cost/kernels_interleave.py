"""Two strided scatters that fill each other's gaps (model version 77)."""
import cuda.tile as ct


@ct.kernel
def interleave_halves(a, b, out, TILE: ct.Constant[int]):
    """out[2i] = a[i], out[2i + 1] = b[i]: every element of out written once."""
    i = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    ct.scatter(out, 2 * i, ct.load(a, index=(ct.bid(0),), shape=(TILE,)))
    ct.scatter(out, 2 * i + 1, ct.load(b, index=(ct.bid(0),), shape=(TILE,)))
