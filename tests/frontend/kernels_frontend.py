"""Kernels for front-end unit tests (HIR, exits, printers, API)."""
import tilescope.lang as ct


def scale(t, k=2):
    return t * k


@ct.kernel
def with_helper(x, y, T: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(T,))
    t += 1
    ct.store(y, index=(ct.bid(0),), tile=scale(t))


@ct.kernel
def early_exit(x, y, n):
    t = ct.load(x, index=(0,), shape=(16,))
    for i in range(n):
        if i > 3:
            break
        t = t + i
    if n < 0:
        return
    ct.store(y, index=(0,), tile=t)


@ct.kernel
def chained_compare(x, y, n):
    t = ct.load(x, index=(0,), shape=(16,))
    if 0 < n < 10:
        t = t * 2
    ct.store(y, index=(0,), tile=t)
