"""Layer normalisation forward: one block per row, the row walked in tiles of TN columns."""
import cuda.tile as ct

ZERO = ct.PaddingMode.ZERO


# tilescope: args f32[4096,1024], f32[1024], f32[1024], f32[4096,1024], f32, 256
@ct.kernel
def layernorm(x, w, b, y, eps, TN: ct.Constant[int]):
    row = ct.bid(0)
    n = x.shape[1]
    ntiles = ct.cdiv(n, TN)
    total = ct.zeros((1, TN), dtype=ct.float32)
    for j in range(ntiles):
        total += ct.load(x, index=(row, j), shape=(1, TN), padding_mode=ZERO)
    mean = ct.sum(total, axis=1, keepdims=True) / n
    sq = ct.zeros((1, TN), dtype=ct.float32)
    for j in range(ntiles):
        t = ct.load(x, index=(row, j), shape=(1, TN), padding_mode=ZERO)
        cols = j * TN + ct.arange(TN, dtype=ct.int32)
        d = ct.where(cols < n, t - mean, 0.0)
        sq += d * d
    rstd = ct.rsqrt(ct.sum(sq, axis=1, keepdims=True) / n + eps)
    for j in range(ntiles):
        t = ct.load(x, index=(row, j), shape=(1, TN), padding_mode=ZERO)
        wt = ct.load(w, index=(j,), shape=(TN,), padding_mode=ZERO)
        bt = ct.load(b, index=(j,), shape=(TN,), padding_mode=ZERO)
        ct.store(y, index=(row, j), tile=(t - mean) * rstd * wt + bt)


if __name__ == "__main__":
    import numpy as np

    x = np.random.randn(256, 1000).astype(np.float32)
    w, b = np.random.randn(1000).astype(np.float32), np.random.randn(1000).astype(np.float32)
    y = np.empty_like(x)
    ct.launch(None, (x.shape[0],), layernorm, (x, w, b, y, 1e-5, 256))
    mu, var = x.mean(axis=1, keepdims=True), x.var(axis=1, keepdims=True)
    print("max error:", float(np.abs(y - ((x - mu) / np.sqrt(var + 1e-5) * w + b)).max()))
