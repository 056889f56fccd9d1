"""Kernels for test_jump_branches.py: `if`s one branch of which leaves the block."""
import cuda.tile as ct


@ct.kernel
def while_sum(out, n):
    i = 0
    s = 0
    while i < n:
        s = s + i
        i = i + 1
    ct.store(out, index=(0,), tile=ct.full((1,), s, dtype=ct.int32))


@ct.kernel
def while_skips(x, n):
    t = ct.load(x, index=(0,), shape=(64,))
    i = 0
    while i < n:
        i = i + 1
        if i == 2:
            continue
        t = t + 1.0
    ct.store(x, index=(0,), tile=t)


@ct.kernel
def early_return(x, n):
    if n < 0:
        return
    ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(64,)) + 1)


@ct.kernel
def if_else_return(x, n):
    if n < 0:
        return
    else:
        ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(64,)) + 1)
