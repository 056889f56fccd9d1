"""Load -> mma loops whose operand tiles are loaded without the tensor memory accelerator
(`allow_tma=False`, as set AE's block-sparse attention loads its key and value tiles): built as a
launch builds them, over aligned arrays, tileiras loads a lane's eight float16 elements with one
16-byte LDG, where the dynamic builds on which the operand-path laws were measured load one 2-byte
element a lane (docs/cost-model.md history 174). Microbenchmarks of bench/cost_validate.py (`vecop_*`)."""
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def mma_stream_no_tma(a, b, c, N: ConstInt, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """N iterations of: load a (TM, TK) tile of the block's own rows of `a` and a (TK, TN) tile of
    `b` (shared by every block) by element loads, then mma."""
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for j in range(N):
        ta = ct.load(a, index=(ct.bid(0), j), shape=(TM, TK), allow_tma=False)
        tb = ct.load(b, index=(j, 0), shape=(TK, TN), allow_tma=False)
        acc = ct.mma(ta, tb, acc)
    ct.store(c, index=(ct.bid(0), 0), tile=acc)


@ct.kernel
def mma_stream_no_tma_kmajor(a, bt, c, N: ConstInt, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """mma_stream_no_tma with `b` stored transposed, (TN, K) contiguous along K, read through
    `order=` (as the block-sparse attention reads its keys)."""
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for j in range(N):
        ta = ct.load(a, index=(ct.bid(0), j), shape=(TM, TK), allow_tma=False)
        tb = ct.load(bt, index=(j, 0), shape=(TK, TN), order=(1, 0), allow_tma=False)
        acc = ct.mma(ta, tb, acc)
    ct.store(c, index=(ct.bid(0), 0), tile=acc)
