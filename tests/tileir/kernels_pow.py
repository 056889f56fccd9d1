"""Kernels for test_fpowi.py: float tiles raised to integer and float powers."""
import cuda.tile as ct


@ct.kernel
def pow_int_tile(x, n, y):
    ct.store(y, index=(0,), tile=ct.load(x, index=(0,), shape=(64,)) ** ct.load(n, index=(0,), shape=(64,)))


@ct.kernel
def pow_literal(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=a ** 3 + 2.0 ** a)


@ct.kernel
def pow_float_literal(x, y):
    ct.store(y, index=(0,), tile=ct.load(x, index=(0,), shape=(64,)) ** 0.5)


@ct.kernel
def pow_function(x, n, y):
    ct.store(y, index=(0,), tile=ct.pow(ct.load(x, index=(0,), shape=(64,)), ct.load(n, index=(0,), shape=(64,))))
