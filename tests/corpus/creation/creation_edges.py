import cuda.tile as ct


# tilescope: args i32[64], f32[64]
# expect: ok
@ct.kernel
def arange_step_float(x, y):
    ct.store(y, index=(0,), tile=ct.arange(64, dtype=ct.float32, start=0.5, step=0.25))


# tilescope: args i32[64], bool[64]
# expect: ok
@ct.kernel
def arange_bool(x, y):
    ct.store(y, index=(0,), tile=ct.arange(64, dtype=ct.bool_))


# tilescope: args i32[64], bool[64]
# expect: TileTypeError @ 22
@ct.kernel
def arange_bool_step(x, y):
    ct.store(y, index=(0,), tile=ct.arange(64, dtype=ct.bool_, step=2))


# tilescope: args i32[64], f8e4m3fn[64]
# expect: ok
@ct.kernel
def arange_fp8(x, y):
    ct.store(y, index=(0,), tile=ct.arange(64, dtype=ct.float8_e4m3fn))


# tilescope: args i32[64], i32
# expect: ok
@ct.kernel
def arange_rt_start(x, s):
    ct.store(x, index=(0,), tile=ct.arange(64, dtype=ct.int32, start=s, step=s))


# tilescope: args i8[64], f32
# expect: ok
@ct.kernel
def arange_rt_float_start(x, s):
    ct.store(x, index=(0,), tile=ct.arange(64, dtype=ct.int8, start=s))


# tilescope: args i8[64], i32
# expect: ok
@ct.kernel
def arange_big_step(x, s):
    ct.store(x, index=(0,), tile=ct.arange(64, dtype=ct.int8, step=1000))


# tilescope: args i32[64], i32
# expect: TileTypeError @ 57
@ct.kernel
def arange_bool_size(x, s):
    ct.store(x, index=(0,), tile=ct.arange(True, dtype=ct.int32))


# tilescope: args i32[64], i32
# expect: ok
@ct.kernel
def full_float_in_int(x, s):
    ct.store(x, index=(0,), tile=ct.full(64, 1.5, ct.int32))


# tilescope: args i32[64], i32
# expect: ok
@ct.kernel
def full_empty_shape(x, s):
    ct.store(x, index=(0,), tile=ct.full((), 3, ct.int32))


# tilescope: args i32[64], i32
# expect: TileTypeError @ 78
@ct.kernel
def full_zero_dim(x, s):
    ct.store(x, index=(0,), tile=ct.full((0,), 3, ct.int32))


# tilescope: args i32[64], i32[64]
# expect: TileTypeError @ 86
@ct.kernel
def full_tile_fill(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.full((64,), a, ct.int32))


# tilescope: args f8e4m3fn[64], f32
# expect: ok
@ct.kernel
def full_fp8(x, s):
    ct.store(x, index=(0,), tile=ct.full((64,), s, ct.float8_e4m3fn))


# tilescope: args f32[64], f32
# expect: TileTypeError @ 100
@ct.kernel
def ones_runtime_shape(x, s):
    ct.store(x, index=(0,), tile=ct.ones((x.shape[0],), ct.float32))


# tilescope: args i32[4], i32
# expect: ok
@ct.kernel
def astile_mixed(x, s):
    ct.store(x, index=(0,), tile=ct.astile((1, s, 2.5, True), dtype=ct.int32))


# tilescope: args i32[4], i32
# expect: TileTypeError @ 114
@ct.kernel
def astile_len3(x, s):
    ct.store(x, index=(0,), tile=ct.astile((1, 2, 3), dtype=ct.int32))


# tilescope: args i32[4], i32
# expect: TileTypeError @ 121
@ct.kernel
def astile_empty(x, s):
    ct.store(x, index=(0,), tile=ct.astile((), dtype=ct.int32))


# tilescope: args i32[4], i32[4]
# expect: TileTypeError @ 129
@ct.kernel
def astile_tile_elem(x, y):
    a = ct.load(x, index=(0,), shape=(4,))
    ct.store(x, index=(0,), tile=ct.astile((a, a), dtype=ct.int32))


# tilescope: args i32[4], i32[4]
# expect: TileTypeError @ 137
@ct.kernel
def astile_tile(x, y):
    a = ct.load(x, index=(0,), shape=(4,))
    ct.store(x, index=(0,), tile=ct.astile(a, dtype=ct.int32))


# tilescope: args i32[2,2], i32[4]
# expect: TileTypeError @ 144
@ct.kernel
def astile_inner_bad(x, y):
    ct.store(x, index=(0, 0), tile=ct.astile(((1, 2), (3, (4, 5))), dtype=ct.int32))


# tilescope: args f32[2], i32[4]
# expect: ok
@ct.kernel
def astile_float_vals(x, y):
    ct.store(x, index=(0,), tile=ct.astile((1, 2), dtype=ct.float32))


# tilescope: args i32[1], i32
# expect: ok
@ct.kernel
def astile_scalar_const(x, y):
    ct.store(x, index=(0,), tile=ct.astile(5, dtype=ct.int8))


# tilescope: args f32[4], f32
# expect: ok
@ct.kernel
def astile_bool_dtype(x, s):
    t = ct.astile((s, 0.0, 1.0, s), dtype=ct.bool_)
    ct.store(x, index=(0,), tile=t.astype(ct.float32))


# tilescope: args f32[4], f32
# expect: TileTypeError @ 173
@ct.kernel
def full_bad_dtype(x, s):
    ct.store(x, index=(0,), tile=ct.full((4,), s, 3))


# tilescope: args f32[4], f32
# expect: TileTypeError @ 180
@ct.kernel
def full_none(x, s):
    ct.store(x, index=(0,), tile=ct.full((4,), None, ct.float32))


# tilescope: args i32[64], i32
# expect: TileTypeError @ 187
@ct.kernel
def arange_neg(x, s):
    ct.store(x, index=(0,), tile=ct.arange(-4, dtype=ct.int32))
