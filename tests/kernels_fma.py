"""Kernels for the fma contraction tests."""
import tilescope.lang as ct


@ct.kernel
def fma_forms(a, b, c, o1, o2, o3, o4):
    x = ct.load(a, index=(0,), shape=(16,))
    y = ct.load(b, index=(0,), shape=(16,))
    z = ct.load(c, index=(0,), shape=(16,))
    ct.store(o1, index=(0,), tile=x * y + z)
    ct.store(o2, index=(0,), tile=z + x * y)
    ct.store(o3, index=(0,), tile=x * y - z)
    ct.store(o4, index=(0,), tile=z - x * y)


@ct.kernel
def fma_two_uses(a, b, c, o1, o2):
    x = ct.load(a, index=(0,), shape=(16,))
    y = ct.load(b, index=(0,), shape=(16,))
    z = ct.load(c, index=(0,), shape=(16,))
    p = x * y
    ct.store(o1, index=(0,), tile=p + z)
    ct.store(o2, index=(0,), tile=p)


@ct.kernel
def fma_chain(a, b, c, o1):
    x = ct.load(a, index=(0,), shape=(16,))
    y = ct.load(b, index=(0,), shape=(16,))
    z = ct.load(c, index=(0,), shape=(16,))
    ct.store(o1, index=(0,), tile=x * y + z * x + y * y)


@ct.kernel
def fma_lhs_shared(a, b, c, o1, o2):
    x = ct.load(a, index=(0,), shape=(16,))
    y = ct.load(b, index=(0,), shape=(16,))
    z = ct.load(c, index=(0,), shape=(16,))
    p = x * y
    ct.store(o1, index=(0,), tile=p + z * y)
    ct.store(o2, index=(0,), tile=p)


@ct.kernel
def fma_rounding(a, b, c, o1, o2):
    x = ct.load(a, index=(0,), shape=(16,))
    y = ct.load(b, index=(0,), shape=(16,))
    z = ct.load(c, index=(0,), shape=(16,))
    rz = ct.RoundingMode.RZ
    ct.store(o1, index=(0,), tile=ct.add(ct.mul(x, y, rounding_mode=rz), z, rounding_mode=rz))
    ct.store(o2, index=(0,), tile=ct.add(ct.mul(x, y, rounding_mode=rz), z))


@ct.kernel
def fma_loop(a, b, c, o1):
    x = ct.load(a, index=(0,), shape=(16,))
    y = ct.load(b, index=(0,), shape=(16,))
    acc = ct.load(c, index=(0,), shape=(16,))
    for i in range(4):
        acc = x * y + acc
    ct.store(o1, index=(0,), tile=acc)


@ct.kernel
def fma_blocks(a, b, c, o, T: ct.Constant[int]):
    i = ct.bid(0)
    x = ct.load(a, index=(i,), shape=(T,))
    y = ct.load(b, index=(i,), shape=(T,))
    z = ct.load(c, index=(i,), shape=(T,))
    ct.store(o, index=(i,), tile=x * y + z)
