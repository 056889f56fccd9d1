"""Transpose by tiles: block (i, j) reads tile (i, j) and writes it transposed at (j, i)."""
import cuda.tile as ct


# tilescope: args f32[4096,4096], f32[4096,4096], 64, 64
@ct.kernel
def transpose(x, y, TM: ct.Constant[int], TN: ct.Constant[int]):
    i, j = ct.bid(0), ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(TM, TN))
    ct.store(y, index=(j, i), tile=ct.transpose(t))


if __name__ == "__main__":
    import numpy as np

    x = np.random.rand(512, 256).astype(np.float32)
    y = np.empty((256, 512), np.float32)
    ct.launch(None, (512 // 64, 256 // 64), transpose, (x, y, 64, 64))
    print("exact:", bool(np.array_equal(y, x.T)))
