"""Loops of short row tiles that tileiras unrolls into passes of several steps (docs/cost-model.md
history 178): set BO's token reduction adds 128 (1, 32) float32 rows a block, and its cubin's loop
makes four steps' loads a pass and waits once; the model charged the loop's code every step, as if
a pass were a step, and predicted 2.5x its time. Microbenchmarks of bench/cost_validate.py
(`stepped_*`): the sum alone, and with each row also stored elsewhere (as the token reduction
does), for row tiles of 32 to 128 elements, on a block per row of a 1,182-row and a 264-row grid."""
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def row_steps_sum(x, out, T: ConstInt, STEPS: ConstInt):
    """out's row bid(0) = the float32 sum of STEPS (1, T) tiles, row bid(0) + i * ROWS of x."""
    rows = ct.num_blocks(0)
    acc = ct.zeros((1, T), dtype=ct.float32)
    for i in range(STEPS):
        acc = acc + ct.astype(ct.load(x, index=(i * rows + ct.bid(0), 0), shape=(1, T)), ct.float32)
    ct.store(out, index=(ct.bid(0), 0), tile=acc)


@ct.kernel
def row_steps_sum_copy(x, copy, out, T: ConstInt, STEPS: ConstInt):
    """The same sum, each row also stored to `copy` as it is read."""
    rows = ct.num_blocks(0)
    acc = ct.zeros((1, T), dtype=ct.float32)
    for i in range(STEPS):
        row = ct.load(x, index=(i * rows + ct.bid(0), 0), shape=(1, T))
        ct.store(copy, index=(i * rows + ct.bid(0), 0), tile=row)
        acc = acc + ct.astype(row, ct.float32)
    ct.store(out, index=(ct.bid(0), 0), tile=acc)
