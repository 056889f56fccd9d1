import cuda.tile as ct


# tilescope: args f32[64], f32[64], f32[64]
# expect: ok
@ct.kernel
def where_tiles(x, y, z):
    a = ct.load(x, index=(0,), shape=(64,))
    b = ct.load(y, index=(0,), shape=(64,))
    ct.store(z, index=(0,), tile=ct.where(a > b, a, b))


# tilescope: args f16[64], f16[64]
# expect: ok
@ct.kernel
def where_scalar_branches(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.where(a > 0, a, 0))


# tilescope: args f32[64], f16[64]
# expect: ok
# tilescope: args f32[64], bf16[64]
# expect: ok
# tilescope: args f32[64], i32[64]
# expect: ok
# tilescope: args f32[64], u8[64]
# expect: ok
# tilescope: args f32[64], f8e4m3fn[64]
# expect: ok
# tilescope: args f32[64], f8e5m2[64]
# expect: ok
@ct.kernel
def astype_to_out(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.astype(a, y.dtype))


# tilescope: args f32[64], f16[64]
# expect: TileUnsupportedFeatureError @ 46
# expect-match: require tileiras 13.4
# upstream-note: the error location's innermost frame is upstream's own _stub.py (Tile.astype body), the corpus line is the call site
@ct.kernel
def astype_method_rounding(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=a.astype(ct.float16, rounding_mode=ct.RoundingMode.RZ))


# tilescope: args f32[64], i32[64]
# expect: ok
@ct.kernel
def bitcast_f32_i32(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.bitcast(a, ct.int32))


# tilescope: args f16[64], i16[64]
# expect: ok
@ct.kernel
def bitcast_f16_i16(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.bitcast(a, ct.int16))


# tilescope: args f16[64], f32[64], f32[64]
# expect: ok
@ct.kernel
def promotion_f16_f32(x, y, z):
    a = ct.load(x, index=(0,), shape=(64,))
    b = ct.load(y, index=(0,), shape=(64,))
    ct.store(z, index=(0,), tile=a + b)


# tilescope: args i8[64], i32[64], i32[64]
# expect: ok
@ct.kernel
def promotion_i8_i32(x, y, z):
    a = ct.load(x, index=(0,), shape=(64,))
    b = ct.load(y, index=(0,), shape=(64,))
    ct.store(z, index=(0,), tile=a * b)


# tilescope: args i32[64], f32[64], f32[64]
# expect: ok
@ct.kernel
def promotion_int_float(x, y, z):
    a = ct.load(x, index=(0,), shape=(64,))
    b = ct.load(y, index=(0,), shape=(64,))
    ct.store(z, index=(0,), tile=a + b)


# tilescope: args f16[64], f16[64]
# expect: ok
# tilescope: args bf16[64], bf16[64]
# expect: ok
# tilescope: args i8[64], i8[64]
# expect: ok
@ct.kernel
def loose_constants_keep_dtype(x, y):
    # Python int/float literals adopt the tile's dtype
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=a * 2 + 1)


# tilescope: args i32[64], f32[64]
# expect: ok
@ct.kernel
def loose_float_with_int_tile(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=a * 0.5)


# tilescope: args f32[64], f64
# expect: ok
@ct.kernel
def runtime_scalar_f64_with_f32_tile(x, s):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(x, index=(0,), tile=(a * s).astype(ct.float32))


# tilescope: args i16[64], i16[64]
# expect: TileValueError @ 126
@ct.kernel
def loose_constant_out_of_range(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=a + 100000)


# tilescope: args i32[64], u32[64], i32[64]
# expect: TileTypeError @ 135
@ct.kernel
def signed_times_unsigned(x, y, z):
    a = ct.load(x, index=(0,), shape=(64,))
    b = ct.load(y, index=(0,), shape=(64,))
    ct.store(z, index=(0,), tile=a * b)


# tilescope: args f16[64], bf16[64], f32[64]
# expect: TileTypeError @ 144
@ct.kernel
def f16_plus_bf16(x, y, z):
    a = ct.load(x, index=(0,), shape=(64,))
    b = ct.load(y, index=(0,), shape=(64,))
    ct.store(z, index=(0,), tile=a + b)


# tilescope: args f32[64], f32[64]
# expect: TileTypeError @ 152
@ct.kernel
def bitwise_on_float(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=a & a)


# tilescope: args f32[64], i16[64]
# expect: TileTypeError @ 160
@ct.kernel
def bitcast_width_mismatch(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.bitcast(a, ct.int16))


# tilescope: args f32[64], f32[32], f32[64]
# expect: TileInternalError @ 171
# expect-match: not broadcastable
# upstream-note: non-broadcastable operand shapes raise TileInternalError instead of a TileTypeError
@ct.kernel
def shape_mismatch_binop(x, y, z):
    a = ct.load(x, index=(0,), shape=(64,))
    b = ct.load(y, index=(0,), shape=(32,))
    ct.store(z, index=(0,), tile=a + b)


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def sqrt_of_int_promotes(x, y):
    a = ct.arange(64, dtype=ct.int32)
    ct.store(y, index=(0,), tile=ct.sqrt(a))


# tilescope: args i32[64], i32[64]
# expect: ok
@ct.kernel
def where_int_cond_accepted(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.where(a, a, 0))


# tilescope: args f32[64], f16[64]
# expect: ok
@ct.kernel
def astype_function_rounding(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.astype(a, ct.float16, rounding_mode=ct.RoundingMode.RN))
