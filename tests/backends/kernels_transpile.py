"""Kernels for `tilescope transpile` tests: ragged tiles, dtypes, reductions, scans, nested control flow."""
import tilescope.lang as ct


@ct.kernel
def ragged_padding(x, y, T: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(T,), padding_mode=ct.PaddingMode.NEG_INF)
    m = ct.max(t, axis=0)
    ct.store(y, index=(b,), tile=ct.exp(t - m))


@ct.kernel
def mixed_dtypes(x, y, z, T: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(T,))
    h = t.astype(ct.bfloat16)
    i = ct.astype(t * 3.0, ct.int32)
    q = i // 4 + i % 5 - (i >> 1)
    ct.store(y, index=(b,), tile=(h * h).astype(ct.float32) + ct.sqrt(ct.abs(t)))
    ct.store(z, index=(b,), tile=ct.where(q > 0, q, -q))


@ct.kernel
def reductions(x, s, a, T: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b, 0), shape=(1, T))
    total = ct.sum(t, axis=1)
    big = ct.argmax(t, axis=1)
    ct.store(s, index=(b,), tile=total + ct.min(t, axis=1) * ct.prod(t, axis=1))
    ct.store(a, index=(b,), tile=big)


@ct.kernel
def custom_reduce_and_scan(x, y, z, T: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b, 0), shape=(1, T))
    r = ct.reduce(t, axis=1, func=lambda p, q: p * 0.5 + q, identity=0.0)
    c = ct.cumsum(t, axis=1)
    ct.store(y, index=(b,), tile=r)
    ct.store(z, index=(b, 0), tile=c)


@ct.kernel
def nested_loops(x, y, T: ct.Constant[int]):
    b = ct.bid(0)
    acc = ct.zeros((T,), dtype=ct.float32)
    for i in range(b + 1):
        for j in range(i, 4):
            if (i + j) % 2 == 0:
                acc = acc + ct.load(x, index=(j,), shape=(T,))
            else:
                acc = acc * 0.5
        if i == 3:
            break
    ct.store(y, index=(b,), tile=acc)


@ct.kernel
def while_with_tile_state(x, y, T: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(T,))
    n = 0
    while ct.sum(t) > 1.0:
        t = t * 0.5
        n += 1
        if n > 5 + b:
            break
    ct.store(y, index=(b,), tile=t + n)


@ct.kernel
def arange_iota(y, T: ct.Constant[int]):
    b = ct.bid(0)
    r = ct.arange(T, dtype=ct.int32) + b * T
    ct.store(y, index=(b,), tile=r * r)


@ct.kernel
def gather_scatter(x, idx, y, T: ct.Constant[int]):
    b = ct.bid(0)
    i = ct.load(idx, index=(b,), shape=(T,))
    v = ct.gather(x, i, padding_value=-1.0)
    ct.scatter(y, i, v * 2.0)


@ct.kernel
def atomics(counts, total, idx, T: ct.Constant[int]):
    b = ct.bid(0)
    i = ct.load(idx, index=(b,), shape=(T,))
    old = ct.atomic_add(counts, i, 1)
    ct.atomic_max(total, 0, ct.max(old))


@ct.kernel
def printing(x, T: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(T,))
    if b % 2 == 1:
        ct.printf("block %d: %.3f\n", b, ct.sum(t))
    print("tile", t)


@ct.kernel
def shapes(x, y, T: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b, 0), shape=(2, T))
    u = ct.cat((t, t * 2.0), axis=1)
    s = ct.extract(u, index=(0, 1), shape=(2, T))
    bits = ct.bitcast(s, ct.int32) ^ 1
    ct.store(y, index=(b, 0), tile=ct.bitcast(bits, ct.float32))


@ct.kernel
def tiled_view_copy(x, y, T: ct.Constant[int]):
    b = ct.bid(0)
    vx = x.tiled_view((T, 4), padding_mode=ct.PaddingMode.ZERO)
    vy = y.tiled_view((T, 4))
    n = vx.num_tiles(1)
    for j in range(n):
        vy.store((b, j), vx.load((b, j)) * 2.0 + 1.0)
