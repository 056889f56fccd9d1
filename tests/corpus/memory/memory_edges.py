import cuda.tile as ct


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def load_0d_shape(src, dst):
    x = ct.load(src, index=(3,), shape=())
    ct.store(dst, index=(0,), tile=x)


# tilescope: args f32[64,64], f32[64]
# expect: ok
# upstream-note: a tile whose rank differs from the array's is stored without complaint
@ct.kernel
def store_rank_mismatch(src, dst):
    t = ct.load(dst, index=(0,), shape=(16,))
    ct.store(src, index=(0, 0), tile=t)


# tilescope: args list[f32[?]], f32[64], i32
# expect: ok
@ct.kernel
def list_item_dynamic(xs, y, k):
    t = ct.load(xs[k], index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=t + ct.load(xs[0], index=(0,), shape=(64,)))


# tilescope: args list[f32[?]], f32[64]
# expect: TileTypeError @ 33
@ct.kernel
def list_item_float_index(xs, y):
    t = ct.load(xs[1.0], index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=t)


# tilescope: args f32[1024], f32[64]
# expect: TileTypeError @ 41
@ct.kernel
def slice_stop_before_start(src, dst):
    sub = src.slice(axis=0, start=8, stop=4)
    ct.store(dst, index=(0,), tile=ct.load(sub, index=(0,), shape=(64,)))


# tilescope: args f32[64,64], f32[64,64]
# expect: TileTypeError @ 49
@ct.kernel
def tiled_view_steps_wrong_rank(src, dst):
    tv = src.tiled_view((4, 16), traversal_steps=(2,))
    ct.store(dst, index=(0, 0), tile=tv.load((0, 0)))


# tilescope: args f32[64,64], f32[64,64]
# expect: TileTypeError @ 58
@ct.kernel
def tiled_view_store_bad_shape(src, dst):
    tv = dst.tiled_view((4, 16))
    tv.store((0, 0), ct.load(src, index=(0, 0), shape=(8, 16)))


# tilescope: args f32[64,64], f32[64,64]
# expect: ok
@ct.kernel
def tiled_view_store_broadcast(src, dst):
    tv = dst.tiled_view((4, 16))
    n = tv.num_tiles(1)
    tv.store((0, n - 1), ct.load(src, index=(0, 0), shape=(1, 16)))


# tilescope: args f32[1024], i32[64], f32[64]
# expect: TileTypeError @ 76
@ct.kernel
def scatter_value_not_broadcastable(dst, idx, vals):
    ind = ct.load(idx, index=(0,), shape=(64,))
    v = ct.load(vals, index=(0,), shape=(32,))
    ct.scatter(dst, ind, v)


# tilescope: args f32[1024], f32[64], f32[64]
# expect: TileTypeError @ 84
@ct.kernel
def gather_float_index(src, idx, dst):
    ind = ct.load(idx, index=(0,), shape=(64,))
    ct.store(dst, index=(0,), tile=ct.gather(src, ind))


# tilescope: args f32[1024], i32[64], f32[64]
# expect: TileTypeError @ 92
@ct.kernel
def gather_int_mask(src, idx, dst):
    ind = ct.load(idx, index=(0,), shape=(64,))
    ct.store(dst, index=(0,), tile=ct.gather(src, ind, mask=ind))


# tilescope: args i16[1024], u32[64], i16[64]
# expect: ok
@ct.kernel
def gather_unsigned_index_padding(src, idx, dst):
    ind = ct.load(idx, index=(0,), shape=(64,))
    ct.store(dst, index=(0,), tile=ct.gather(src, ind, padding_value=-1, latency=2))


# tilescope: args f32[1024], f32[64]
# expect: ok
@ct.kernel
def num_tiles_is_runtime(src, dst):
    n = ct.num_tiles(src, axis=0, shape=(64,))
    ct.store(dst, index=(0,), tile=ct.load(src, index=(n - 1,), shape=(64,)))


# tilescope: args f32[64], f32[64]
# expect: TileValueError @ 115
@ct.kernel
def load_latency_out_of_range(src, dst):
    ct.store(dst, index=(0,), tile=ct.load(src, index=(0,), shape=(64,), latency=11))


# tilescope: args f32[64], f32[64]
# expect: TileTypeError @ 123
@ct.kernel
def store_weak_with_scope(src, dst):
    t = ct.load(src, index=(0,), shape=(64,))
    ct.store(dst, index=(0,), tile=t, memory_scope=ct.MemoryScope.DEVICE)


# tilescope: args i32[1024], i32[64]
# expect: TileInternalError @ 133
# upstream-note: padding_value=None crashes upstream 1.7.0 (internal error); tilescope rejects it as a TileTypeError
@ct.kernel
def raw_load_no_padding(src, dst):
    rm = src.get_raw_memory()
    offs = ct.load(dst, index=(0,), shape=(64,))
    ct.store(dst, index=(0,), tile=rm.load_offset(offs, padding_value=None))


# tilescope: args i32[1024], i32[64]
# expect: ok
@ct.kernel
def raw_load_scalar_offset(src, dst):
    rm = src.get_raw_memory()
    ct.store(dst, index=(0,), tile=rm.load_offset(5) + ct.load(dst, index=(0,), shape=(64,)))
