"""Kernels whose TileIR follows upstream's op sequence (tests/tileir/test_upstream_order.py); plain cuTile."""
import cuda.tile as ct


@ct.kernel
def float_mod(x, y):
    a = ct.load(x, index=(0,), shape=(16,))
    b = ct.load(y, index=(0,), shape=(16,))
    ct.store(x, index=(0,), tile=a % b)


@ct.kernel
def unsigned_mod(x, y):
    a = ct.load(x, index=(0,), shape=(16,))
    b = ct.load(y, index=(0,), shape=(16,))
    ct.store(x, index=(0,), tile=a % b)


@ct.kernel
def arg_best(x, out):
    t = ct.load(x, index=(0, 0), shape=(8, 16))
    ct.store(out, index=(0,), tile=ct.argmax(t, axis=1))
    ct.store(out, index=(1,), tile=ct.argmin(t, axis=1, propagate_nan=True))


@ct.kernel
def sum_two_axes(x, out):
    t = ct.load(x, index=(0, 0, 0), shape=(4, 8, 16))
    ct.store(out, index=(0,), tile=ct.sum(t, axis=(0, 2)))


@ct.kernel
def tile_of_scalars(out, a, b):
    ct.store(out, index=(0,), tile=ct.astile((a, 1, b, 2), dtype=ct.int32))


@ct.kernel
def for_with_break(x, y, limit):
    acc = ct.zeros((16,), dtype=ct.float32)
    for i in range(8):
        if i == 3:
            continue
        if i >= limit:
            break
        acc = acc + ct.load(x, index=(i,), shape=(16,))
    ct.store(y, index=(0,), tile=acc)


@ct.kernel
def gather_broadcast(x, out):
    r = ct.arange(16, dtype=ct.int32)[:, None]
    c = ct.arange(16, dtype=ct.int32)[None, :]
    t = ct.gather(x, (r, c * 2), mask=r < 8, padding_value=-1.0)
    ct.store(out, index=(0, 0), tile=t)


@ct.kernel
def atomic_broadcast(x):
    r = ct.arange(16, dtype=ct.int32)[:, None]
    c = ct.arange(16, dtype=ct.int32)[None, :]
    ct.atomic_add(x, (r, c), 1)


@ct.kernel
def bool_chain(x, a, b, c):
    t = ct.load(x, index=(0,), shape=(16,))
    if a > 0 and b > 0 and c > 0:
        t = t + 1
    if a > 1 or b > 1:
        t = t + 2
    ct.store(x, index=(0,), tile=t)


def _pick(t, u, early):
    if early:
        return t
    return t + u


@ct.kernel
def helper_returns_early(x, y, flag):
    t = ct.load(x, index=(0,), shape=(16,))
    u = ct.load(y, index=(0,), shape=(16,))
    ct.store(x, index=(0,), tile=_pick(t, u, flag))


@ct.kernel
def scalar_gather(x):
    ct.scatter(x, (), ct.gather(x, ()) + 1)


@ct.kernel
def tiled_copy(src, dst):
    tv = src.tiled_view((16, 16))
    out = dst.tiled_view((16, 16))
    for i in range(tv.num_tiles(0)):
        out.store((i, 0), tv.load((i, 0)))


@ct.kernel
def cas_lock(lock):
    while ct.atomic_cas(lock, 0, 0, 1, memory_order=ct.MemoryOrder.ACQUIRE) == 1:
        pass
    ct.atomic_xchg(lock, 0, 0, memory_order=ct.MemoryOrder.RELEASE)


@ct.kernel
def float_to_bool(x, out):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(out, index=(0,), tile=ct.where(t.astype(ct.bool_), 1, 0))


@ct.kernel
def scatter_converted_literal(x):
    r = ct.arange(16, dtype=ct.int32)
    ct.scatter(x, r, 1.0)
    ct.atomic_cas(x, r, 0.0, 2.5)


@ct.kernel
def array_join(x, y):
    a = x if ct.bid(0) == 0 else y
    ct.store(a, index=(0,), tile=ct.full((4,), 1, ct.int32))


@ct.kernel
def invariant_helper_in_loop(x, flag, n):
    t = ct.load(x, index=(0,), shape=(16,))
    acc = ct.zeros((16,), dtype=ct.float32)
    for i in range(n):
        acc = acc + _pick(t, t, flag)
    ct.store(x, index=(0,), tile=acc)


@ct.kernel
def carried_slots(x, n):
    a, b, c = 1, 10, 100
    for i in range(n):
        a = a + 1
        b = b + i
        c = c
    ct.scatter(x, 0, a)
    ct.scatter(x, 1, c)


@ct.kernel
def tuple_compare(x):
    a = ct.bid(0)
    b = ct.bid(1)
    if ((a, 1), b) == ((0, 1), 0):
        ct.scatter(x, (a,), 1)
    if a in (0, (b, 1)[0], 5):
        ct.scatter(x, (a,), 2)


@ct.kernel
def mod_by_constant(x, GROUPS: ct.Constant[int]):
    g = ct.bid(0) % GROUPS
    ct.scatter(x, (g,), 1)
