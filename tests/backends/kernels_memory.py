"""Kernels for the memory family on the CPU executor (loads/stores, gather/scatter, views)."""
import tilescope.lang as ct

PM = ct.PaddingMode


def _make_pad_kernel(mode):
    @ct.kernel
    def pad_kernel(x, y, T: ct.Constant[int]):
        b = ct.bid(0)
        t = ct.load(x, index=(b,), shape=(T,), padding_mode=mode)
        ct.store(y, index=(b,), tile=t)
    return pad_kernel


PAD_KERNELS = {m: _make_pad_kernel(m) for m in PM}


@ct.kernel
def copy_2d(x, y, TM: ct.Constant[int], TN: ct.Constant[int]):
    i = ct.bid(0)
    j = ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(TM, TN), padding_mode=PM.ZERO)
    ct.store(y, index=(i, j), tile=t + 1)


@ct.kernel
def copy_2d_f(x, y, TM: ct.Constant[int], TN: ct.Constant[int]):
    # Tile axis 0 runs along array axis 1: y receives x's tiles transposed in place.
    i = ct.bid(0)
    j = ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(TM, TN), order="F", padding_mode=PM.ZERO)
    ct.store(y, index=(j, i), tile=ct.transpose(t))


@ct.kernel
def copy_3d_perm(x, y):
    i = ct.bid(0)
    t = ct.load(x, index=(i, 0, 0), shape=(2, 4, 2), order=(2, 0, 1), padding_mode=PM.ZERO)
    ct.store(y, index=(i, 0, 0), tile=t)


@ct.kernel
def scalar_store(x, y):
    b = ct.bid(0)
    v = ct.load(x, index=(b,), shape=())
    ct.store(y, index=(b,), tile=v * 2)


@ct.kernel
def gather_scatter(x, idx, y, T: ct.Constant[int]):
    b = ct.bid(0)
    ind = ct.load(idx, index=(b,), shape=(T,), padding_mode=PM.ZERO)
    g = ct.gather(x, ind, padding_value=-1)
    ct.scatter(y, ind, g * 10, mask=(ind % 2) == 0)


@ct.kernel
def gather_2d(x, y, T: ct.Constant[int]):
    rows = ct.arange(T, dtype=ct.int32)[:, None] - 1
    cols = ct.arange(T, dtype=ct.int32)[None, :] * 2
    g = ct.gather(x, (rows, cols), mask=cols < 7, padding_value=99)
    ct.store(y, index=(0, 0), tile=g)


@ct.kernel
def scatter_unchecked(y, T: ct.Constant[int]):
    ind = ct.arange(T, dtype=ct.int32) * 3
    ct.scatter(y, ind, 5, check_bounds=False)


@ct.kernel
def advanced(x, y, rows, T: ct.Constant[int]):
    r = ct.load(rows, index=(0,), shape=(T,))
    t = ct.load_advanced_indexing(x, (r, ct.Slice(2, 4)), padding_mode=PM.ZERO)
    ct.store_advanced_indexing(y, (r, ct.Slice(1, 4)), t)


@ct.kernel
def slice_sum(x, starts, out, T: ct.Constant[int]):
    # Block b reads x[starts[b]:starts[b+1]] tile by tile; tiles past `stop` are padded.
    b = ct.bid(0)
    lo = ct.load(starts, index=(b,), shape=())
    hi = ct.load(starts, index=(b + 1,), shape=())
    seg = x.slice(0, lo, hi)
    acc = ct.zeros((T,), dtype=ct.float32)
    n = ct.num_tiles(seg, 0, shape=(T,))
    for i in range(n):
        acc = acc + ct.load(seg, index=(i,), shape=(T,), padding_mode=PM.ZERO)
    ct.store(out, index=(b,), tile=ct.sum(acc))


@ct.kernel
def slice_copy(x, y, lo, hi):
    s = x.slice(0, lo, hi)
    d = y.slice(0, lo, hi)
    ct.store(d, index=(0,), tile=ct.load(s, index=(0,), shape=(8,), padding_mode=PM.NEG_INF))


@ct.kernel
def slice_shape(x, out):
    b = ct.bid(0)
    s = x.slice(1, b, 2 * b + 1)
    ct.store(out, index=(b,), tile=s.shape[1] * 100 + s.shape[0])


@ct.kernel
def window_copy(x, y, TILE: ct.Constant[int], STEP: ct.Constant[int]):
    tv = x.tiled_view(TILE, traversal_steps=STEP)
    tv_out = y.tiled_view(TILE, traversal_steps=STEP)
    for i in range(tv.num_tiles(0)):
        tv_out.store(i, tv.load(i))


@ct.kernel
def box_filter(x, out, OUT_H: ct.Constant[int], OUT_W: ct.Constant[int]):
    tv = x.tiled_view((2, 2), traversal_steps=(1, 1))
    out_tv = out.tiled_view(())
    for i in range(OUT_H):
        for j in range(OUT_W):
            out_tv.store(i * OUT_W + j, ct.sum(tv.load((i, j))))


@ct.kernel
def view_ragged(x, y, n_out):
    b = ct.bid(0)
    tv = x.tiled_view((4, 4), padding_mode=PM.NAN)
    t = tv.load((b, 0))
    y.tiled_view((4, 4)).store((b, 0), t)
    ct.store(n_out, index=(b,), tile=tv.num_tiles(0) * 10 + tv.num_tiles(1))


@ct.kernel
def raw_copy(x, y, T: ct.Constant[int]):
    b = ct.bid(0)
    offs = ct.arange(T, dtype=ct.int32) + b * T
    v = x.get_raw_memory().load_offset(offs, mask=offs < 10, padding_value=-1)
    y.get_raw_memory().store_offset(offs, v)


@ct.kernel
def list_pick(arrs, out, T: ct.Constant[int]):
    b = ct.bid(0)
    a = arrs[b % 3]
    ct.store(out, index=(b,), tile=ct.load(a, index=(0,), shape=(T,)) + ct.num_tiles(a, 0, shape=(T,)))


@ct.kernel
def dims_strides(x, out):
    ct.store(out, index=(0,), tile=x.shape[0] * 1000 + x.shape[1] * 100 + x.strides[0] * 10 + x.strides[1])


@ct.kernel
def race_store(y):
    b = ct.bid(0)
    ct.store(y, index=(b // 2,), tile=ct.full((4,), b, dtype=ct.int32))


@ct.kernel
def race_read_write(x):
    b = ct.bid(0)
    t = ct.load(x, index=(0,), shape=(4,))
    ct.store(x, index=(b,), tile=t + 1)


@ct.kernel
def race_scatter(y):
    b = ct.bid(0)
    ct.scatter(y, ct.arange(4, dtype=ct.int32) + b * 2, b)


@ct.kernel
def poison_store(x, y, T: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(T,))
    ct.store(y, index=(0,), tile=ct.sum(t) + ct.zeros((1,), dtype=ct.float32))


@ct.kernel
def poison_atomic(x, y, T: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(T,))
    ct.atomic_add(y, (0,), ct.sum(t))


@ct.kernel
def poison_ok(x, y, T: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(T,))
    ct.store(y, index=(b,), tile=t * 2 + 1)


@ct.kernel
def oob_tile(x, y):
    ct.store(y, index=(0,), tile=ct.load(x, index=(5,), shape=(4,)))
