"""A mask kernel that reads 8-byte positions and stores a bfloat16 tile of 16 rows (version 92)."""
import cuda.tile as ct


@ct.kernel
def position_mask(positions, out, BLOCK_M: ct.Constant[int], BLOCK_N: ct.Constant[int]):
    """Each block compares a (BLOCK_M, 1) and a (1, BLOCK_N) slice of int64 positions and stores the
    causal mask as a (BLOCK_M, BLOCK_N) bfloat16 tile of a row-major (S, S) array."""
    i, j = ct.bid(0), ct.bid(1)
    q = ct.reshape(ct.load(positions, index=(i,), shape=(BLOCK_M,)), (BLOCK_M, 1))
    k = ct.reshape(ct.load(positions, index=(j,), shape=(BLOCK_N,)), (1, BLOCK_N))
    mask = ct.where(k <= q, ct.zeros((BLOCK_M, BLOCK_N), dtype=ct.bfloat16),
                    ct.full((BLOCK_M, BLOCK_N), -1.0, dtype=ct.bfloat16))
    ct.store(out, index=(i, j), tile=mask)
