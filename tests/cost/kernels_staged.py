"""A row kernel whose launched build copies long one-row tiles with the accelerator (version 91)."""
import cuda.tile as ct


@ct.kernel
def row_scale(x, y, BLOCK_N: ct.Constant[int]):
    """Each block scales its row of two (1, BLOCK_N) bfloat16 tiles by the first's maximum."""
    row = ct.bid(0)
    a = ct.astype(ct.load(x, index=(row, 0), shape=(1, BLOCK_N)), ct.float32)
    b = ct.astype(ct.load(x, index=(row, 1), shape=(1, BLOCK_N)), ct.float32)
    top = ct.max(a)
    ct.store(y, index=(row, 0), tile=ct.astype(a / top, ct.bfloat16))
    ct.store(y, index=(row, 1), tile=ct.astype(b / top, ct.bfloat16))
