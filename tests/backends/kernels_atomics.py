"""Kernels for atomics on the CPU executor."""
import tilescope.lang as ct


def _make_rmw(name):
    fn = getattr(ct, f"atomic_{name}")

    @ct.kernel
    def rmw(a, idx, upd, old, T: ct.Constant[int]):
        b = ct.bid(0)
        i = ct.load(idx, index=(b,), shape=(T,))
        u = ct.load(upd, index=(b,), shape=(T,))
        ct.store(old, index=(b,), tile=fn(a, i, u))
    return rmw


RMW = {n: _make_rmw(n) for n in ("add", "max", "min", "and", "or", "xor", "xchg")}


def _make_raw_rmw(name):
    @ct.kernel
    def raw_rmw(a, idx, upd, old, T: ct.Constant[int]):
        b = ct.bid(0)
        i = ct.load(idx, index=(b,), shape=(T,))
        u = ct.load(upd, index=(b,), shape=(T,))
        r = a.get_raw_memory()
        ct.store(old, index=(b,), tile=getattr(r, f"atomic_{name}_offset")(i, u, mask=i != 3))
    return raw_rmw


RAW_RMW = {n: _make_raw_rmw(n) for n in ("add", "max", "min", "and", "or", "xor", "xchg")}


@ct.kernel
def cas(a, idx, exp, des, old, T: ct.Constant[int]):
    b = ct.bid(0)
    i = ct.load(idx, index=(b,), shape=(T,))
    e = ct.load(exp, index=(b,), shape=(T,))
    d = ct.load(des, index=(b,), shape=(T,))
    ct.store(old, index=(b,), tile=ct.atomic_cas(a, i, e, d))


@ct.kernel
def raw_cas(a, idx, exp, des, old, T: ct.Constant[int]):
    b = ct.bid(0)
    i = ct.load(idx, index=(b,), shape=(T,))
    e = ct.load(exp, index=(b,), shape=(T,))
    d = ct.load(des, index=(b,), shape=(T,))
    ct.store(old, index=(b,), tile=a.get_raw_memory().atomic_cas_offset(i, e, d))


@ct.kernel
def histogram(x, h, T: ct.Constant[int]):
    b = ct.bid(0)
    v = ct.load(x, index=(b,), shape=(T,), padding_mode=ct.PaddingMode.ZERO)
    i = ct.where(ct.arange(T, dtype=ct.int32) + b * T < x.shape[0], v, -1)
    ct.atomic_add(h, i, 1)


@ct.kernel
def float_sum(x, acc, T: ct.Constant[int]):
    b = ct.bid(0)
    v = ct.load(x, index=(b,), shape=(T,))
    ct.atomic_add(acc, ct.zeros((T,), dtype=ct.int32), v)


@ct.kernel
def float_sum_loop(x, acc, T: ct.Constant[int], K: ct.Constant[int]):
    b = ct.bid(0)
    for k in range(K):
        v = ct.load(x, index=(b * K + k,), shape=(T,))
        ct.atomic_add(acc, ct.zeros((T,), dtype=ct.int32), v)


@ct.kernel
def ticket(counter, out):
    b = ct.bid(0)
    t = ct.atomic_add(counter, 0, 1)
    ct.store(out, index=(b,), tile=t)


@ct.kernel
def spin_lock_sum(lock, total, x):
    b = ct.bid(0)
    while ct.atomic_cas(lock, 0, 0, 1) != 0:
        pass
    cur = ct.load(total, index=(0,), shape=(1,))
    ct.store(total, index=(0,), tile=cur + ct.load(x, index=(b,), shape=(1,)))
    ct.atomic_xchg(lock, 0, 0)


@ct.kernel
def raw_spin_lock_sum(lock, total, x):
    b = ct.bid(0)
    r = lock.get_raw_memory()
    while r.atomic_cas_offset(0, 0, 1) != 0:
        pass
    cur = ct.load(total, index=(0,), shape=(1,))
    ct.store(total, index=(0,), tile=cur + ct.load(x, index=(b,), shape=(1,)))
    r.atomic_xchg_offset(0, 0)


@ct.kernel
def tiled_atomic_add(acc, x, T: ct.Constant[int]):
    b = ct.bid(0)
    tv = acc.tiled_view((T,))
    tv.atomic_store_add(0, ct.load(x, index=(b,), shape=(T,)))


@ct.kernel
def tiled_atomic_max(acc, x, T: ct.Constant[int]):
    b = ct.bid(0)
    acc.tiled_view((T,), traversal_steps=(2,)).atomic_store_max(b, ct.load(x, index=(b,), shape=(T,)))


@ct.kernel
def atomic_oob(a, old):
    i = ct.arange(4, dtype=ct.int32) * 3 - 2
    ct.store(old, index=(0,), tile=ct.atomic_add(a, i, 1))
    ct.store(old, index=(1,), tile=ct.atomic_cas(a, i, 0, 5))


@ct.kernel
def atomic_race_free(a):
    ct.atomic_add(a, ct.arange(4, dtype=ct.int32), 1)


@ct.kernel
def atomic_oob_unchecked(a, old):
    i = ct.arange(4, dtype=ct.int32) * 3 - 2
    ct.store(old, index=(0,), tile=ct.atomic_max(a, i, 1, check_bounds=False))
