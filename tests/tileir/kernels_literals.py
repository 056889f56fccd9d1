"""Kernels for test_literal_order.py: number literals meeting operands that are converted."""
import cuda.tile as ct


@ct.kernel
def int_tile_plus_float(x, y):
    ct.store(y, index=(0,), tile=ct.load(x, index=(0,), shape=(64,)) + 0.5)


@ct.kernel
def arange_start_step(y):
    ct.store(y, index=(0,), tile=ct.arange(64, dtype=ct.float32, start=0.5, step=0.25))


@ct.kernel
def where_int_and_float(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.where(a > 0, 1, 2.0))


@ct.kernel
def two_atomics(cnt, out):
    idx = ct.arange(64, dtype=ct.int32)
    o = ct.atomic_add(cnt, idx, 3)
    o = o + ct.atomic_max(cnt, idx, 5)
    ct.store(out, index=(0,), tile=o)
