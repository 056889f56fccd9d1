"""Tiled matrix multiply C = A @ B with a float32 accumulator; one block per C tile."""
import cuda.tile as ct

ZERO = ct.PaddingMode.ZERO


# tilescope: args f16[1024,1024], f16[1024,1024], f32[1024,1024], 64, 64, 32
# tilescope: args f32[1024,1024], f32[1024,1024], f32[1024,1024], 64, 64, 32
@ct.kernel
def matmul(a, b, c, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):
    bm, bn = ct.bid(0), ct.bid(1)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(ct.num_tiles(a, axis=1, shape=(TM, TK))):
        ta = ct.load(a, index=(bm, k), shape=(TM, TK), padding_mode=ZERO)
        tb = ct.load(b, index=(k, bn), shape=(TK, TN), padding_mode=ZERO)
        acc = ct.mma(ta, tb, acc)
    ct.store(c, index=(bm, bn), tile=acc.astype(c.dtype))


# tilescope: args f16[16,256,64], f16[16,64,256], f32[16,256,256], 64, 64, 32
@ct.kernel
def batch_matmul(a, b, c, TM: ct.Constant[int], TN: ct.Constant[int], TK: ct.Constant[int]):
    bm, bn, batch = ct.bid(0), ct.bid(1), ct.bid(2)
    acc = ct.zeros((1, TM, TN), dtype=ct.float32)
    for k in range(ct.num_tiles(a, axis=2, shape=(1, TM, TK))):
        ta = ct.load(a, index=(batch, bm, k), shape=(1, TM, TK), padding_mode=ZERO)
        tb = ct.load(b, index=(batch, k, bn), shape=(1, TK, TN), padding_mode=ZERO)
        acc = ct.mma(ta, tb, acc)
    ct.store(c, index=(batch, bm, bn), tile=acc.astype(c.dtype))


if __name__ == "__main__":
    import numpy as np

    m, n, k = 256, 192, 160
    a = np.random.randn(m, k).astype(np.float16)
    b = np.random.randn(k, n).astype(np.float16)
    c = np.empty((m, n), np.float32)
    ct.launch(None, (ct.cdiv(m, 64), ct.cdiv(n, 64)), matmul, (a, b, c, 64, 64, 32))
    ref = a.astype(np.float64) @ b.astype(np.float64)
    print("max error:", float(np.abs(c - ref).max()))
