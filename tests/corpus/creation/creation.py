import cuda.tile as ct


# tilescope: args i32[128]
# expect: ok
# tilescope: args i64[128]
# expect: ok
# tilescope: args f32[128]
# expect: ok
@ct.kernel
def arange_basic(out):
    t = ct.arange(128, dtype=out.dtype)
    ct.store(out, index=(0,), tile=t)


# tilescope: args i32[64]
# expect: ok
@ct.kernel
def arange_start_step(out):
    t = ct.arange(64, dtype=ct.int32, start=10, step=3)
    ct.store(out, index=(0,), tile=t)


# tilescope: args f32[16,32], f32
# expect: ok
# tilescope: args f16[16,32], f16
# expect: ok
@ct.kernel
def full_runtime_value(out, v):
    t = ct.full((16, 32), v, dtype=out.dtype)
    ct.store(out, index=(0, 0), tile=t)


# tilescope: args bf16[8,8]
# expect: ok
# tilescope: args u8[8,8]
# expect: ok
@ct.kernel
def zeros_ones(out):
    z = ct.zeros((8, 8), dtype=out.dtype)
    o = ct.ones((8, 8), dtype=out.dtype)
    ct.store(out, index=(0, 0), tile=z + o)


# tilescope: args i32[4]
# expect: ok
@ct.kernel
def full_scalar_shape(out):
    # shape may be a bare int
    t = ct.full(4, 7, dtype=ct.int32)
    ct.store(out, index=(0,), tile=t)


# tilescope: args i32[2,2]
# expect: ok
@ct.kernel
def astile_nested(out):
    t = ct.astile(((1, 2), (3, 4)), dtype=ct.int32)
    ct.store(out, index=(0, 0), tile=t)


# tilescope: args f32[1], f32
# expect: ok
@ct.kernel
def astile_scalar(out, x):
    t = ct.astile(x * 2, dtype=ct.float32)
    ct.store(out, index=(0,), tile=t)


# tilescope: args f32[4], f32, f32
# expect: ok
@ct.kernel
def astile_runtime_tuple(out, a, b):
    t = ct.astile((a, b, a + b, a - b), dtype=ct.float32)
    ct.store(out, index=(0,), tile=t)


# tilescope: args bool[16]
# expect: ok
@ct.kernel
def full_bool(out):
    t = ct.full((16,), True, dtype=ct.bool_)
    ct.store(out, index=(0,), tile=t)


# tilescope: args f32[64]
# expect: ok
@ct.kernel
def arange_float_cast(out):
    t = ct.arange(64, dtype=ct.int32).astype(ct.float32) * 0.5
    ct.store(out, index=(0,), tile=t)


# tilescope: args i32[48]
# expect: TileTypeError @ 99
# expect-match: power of 2
@ct.kernel
def arange_non_pow2(out):
    t = ct.arange(48, dtype=ct.int32)
    ct.store(out, index=(0,), tile=t)


# tilescope: args f32[3,4]
# expect: TileTypeError @ 108
# expect-match: not a power of two
@ct.kernel
def full_non_pow2(out):
    t = ct.full((3, 4), 1.0, dtype=ct.float32)
    ct.store(out, index=(0, 0), tile=t)


# tilescope: args i32[4]
# expect: TileTypeError @ 116
@ct.kernel
def astile_ragged(out):
    t = ct.astile(((1, 2), (3,)), dtype=ct.int32)
    ct.store(out, index=(0,), tile=t)


# tilescope: args i8[16]
# expect: ok
# upstream-note: full() silently accepts a fill value (300) outside the range of the dtype (int8), while the same literal in a binary op raises TileValueError
@ct.kernel
def full_literal_out_of_range_accepted(out):
    t = ct.full((16,), 300, dtype=ct.int8)
    ct.store(out, index=(0,), tile=t)


# tilescope: args i32[16], i32
# expect: TileTypeError @ 133
@ct.kernel
def arange_dynamic_size(out, n):
    t = ct.arange(n, dtype=ct.int32)
    ct.store(out, index=(0,), tile=t)
