"""Kernels for test_bound_constants.py: compile-time numbers used away from where they are bound."""
from contextlib import contextmanager
from dataclasses import dataclass

import cuda.tile as ct


@ct.kernel
def constant_param_twice(x, ALPHA: ct.Constant[float], y):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=t * ALPHA)
    ct.store(x, index=(0,), tile=t + ALPHA)


@ct.kernel
def counter_before_loop(x, y, n):
    acc = ct.zeros((64,), dtype=ct.float32)
    cnt = 0
    for i in range(1, n, 2):
        acc = acc + ct.load(x, index=(i,), shape=(64,))
        cnt = cnt + 1
    ct.store(y, index=(0,), tile=acc / cnt)


@dataclass(frozen=True)
class Pair:
    first: int
    second: int = 5


@ct.kernel
def dataclass_default(x):
    p = Pair(2)
    ct.scatter(x, 0, p.first)
    ct.scatter(x, 1, p.second)


def _scaled(t, k):
    return t * k + k


@ct.kernel
def helper_argument(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=_scaled(t, 1.5))


@ct.kernel
def converted_where_used(x):
    k = 3
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(x, index=(0,), tile=t * k)


@ct.kernel
def bound_in_a_branch(x, y):
    if ct.bid(0) == 0:
        k = 7
    else:
        k = 7
    ct.scatter(x, 0, ct.load(y, index=(0,), shape=(1,)).item() + k)


@contextmanager
def _twice(x, v):
    ct.scatter(x, 0, v)
    yield v * 2
    ct.scatter(x, 1, v)


@ct.kernel
def with_helper(x):
    with _twice(x, 3) as w:
        ct.scatter(x, 2, w)


@ct.kernel
def literal_into_i64_tile(dst):
    tv = dst.tiled_view((16, 16))
    tv.atomic_store_add((0, 0), 1)
