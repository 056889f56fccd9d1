"""Kernels for the tile-creation executor tests."""
import tilescope.lang as ct


@ct.kernel
def arange_k(o, T: ct.Constant[int]):
    b = ct.bid(0)
    ct.store(o, index=(b,), tile=ct.arange(T, dtype=o.dtype))


@ct.kernel
def arange_start_step(o, start, step, T: ct.Constant[int]):
    b = ct.bid(0)
    ct.store(o, index=(b,), tile=ct.arange(T, dtype=o.dtype, start=start + b, step=step))


@ct.kernel
def full_runtime(o, v, T: ct.Constant[int]):
    b = ct.bid(0)
    ct.store(o, index=(b,), tile=ct.full((T,), v * (b + 1), o.dtype))


@ct.kernel
def full_const(o, T: ct.Constant[int]):
    b = ct.bid(0)
    ct.store(o, index=(b,), tile=ct.full((T,), 2.5, o.dtype))


@ct.kernel
def zeros_ones(o0, o1, T: ct.Constant[int]):
    b = ct.bid(0)
    ct.store(o0, index=(b,), tile=ct.zeros((T,), o0.dtype))
    ct.store(o1, index=(b,), tile=ct.ones((T,), o1.dtype))


@ct.kernel
def full_2d(o, v):
    b = ct.bid(0)
    ct.store(o, index=(b, 0), tile=ct.full((2, 4), v + b, o.dtype))


@ct.kernel
def astile_literal(o):
    ct.store(o, index=(0, 0), tile=ct.astile(((1, -2, 3, 4), (5, 6, -7, 8)), dtype=o.dtype))


@ct.kernel
def astile_scalars(o, s):
    b = ct.bid(0)
    ct.store(o, index=(b,), tile=ct.astile((s, s + b, s * 2, b), dtype=o.dtype))
