"""Kernels for test_exec_fixes.py (regressions found by the upstream conformance run)."""
import functools

import tilescope.lang as ct


@ct.kernel
def array_if_else(x, y):
    # The array chosen differs per block; blocks of one vectorised group must each
    # write their own array.
    if ct.bid(0) % 2 == 0:
        a = x
    else:
        a = y
    tile = ct.full((1,), ct.bid(0) + 10, dtype=x.dtype)
    ct.store(a, index=(ct.bid(0) // 2,), tile=tile)


@ct.kernel
def array_if_else_shape(x, y, out):
    if ct.bid(0) == 0:
        a = x
    else:
        a = y
    t = ct.load(a, index=(0,), shape=(4,))
    ct.store(out, index=(ct.bid(0),), tile=t + a.shape[0])


@ct.kernel
def array_loop_carried(x, y, out):
    a = x
    for i in range(ct.bid(0)):
        a = y
    ct.store(out, index=(ct.bid(0),), tile=ct.load(a, index=(0,), shape=(4,)))


def _add_three_first(func):
    @functools.wraps(func)   # the wrapper carries func's __name__ but is what must be inlined
    def wrapper(x):
        return func(x + 3)
    return wrapper


@_add_three_first
def times_ten(x):
    return x * 10


@ct.kernel
def decorated_helper(y):
    ct.scatter(y, (), times_ten(5))


@ct.kernel
def comprehension_lambdas(y):
    fns = tuple(lambda: x for x in ct.static_iter(range(3)))
    x = 123  # noqa: F841  (not the comprehension's x)
    for k, f in ct.static_iter(enumerate(fns)):
        ct.scatter(y, k, f())


@ct.kernel
def constant_dtype_arg(c: ct.Constant, out):
    ct.scatter(out, 0, c == ct.float32)
    ct.scatter(out, 1, c == ct.int32)


@ct.kernel
def assert_with_message(x, T: ct.Constant[int]):
    ct.assert_(ct.load(x, index=(ct.bid(0),), shape=(T,)) > 0, "x must be positive")


@ct.kernel
def add_one(x, T: ct.Constant[int]):
    i = ct.bid(0)
    ct.store(x, index=(i,), tile=ct.load(x, index=(i,), shape=(T,)) + 1)
