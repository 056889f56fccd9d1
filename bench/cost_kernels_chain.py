"""Column sums on few blocks, each block walking its column of tiles down the rows (docs/cost-model.md
history 172): set BH's sum of a (131072, 432) bfloat16 array in (512, 16) tiles ran 27 blocks at
0.65 µs a step, where each step's block-wide reduction (shuffles, barriers, shared memory) is one
warp's chain of waits. Microbenchmarks of bench/cost_validate.py (`chain_*`): that sum and others of
other tile shapes, on few blocks and on several an SM."""
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def column_sum(x, out, TR: ConstInt, TC: ConstInt, STEPS: ConstInt):
    """out's tile bid(0) = the float32 sum down the rows of x's column of STEPS (TR, TC) tiles."""
    acc = ct.zeros((TC,), dtype=ct.float32)
    for i in range(STEPS):
        acc = acc + ct.sum(ct.astype(ct.load(x, index=(i, ct.bid(0)), shape=(TR, TC)), ct.float32), axis=0)
    ct.store(out, index=(ct.bid(0),), tile=acc)
