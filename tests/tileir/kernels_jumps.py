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


@ct.kernel
def constant_after_branches(x):
    if ct.bid(0) == 1:
        a = 1
    else:
        a = 1
    ct.store(x, (0,), ct.full((a,), 3.0, x.dtype))


@ct.kernel
def store_in_branch(x):
    if ct.bid(0) == 1:
        ct.store(x, (0,), ct.full((1,), 3.0, x.dtype))
