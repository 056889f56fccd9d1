import cuda.tile as ct


# tilescope: args f32[64,128], f32[64]
# expect: ok
# tilescope: args f16[64,128], f16[64]
# expect: ok
# tilescope: args i32[64,128], i32[64]
# expect: ok
@ct.kernel
def row_sum(x, y):
    t = ct.load(x, index=(0, 0), shape=(64, 128))
    ct.store(y, index=(0,), tile=ct.sum(t, axis=1))


# tilescope: args f32[32,32], f32[32,32]
# expect: ok
@ct.kernel
def reductions_keepdims(x, y):
    t = ct.load(x, index=(0, 0), shape=(32, 32))
    r = ct.max(t, axis=1, keepdims=True) - ct.min(t, axis=1, keepdims=True)
    r = r + ct.prod(t, axis=0, keepdims=True)
    ct.store(y, index=(0, 0), tile=t - r)


# tilescope: args f32[16,16], f32[1]
# expect: ok
@ct.kernel
def reduce_all_axes(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    s = ct.sum(t) + ct.max(t) + ct.min(t)
    ct.store(y, index=(0,), tile=s.reshape((1,)))


# tilescope: args f32[4,8,16], f32[8]
# expect: ok
@ct.kernel
def reduce_axis_tuple(x, y):
    t = ct.load(x, index=(0, 0, 0), shape=(4, 8, 16))
    ct.store(y, index=(0,), tile=ct.sum(t, axis=(0, 2)))


# tilescope: args f32[16,16], f32[16]
# expect: ok
@ct.kernel
def reduce_negative_axis(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.max(t, axis=-1, propagate_nan=True))


# tilescope: args f32[32,64], i32[32], i32[32]
# expect: ok
@ct.kernel
def arg_reductions(x, imax, imin):
    t = ct.load(x, index=(0, 0), shape=(32, 64))
    ct.store(imax, index=(0,), tile=ct.argmax(t, axis=1))
    ct.store(imin, index=(0,), tile=ct.argmin(t, axis=1))


# tilescope: args f32[64], i32[1]
# expect: ok
@ct.kernel
def argmax_flat_keepdims(x, out):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(out, index=(0,), tile=ct.argmax(t, keepdims=True))


# tilescope: args f32[32,32], f32[32]
# expect: ok
@ct.kernel
def sum_rounding(x, y):
    t = ct.load(x, index=(0, 0), shape=(32, 32))
    ct.store(y, index=(0,), tile=ct.sum(t, axis=0, rounding_mode=ct.RoundingMode.RN,
                                        flush_to_zero=True))


# tilescope: args f32[16,32], f32[16]
# expect: ok
@ct.kernel
def custom_reduce_lambda(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 32))
    r = ct.reduce(t, axis=1, func=lambda a, b: ct.maximum(a, b) + 0.0, identity=-1e30)
    ct.store(y, index=(0,), tile=r)


def _combine_max_idx(v0, i0, v1, i1):
    take = v1 > v0
    return ct.where(take, v1, v0), ct.where(take, i1, i0)


# tilescope: args f32[8,64], i32[8]
# expect: ok
@ct.kernel
def custom_reduce_tuple(x, out):
    t = ct.load(x, index=(0, 0), shape=(8, 64))
    idx = ct.arange(64, dtype=ct.int32)[None, :]
    vals, inds = ct.reduce((t, idx), axis=1, func=_combine_max_idx, identity=(-3e38, 0))
    ct.store(out, index=(0,), tile=inds)


# tilescope: args f32[16,16], f32[16]
# expect: ok
@ct.kernel
def tile_method_reductions(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.sum(t * t, axis=1) / 16)


# tilescope: args f32[16,16], f32[16]
# expect: TileTypeError @ 114
@ct.kernel
def reduce_axis_out_of_range(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.sum(t, axis=2))


# tilescope: args f32[16,16], f32[16], i32
# expect: TileTypeError @ 122
@ct.kernel
def reduce_dynamic_axis(x, y, ax):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.sum(t, axis=ax))
