# Binary element-wise promotion tables, bitwise/shift rules, in-place casts, rounding options.
# Semantics ported from upstream test_binary_elementwise.py.
import cuda.tile as ct


# tilescope: args f16[4], bf16[4]
# expect: TileTypeError @ 56
# tilescope: args bf16[4], f16[4]
# expect: TileTypeError @ 56
# tilescope: args f16[4], f32[4]
# expect: ok
# tilescope: args bf16[4], f32[4]
# expect: ok
# tilescope: args f32[4], f64[4]
# expect: ok
# tilescope: args i8[4], i16[4]
# expect: ok
# tilescope: args i16[4], i32[4]
# expect: ok
# tilescope: args i32[4], i64[4]
# expect: ok
# tilescope: args u8[4], u16[4]
# expect: ok
# tilescope: args u32[4], u64[4]
# expect: ok
# tilescope: args i8[4], u8[4]
# expect: TileTypeError @ 56
# tilescope: args i32[4], u32[4]
# expect: TileTypeError @ 56
# tilescope: args u8[4], i16[4]
# expect: TileTypeError @ 56
# tilescope: args i64[4], u64[4]
# expect: TileTypeError @ 56
# tilescope: args i32[4], f16[4]
# expect: ok
# tilescope: args i64[4], f32[4]
# expect: ok
# tilescope: args u8[4], bf16[4]
# expect: ok
# tilescope: args b8[4], i32[4]
# expect: ok
# tilescope: args b8[4], f16[4]
# expect: ok
# tilescope: args b8[4], b8[4]
# expect: TileTypeError @ 56
# tilescope: args i16[4], f64[4]
# expect: ok
# tilescope: args f8e4m3fn[4], f16[4]
# expect: TileTypeError @ 56
# tilescope: args f8e5m2[4], f32[4]
# expect: TileTypeError @ 56
@ct.kernel
def add_table(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    print(tx + ty)


# tilescope: args f16[4], bf16[4]
# expect: TileTypeError @ 71
# tilescope: args i8[4], f32[4]
# expect: ok
# tilescope: args u16[4], i32[4]
# expect: TileTypeError @ 71
# tilescope: args f16[4], f64[4]
# expect: ok
@ct.kernel
def mul_function_table(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    print(ct.mul(tx, ty))


# tilescope: args i32[4], i32[4]
# expect: ok
# tilescope: args i8[4], i8[4]
# expect: ok
# tilescope: args i64[4], i32[4]
# expect: ok
# tilescope: args u8[4], u8[4]
# expect: ok
# tilescope: args f16[4], f16[4]
# expect: ok
# tilescope: args bf16[4], f32[4]
# expect: ok
# tilescope: args i32[4], f16[4]
# expect: ok
# tilescope: args f16[4], bf16[4]
# expect: TileTypeError @ 94
@ct.kernel
def truediv_table(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    print(tx / ty)


# tilescope: args i32[4], i32[4]
# expect: ok
# tilescope: args i8[4], i16[4]
# expect: ok
# tilescope: args u32[4], u32[4]
# expect: ok
# tilescope: args f32[4], f32[4]
# expect: ok
# tilescope: args f16[4], f32[4]
# expect: ok
# tilescope: args i32[4], f32[4]
# expect: ok
@ct.kernel
def floordiv_table(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    print(tx // ty)


# tilescope: args i32[4], i64[4]
# expect: ok
# tilescope: args u8[4], u8[4]
# expect: ok
# tilescope: args f32[4], f32[4]
# expect: ok
# tilescope: args f16[4], bf16[4]
# expect: TileTypeError @ 130
# tilescope: args i16[4], f16[4]
# expect: ok
@ct.kernel
def mod_table(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    print(tx % ty)


# upstream-note: upstream 1.7.0 raises TileInternalError for int ** int tiles; tilescope reports a TileTypeError
# tilescope: args f32[4], f32[4]
# expect: ok
# tilescope: args f16[4], f32[4]
# expect: ok
# tilescope: args f16[4], bf16[4]
# expect: TileTypeError @ 152
# tilescope: args f32[4], i32[4]
# expect: ok
# tilescope: args i32[4], i32[4]
# expect: TileInternalError @ 152
# tilescope: args f64[4], i64[4]
# expect: ok
# tilescope: args bf16[4], i8[4]
# expect: ok
@ct.kernel
def pow_table(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    print(tx ** ty)


# upstream-note: upstream 1.7.0 raises TileInternalError for cdiv on floats (user mistake); tilescope reports a TileTypeError
# tilescope: args i32[4], i32[4]
# expect: ok
# tilescope: args i8[4], i64[4]
# expect: ok
# tilescope: args f32[4], f32[4]
# expect: TileInternalError @ 166
@ct.kernel
def cdiv_table(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    print(ct.cdiv(tx, ty))


# tilescope: args i32[4], i32[4]
# expect: ok
# tilescope: args u64[4], u64[4]
# expect: ok
# tilescope: args b8[4], b8[4]
# expect: ok
# tilescope: args i32[4], i64[4]
# expect: TileTypeError @ 191
# tilescope: args i8[4], i16[4]
# expect: TileTypeError @ 191
# tilescope: args u32[4], i32[4]
# expect: TileTypeError @ 191
# tilescope: args f32[4], f32[4]
# expect: TileTypeError @ 191
# tilescope: args i32[4], f32[4]
# expect: TileTypeError @ 191
# tilescope: args b8[4], i32[4]
# expect: TileTypeError @ 191
@ct.kernel
def bitwise_and_table(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    print(tx & ty)


# tilescope: args i16[4], i16[4]
# expect: ok
# tilescope: args i16[4], i8[4]
# expect: TileTypeError @ 204
# tilescope: args f64[4], f64[4]
# expect: TileTypeError @ 204
@ct.kernel
def bitwise_xor_function_table(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    print(ct.bitwise_xor(tx, ty))


# tilescope: args i32[4], i32[4]
# expect: ok
# tilescope: args i8[4], i32[4]
# expect: ok
# tilescope: args i64[4], i16[4]
# expect: ok
# tilescope: args u32[4], u32[4]
# expect: ok
# tilescope: args i32[4], f32[4]
# expect: TileTypeError @ 223
# tilescope: args f32[4], i32[4]
# expect: TileTypeError @ 223
@ct.kernel
def shift_table(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    print(tx << ty)
    print(tx >> ty)


# tilescope: args f16[4], f32[4]
# expect: ok
# tilescope: args i8[4], u8[4]
# expect: TileTypeError @ 241
# tilescope: args f16[4], bf16[4]
# expect: TileTypeError @ 241
# tilescope: args b8[4], b8[4]
# expect: ok
# tilescope: args i32[4], f32[4]
# expect: ok
@ct.kernel
def compare_table(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    print(tx < ty)
    print(tx == ty)


# tilescope: args f16[4], f32[4]
# expect: ok
# tilescope: args i32[4], i64[4]
# expect: ok
# tilescope: args f16[4], bf16[4]
# expect: TileTypeError @ 257
# tilescope: args u8[4], i8[4]
# expect: TileTypeError @ 257
@ct.kernel
def maximum_table(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    print(ct.maximum(tx, ty))
    print(max(tx, ty))


# tilescope: args f32[4], f32[4]
# expect: ok
# tilescope: args f16[4], f32[4]
# expect: ok
# tilescope: args f16[4], bf16[4]
# expect: TileTypeError @ 271
@ct.kernel
def atan2_table(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    print(ct.atan2(tx, ty))


# tilescope: args i32[4]
# expect: ok
# tilescope: args i64[4]
# expect: ok
# tilescope: args u32[4]
# expect: ok
# tilescope: args i8[4]
# expect: ok
@ct.kernel
def tile_and_loose_int_bitwise(x):
    tx = ct.load(x, (0,), (4,))
    print(tx & 5)
    print(tx | 5)
    print(tx ^ 5)


# tilescope: args i32[4]
# expect: ok
# tilescope: args i64[4]
# expect: ok
# tilescope: args u32[4]
# expect: ok
# tilescope: args i16[4]
# expect: ok
@ct.kernel
def tile_and_loose_int_shift(x):
    tx = ct.load(x, (0,), (4,))
    print(tx << 5)
    print(tx >> 5)


# upstream-note: upstream 1.7.0 raises TileInternalError for cdiv on floats (user mistake); tilescope reports a TileTypeError
# tilescope: args i32[4]
# expect: ok
# tilescope: args i8[4]
# expect: ok
# tilescope: args u16[4]
# expect: ok
# tilescope: args f16[4]
# expect: TileInternalError @ 319
@ct.kernel
def tile_and_loose_int_div(x):
    tx = ct.load(x, (0,), (4,))
    print(tx // 23)
    print(tx / 23)
    print(ct.cdiv(tx, 23))


# tilescope: args f16[4]
# expect: ok
# tilescope: args bf16[4]
# expect: ok
# tilescope: args i32[4]
# expect: ok
# tilescope: args f64[4]
# expect: ok
@ct.kernel
def tile_and_loose_float_arith(x):
    tx = ct.load(x, (0,), (4,))
    print(tx + 1.5)
    print(tx ** 2.0)
    print(ct.maximum(tx, 0.5))


# tilescope: args i32[4], f32[4]
# expect: ok
# tilescope: args f32[4], i32[4]
# expect: ok
# tilescope: args f16[4], f32[4]
# expect: ok
# tilescope: args f32[4], f16[4]
# expect: ok
# tilescope: args i8[4], i32[4]
# expect: ok
@ct.kernel
def inplace_mul_casts_back(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    ty *= tx
    print(ty)


# tilescope: args i32[4]
# expect: ok
# tilescope: args i8[4]
# expect: ok
# tilescope: args f16[4]
# expect: ok
@ct.kernel
def inplace_scalar(x):
    tx = ct.load(x, (0,), (4,))
    tx *= 3
    print(tx)


# tilescope: args i32[4]
# expect: ok
# tilescope: args f32[4]
# expect: ok
@ct.kernel
def inplace_loose_float_into_int(x):
    tx = ct.load(x, (0,), (4,))
    tx *= 3.0
    print(tx)


# tilescope: args i32[4], i32[4]
# expect: ok
# tilescope: args i32[4], i64[4]
# expect: ok
# tilescope: args f32[4], f32[4]
# expect: TileTypeError @ 390
@ct.kernel
def divmod_tiles(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    q, r = divmod(tx, ty)
    print(q, r)


# tilescope: args i16[4], i16[4]
# expect: ok
# tilescope: args f16[4], f16[4]
# expect: TileTypeError @ 402
@ct.kernel
def ct_divmod_tiles(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    q, r = ct.divmod(tx, ty)
    print(q, r)


# tilescope: args f32[4], f32[4]
# expect: ok
# tilescope: args f16[4], f16[4]
# expect: ok
# tilescope: args i32[4], i32[4]
# expect: TileTypeError @ 418
# tilescope: args f8e4m3fn[4], f8e4m3fn[4]
# expect: TileTypeError @ 418
@ct.kernel
def add_rounding_mode(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    print(ct.add(tx, ty, rounding_mode=ct.RoundingMode.RZ))


# tilescope: args f32[4], f32[4]
# expect: TileTypeError @ 427
@ct.kernel
def add_rounding_mode_approx(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    print(ct.add(tx, ty, rounding_mode=ct.RoundingMode.APPROX))


# tilescope: args f32[4], f32[4]
# expect: ok
# tilescope: args f16[4], f16[4]
# expect: TileTypeError @ 440
# tilescope: args f64[4], f64[4]
# expect: TileTypeError @ 440
@ct.kernel
def truediv_rounding_modes(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    print(ct.truediv(tx, ty, rounding_mode=ct.RoundingMode.APPROX))
    print(ct.truediv(tx, ty, rounding_mode=ct.RoundingMode.FULL))


# tilescope: args f32[4], f32[4]
# expect: ok
# tilescope: args f16[4], f16[4]
# expect: TileTypeError @ 454
# tilescope: args i32[4], i32[4]
# expect: TileTypeError @ 454
@ct.kernel
def mul_flush_to_zero(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    print(ct.mul(tx, ty, flush_to_zero=True))


# tilescope: args f32[4], f32[4]
# expect: ok
# tilescope: args bf16[4], bf16[4]
# expect: TileTypeError @ 465
@ct.kernel
def minimum_flush_to_zero(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    print(ct.minimum(tx, ty, flush_to_zero=True))


# tilescope: args f32[4], f32[4]
# expect: ok
# tilescope: args i32[4], i32[4]
# expect: ok
@ct.kernel
def maximum_propagate_nan(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    print(ct.maximum(tx, ty, propagate_nan=True))


# tilescope: args f32[4], f32[4]
# expect: ok
@ct.kernel
def is_operator_on_tiles(x, y):
    tx = ct.load(x, (0,), (4,))
    ty = ct.load(y, (0,), (4,))
    print(tx is None)
    print(ty is not None)


# tilescope: args f32[4,8], f32[4,8]
# expect: ok
# tilescope: args f16[4,8], f32[4,8]
# expect: ok
@ct.kernel
def broadcast_shapes(x, y):
    a = ct.load(x, (0, 0), (4, 1))
    b = ct.load(y, (0, 0), (1, 8))
    print(a + b)
    print(ct.load(x, (0, 0), (4, 8)) * b)


# upstream-note: upstream 1.7.0 raises TileInternalError for non-broadcastable shapes; tilescope reports a TileTypeError
# tilescope: args f32[4,8], f32[4,8]
# expect: TileInternalError @ 508
@ct.kernel
def broadcast_incompatible(x, y):
    a = ct.load(x, (0, 0), (4, 2))
    b = ct.load(y, (0, 0), (1, 8))
    print(a + b)


# tilescope: args i32[4], i32
# expect: ok
# tilescope: args i64[4], i32
# expect: TileTypeError @ 520
# tilescope: args u32[4], i32
# expect: TileTypeError @ 520
@ct.kernel
def tile_and_runtime_int_bitwise(x, y):
    tx = ct.load(x, (0,), (4,))
    print(tx & y)


# tilescope: args i32[4], i32
# expect: ok
# tilescope: args i64[4], i32
# expect: ok
# tilescope: args u32[4], i32
# expect: TileTypeError @ 532
@ct.kernel
def tile_and_runtime_int_shift(x, y):
    tx = ct.load(x, (0,), (4,))
    print(tx << y)


# tilescope: args i32[4], f32
# expect: ok
# tilescope: args f16[4], f32
# expect: ok
# tilescope: args f16[4], f64
# expect: ok
# tilescope: args i8[4], i64
# expect: ok
@ct.kernel
def tile_and_runtime_scalar_arith(x, y):
    tx = ct.load(x, (0,), (4,))
    print(tx + y)
