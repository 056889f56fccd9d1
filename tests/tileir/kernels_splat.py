"""Kernels for test_splats.py: creation calls of constants and splats of constant operands."""
import cuda.tile as ct


@ct.kernel
def zeros_plus_load(x, y):
    acc = ct.zeros((64,), dtype=ct.float32)
    ct.store(y, index=(0,), tile=acc + ct.load(x, index=(0,), shape=(64,)))


@ct.kernel
def full_plus_one(y):
    ct.store(y, index=(0,), tile=ct.full((64,), 0.5, dtype=ct.float32) + 1)


@ct.kernel
def ones_one_element(y):
    ct.store(y, index=(0,), tile=ct.ones((1,), dtype=ct.float32))
