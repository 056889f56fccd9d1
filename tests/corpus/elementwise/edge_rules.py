import cuda.tile as ct


# tilescope: args f8e4m3fn[64], f8e4m3fn[64]
# expect: ok
# upstream-note: unary math keeps restricted floats (no non-arithmetic check, unlike binary arithmetic)
@ct.kernel
def exp_fp8(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.exp(a))


# tilescope: args f8e4m3fn[64], f8e4m3fn[64]
# expect: ok
@ct.kernel
def neg_fp8(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=-a)


# tilescope: args f8e4m3fn[64], bool[64]
# expect: ok
@ct.kernel
def cmp_fp8(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=a < a)


# tilescope: args f8e4m3fn[64], f8e4m3fn[64]
# expect: TileTypeError @ 35
# upstream-note: mod itself has no dtype check; the error comes from the sign-correction add it expands to
@ct.kernel
def mod_fp8(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=a % a)


# tilescope: args f8e4m3fn[64], bool[64]
# expect: ok
@ct.kernel
def isnan_fp8(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.isnan(a))


# tilescope: args f32[64], f32[64]
# expect: TileInternalError @ 52
# upstream-note: type-checks, then fails in TileIR lowering (no float cdiv) as TileInternalError
@ct.kernel
def cdiv_float(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.cdiv(a, a))


# tilescope: args i32[64], i32[64]
# expect: TileInternalError @ 61
# upstream-note: type-checks, then fails in TileIR lowering (no integer atan2) as TileInternalError
@ct.kernel
def atan2_int(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.atan2(a, a))


# tilescope: args i32[64], i32[64]
# expect: TileTypeError @ 69
@ct.kernel
def floor_int(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.floor(a))


# tilescope: args bool[64], i32[64]
# expect: ok
@ct.kernel
def neg_bool(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=-a)


# tilescope: args bool[64], i32[64]
# expect: ok
@ct.kernel
def pos_bool(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=+a)


# tilescope: args i32[64], bool[64]
# expect: ok
# upstream-note: `not` on a tile is element-wise (astype bool + invert), not a truth-value test
@ct.kernel
def not_tile(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=not a)


# tilescope: args f32[64], f32[64]
# expect: TileTypeError @ 102
@ct.kernel
def invert_float(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=~a)


# tilescope: args f16[64], f16[64]
# expect: TileTypeError @ 110
@ct.kernel
def exp_approx_f16(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.exp(a, rounding_mode=ct.RoundingMode.APPROX))


# tilescope: args f32[64], f32[64]
# expect: TileTypeError @ 118
@ct.kernel
def exp_rn(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.exp(a, rounding_mode=ct.RoundingMode.RN))


# tilescope: args f16[64], f16[64]
# expect: TileTypeError @ 126
@ct.kernel
def sqrt_ftz_f16(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.sqrt(a, flush_to_zero=True))


# tilescope: args f32[64], f32[64]
# expect: TileTypeError @ 134
@ct.kernel
def add_approx(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.add(a, a, rounding_mode=ct.RoundingMode.APPROX))


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def sqrt_const(x, y):
    ct.store(y, index=(0,), tile=ct.full((64,), ct.sqrt(4) + ct.exp(0), ct.float32))


# tilescope: args f32[64], f32[64]
# expect: TileValueError @ 148
@ct.kernel
def log_const_zero(x, y):
    ct.store(y, index=(0,), tile=ct.full((64,), ct.log(0), ct.float32))


# tilescope: args f32[64], f32[64]
# expect: TileTypeError @ 156
@ct.kernel
def isnan_int(x, y):
    a = ct.arange(64, dtype=ct.int32)
    ct.store(y, index=(0,), tile=ct.isnan(a).astype(ct.float32))


# tilescope: args i32[64], i64[64], i64[64]
# expect: TileTypeError @ 166
# upstream-note: bitwise and/or/xor do not promote two typed operands, while shifts do (shift_mixed)
@ct.kernel
def bitand_mixed(x, y, z):
    a = ct.load(x, index=(0,), shape=(64,))
    b = ct.load(y, index=(0,), shape=(64,))
    ct.store(z, index=(0,), tile=a & b)


# tilescope: args i32[64], i64[64], i64[64]
# expect: ok
@ct.kernel
def shift_mixed(x, y, z):
    a = ct.load(x, index=(0,), shape=(64,))
    b = ct.load(y, index=(0,), shape=(64,))
    ct.store(z, index=(0,), tile=a << b)


# tilescope: args bool[64], i32[64]
# expect: TileTypeError @ 183
@ct.kernel
def shift_bool(x, z):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(z, index=(0,), tile=a << 1)


# tilescope: args i8[64], i8[64]
# expect: TileTypeError @ 192
# upstream-note: only the {bool, int8} pair is rejected when a loose constant meets a typed operand
@ct.kernel
def and_i8_true(x, z):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(z, index=(0,), tile=a & True)


# tilescope: args bool[64], i32[64]
# expect: ok
@ct.kernel
def and_bool_int(x, z):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(z, index=(0,), tile=a & 1)


# tilescope: args u8[64], u8[64]
# expect: TileValueError @ 208
@ct.kernel
def and_u8_big(x, z):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(z, index=(0,), tile=a & 300)


# tilescope: args i32[64], i32[64]
# expect: ok
# upstream-note: ct.bitwise_not(True) folds to False, while ~True is an error (invert_true_const)
@ct.kernel
def bitnot_const(x, z):
    ct.store(z, index=(0,), tile=ct.full((64,), ct.bitwise_not(5) + ct.bitwise_not(True), ct.int32))


# tilescope: args i32[64], i32[64]
# expect: TileTypeError @ 223
@ct.kernel
def invert_true_const(x, z):
    ct.store(z, index=(0,), tile=ct.full((64,), ~True, ct.int32))


# tilescope: args f32[64], f32[64]
# expect: ok
# upstream-note: a non-bool condition is converted to bool (x != 0), floats included
@ct.kernel
def where_float_cond(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.where(a, a, 1.0))


# tilescope: args f32[16,16], i32[16], f32[16,16]
# expect: ok
@ct.kernel
def where_bcast(x, c, y):
    a = ct.load(x, index=(0, 0), shape=(16, 16))
    m = ct.load(c, index=(0,), shape=(16,))
    ct.store(y, index=(0, 0), tile=ct.where(m[:, None] > 0, a, 0))


# tilescope: args i8[64], f32[64]
# expect: ok
@ct.kernel
def where_loose_both(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.where(a > 0, 1, 2.0))


# tilescope: args i8[64], i8[64]
# expect: TileValueError @ 257
@ct.kernel
def where_i8_big(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.where(a > 0, a, 1000))


# tilescope: args f16[64], bf16[64]
# expect: TileTypeError @ 266
@ct.kernel
def where_f16_bf16(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    b = ct.load(y, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.where(a > 0, a, b))


# tilescope: args f32[64], bool[64]
# expect: TileTypeError @ 274
@ct.kernel
def bitcast_to_bool(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.bitcast(a.astype(ct.uint8), ct.bool_))


# tilescope: args f32[64], tf32[64]
# expect: ok
@ct.kernel
def bitcast_tf32(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.bitcast(a, ct.tfloat32))


# tilescope: args i32[64], i32[64]
# expect: ok
@ct.kernel
def bitcast_loose(x, y):
    ct.store(y, index=(0,), tile=ct.full((64,), ct.bitcast(1.0, ct.int32), ct.int32))


# tilescope: args i32[64], f32[64]
# expect: TileTypeError @ 297
@ct.kernel
def astype_rm_int(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.astype(a, ct.float32, rounding_mode=ct.RoundingMode.RN))


# tilescope: args f32[64], f8e8m0fnu[64]
# expect: TileTypeError @ 305
@ct.kernel
def astype_e8m0(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.astype(a, ct.float8_e8m0fnu))


# tilescope: args f32[64], f8e8m0fnu[64]
# expect: ok
@ct.kernel
def astype_e8m0_rz(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.astype(a, ct.float8_e8m0fnu, rounding_mode=ct.RoundingMode.RZ))


# tilescope: args f32[64], f16[64]
# expect: ok
# upstream-note: rounding_mode may be given as a member-name string
@ct.kernel
def astype_rn_explicit(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.astype(a, ct.float16, rounding_mode="RN"))


# tilescope: args f32[64], f16[64]
# expect: TileTypeError @ 330
@ct.kernel
def astype_approx(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.astype(a, ct.float16, rounding_mode=ct.RoundingMode.APPROX))


# tilescope: args f64[64], f16[64]
# expect: TileTypeError @ 338
@ct.kernel
def astype_f64_f16_rm(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=a.astype(ct.float16, rounding_mode=ct.RoundingMode.RM))


# tilescope: args f64[64], f8e8m0fnu[64]
# expect: TileUnsupportedFeatureError @ 346
@ct.kernel
def astype_f64_e8m0_rp(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=a.astype(ct.float8_e8m0fnu, rounding_mode=ct.RoundingMode.RP))


# tilescope: args i32[64], i32
# expect: ok
@ct.kernel
def divmod_loose(x, s):
    q, r = ct.divmod(7, 2)
    ct.store(x, index=(0,), tile=ct.full((64,), q + r, ct.int32))


# tilescope: args f32[64], f32[64]
# expect: TileTypeError @ 362
@ct.kernel
def divmod_float(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    q, r = ct.divmod(a, a)
    ct.store(y, index=(0,), tile=q + r)


# tilescope: args i32[64], i32[64]
# expect: ok
@ct.kernel
def divmod_builtin(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    q, r = divmod(a, 3)
    ct.store(y, index=(0,), tile=q + r)


# tilescope: args i32[64], i32[64]
# expect: ok
@ct.kernel
def cdiv_loose_float(x, y):
    ct.store(y, index=(0,), tile=ct.full((64,), ct.cdiv(7.0, 2), ct.int32))


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def pow_float_int(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    b = ct.arange(64, dtype=ct.int32)
    ct.store(y, index=(0,), tile=a ** b)


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def maximum_loose(x, y):
    ct.store(y, index=(0,), tile=ct.full((64,), ct.maximum(1, 2.5), ct.float32))


# tilescope: args i32, i32[1]
# expect: ok
@ct.kernel
def not_scalar(n, y):
    ct.store(y, index=(0,), tile=(not n) + 0)


# tilescope: args bool[64], bool[64]
# expect: ok
@ct.kernel
def abs_bool(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=abs(a))


# tilescope: args i32[64], i32[64]
# expect: ok
@ct.kernel
def max_int_nan(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.maximum(a, 3, propagate_nan=True))


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def add_rm_string(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.add(a, a, rounding_mode="RZ"))


# tilescope: args f32[64], f32[64]
# expect: TileValueError @ 435
# upstream-note: constant folding of typed float constants raises on division by zero
@ct.kernel
def truediv_const_zero(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    c = ct.float32(1.0) / ct.float32(0.0)
    ct.store(y, index=(0,), tile=a + c)


# tilescope: args i32[64], i32[64]
# expect: TileValueError @ 444
@ct.kernel
def floordiv_typed_zero(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    c = ct.int32(1) // 0
    ct.store(y, index=(0,), tile=a + c)


# tilescope: args f32[64], f32[64]
# expect: TileValueError @ 453
@ct.kernel
def sqrt_neg_const(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=a + ct.sqrt(ct.float32(-1.0)))


# tilescope: args u32[64], u32[64]
# expect: TileTypeError @ 461
@ct.kernel
def shift_u32_i32(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=a >> ct.arange(64, dtype=ct.int32))


# tilescope: args i8[64], bool[64]
# expect: TileValueError @ 469
@ct.kernel
def cmp_out_of_range(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=a < 1000)


# tilescope: args i32[64], f32[64]
# expect: ok
@ct.kernel
def exp_int_approx(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.exp(a, rounding_mode=ct.RoundingMode.APPROX))


# tilescope: args f32[64], f32[64]
# expect: TileTypeError @ 485
@ct.kernel
def exp_rm_runtime(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.exp2(a, flush_to_zero=1))


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def sin_loose(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=a + ct.sin(1) + ct.rsqrt(4) + ct.abs(-3))


# tilescope: args f32[64,1], f32[64,1]
# expect: TileInternalError @ 502
# upstream-note: a tile dimension of 2**31 or more type-checks upstream, then fails encoding it as an int32 ("int too big to convert"); tilescope rejects it as a TileValueError
@ct.kernel
def tile_dim_past_int32(x, y):
    pid = ct.bid(0)
    t = ct.load(x, index=(pid, 0), shape=(2**31, 1))
    ct.store(y, index=(pid, 0), tile=t)


# tilescope: args f32[64], f32[64]
# expect: TileInternalError @ 511
# upstream-note: as above, for a creation shape
@ct.kernel
def full_dim_2_40(x, y):
    ct.store(y, index=(0,), tile=ct.full((2**40,), 1.0, dtype=ct.float32))
