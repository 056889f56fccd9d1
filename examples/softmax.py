"""Row softmax: one block per row, the whole row in one tile (padded with -inf)."""
import cuda.tile as ct


# tilescope: args f32[4096,1024], f32[4096,1024], 1024
@ct.kernel
def softmax(x, y, TILE: ct.Constant[int]):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE), padding_mode=ct.PaddingMode.NEG_INF)
    t = t - ct.max(t, axis=1, keepdims=True)
    e = ct.exp(t)
    ct.store(y, index=(row, 0), tile=e / ct.sum(e, axis=1, keepdims=True))


if __name__ == "__main__":
    import numpy as np

    x = np.random.randn(512, 1000).astype(np.float32)
    y = np.empty_like(x)
    ct.launch(None, (x.shape[0],), softmax, (x, y, 1024))
    ref = np.exp(x - x.max(axis=1, keepdims=True))
    ref /= ref.sum(axis=1, keepdims=True)
    print("max error:", float(np.abs(y - ref).max()))
