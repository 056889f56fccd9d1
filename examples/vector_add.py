"""Tiled vector addition: each block adds one tile of TILE elements."""
import cuda.tile as ct


# tilescope: args f32[1048576], f32[1048576], f32[1048576], 1024
@ct.kernel
def vector_add(a, b, c, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(TILE,))
    y = ct.load(b, index=(bid,), shape=(TILE,))
    ct.store(c, index=(bid,), tile=x + y)


if __name__ == "__main__":
    import numpy as np

    n, tile = 1 << 20, 1024
    a = np.random.rand(n).astype(np.float32)
    b = np.random.rand(n).astype(np.float32)
    c = np.empty_like(a)
    ct.launch(None, (ct.cdiv(n, tile), 1, 1), vector_add, (a, b, c, tile))
    print("max error:", float(np.abs(c - (a + b)).max()))
