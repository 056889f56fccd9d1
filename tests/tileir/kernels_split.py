"""Loops that branch on their induction variable (tests/tileir/test_loop_split.py); plain cuTile."""
import cuda.tile as ct


@ct.kernel
def causal_rows(x, y, start, N: ct.Constant[int]):
    acc = ct.zeros((N,), dtype=ct.float32)
    for j in range(ct.num_tiles(x, axis=0, shape=(N,))):
        t = ct.load(x, index=(j,), shape=(N,))
        if j >= start:
            acc = acc + t
        else:
            acc = acc - t
    ct.store(y, index=(0,), tile=acc)


@ct.kernel
def skip_after(x, y, stop, N: ct.Constant[int]):
    acc = ct.zeros((N,), dtype=ct.float32)
    for j in range(8):
        if j > stop:
            continue
        acc = acc + ct.load(x, index=(j,), shape=(N,))
    ct.store(y, index=(0,), tile=acc)


@ct.kernel
def bound_first(x, y, stop, N: ct.Constant[int]):
    acc = ct.zeros((N,), dtype=ct.float32)
    for j in range(1, 8):
        t = ct.load(x, index=(j,), shape=(N,))
        if stop < j:
            acc = acc * 0.5 + t
        else:
            acc = acc + t * 2.0
    ct.store(y, index=(0,), tile=acc)


@ct.kernel
def two_branches(x, y, a, b, N: ct.Constant[int]):
    acc = ct.zeros((N,), dtype=ct.float32)
    for j in range(8):
        t = ct.load(x, index=(j,), shape=(N,))
        if j >= a:
            t = t * 2.0
        if j <= b:
            t = t + 1.0
        acc = acc + t
    ct.store(y, index=(0,), tile=acc)
