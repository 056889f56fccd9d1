"""Kernels of loops whose IR carries nothing their loads bring to the next step, though the cubin's
loop waits for them (the cost model's version 61; docs/cost-model.md history 94): microbenchmarks
of bench/cost_validate.py (`loop_wait_*`) and the kernels of tests/cost/test_v61_loop_waits.py."""
import cuda.tile as ct


@ct.kernel
def softmax_rows_by_gathers(x, y, ROWS: ct.Constant[int], TS: ct.Constant[int]):
    """A persistent softmax: each block gathers its rows one by one and scatters them back."""
    for row in range(ct.bid(0), ROWS, ct.num_blocks(0)):
        cols = ct.arange(TS, dtype=ct.int32)
        line = ct.gather(x, (row, cols)).astype(ct.float32)
        e = ct.exp(line - ct.max(line, axis=-1, keepdims=True))
        ct.scatter(y, (row, cols), (e / ct.sum(e, axis=-1, keepdims=True)).astype(x.dtype))


@ct.kernel
def count_by_key(keys, counts, KEYS: ct.Constant[int], PER: ct.Constant[int]):
    """Each block counts its PER keys into its own row of `counts`, one key a step."""
    start = ct.bid(0) * PER
    row = ct.full((1,), (ct.bid(0) + 1) * KEYS, dtype=ct.int32)
    for i in range(PER):
        key = ct.gather(keys, ct.full((1,), start + i, dtype=ct.int32))
        at = row + key
        ct.scatter(counts, at, ct.gather(counts, at) + ct.ones((1,), dtype=ct.int32))


@ct.kernel
def look_up_by_key(keys, table, out, PER: ct.Constant[int]):
    """Each block looks its PER keys up in `table`, one key a step."""
    start = ct.bid(0) * PER
    for i in range(PER):
        at = ct.full((1,), start + i, dtype=ct.int32)
        ct.scatter(out, at, ct.gather(table, ct.gather(keys, at)))
