import cuda.tile as ct


# tilescope: args f32[1024], i32[128], f32[128]
# expect: ok
@ct.kernel
def gather_1d(src, idx, dst):
    ind = ct.load(idx, index=(0,), shape=(128,))
    t = ct.gather(src, ind)
    ct.store(dst, index=(0,), tile=t)


# tilescope: args f32[64,64], f32[16,16]
# expect: ok
@ct.kernel
def gather_2d_broadcast(src, dst):
    rows = ct.arange(16, dtype=ct.int32).reshape((16, 1))
    cols = ct.arange(16, dtype=ct.int32).reshape((1, 16)) * 2
    t = ct.gather(src, (rows, cols), mask=rows < 8, padding_value=-1.0)
    ct.store(dst, index=(0, 0), tile=t)


# tilescope: args f32[1024], i32[64], f32[64]
# expect: ok
@ct.kernel
def scatter_1d(dst, idx, vals):
    ind = ct.load(idx, index=(0,), shape=(64,))
    v = ct.load(vals, index=(0,), shape=(64,))
    ct.scatter(dst, ind, v, mask=ind >= 0, check_bounds=True)


# tilescope: args f16[32,32]
# expect: ok
@ct.kernel
def scatter_scalar_value(dst):
    r = ct.arange(32, dtype=ct.int32)
    ct.scatter(dst, (r, r), 1.0)


# tilescope: args f32[256,64], f32[8,16], i32
# expect: ok
@ct.kernel
def advanced_indexing_load(src, dst, col0):
    rows = ct.arange(8, dtype=ct.int32) * 3
    t = ct.load_advanced_indexing(src, (rows, ct.Slice(col0, 16)),
                                  padding_mode=ct.PaddingMode.ZERO)
    ct.store(dst, index=(0, 0), tile=t)


# tilescope: args i32[16,64]
# expect: ok
@ct.kernel
def advanced_indexing_store(dst):
    cols = ct.arange(4, dtype=ct.int32) * 4
    tile = ct.full((8, 4), 7, dtype=dst.dtype)
    ct.store_advanced_indexing(dst, (ct.Slice(0, 8), cols), tile)
