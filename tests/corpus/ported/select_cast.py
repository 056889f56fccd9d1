# ct.where selection typing and astype/bitcast conversions.
# Semantics ported from upstream test_select.py and test_cast.py.
import cuda.tile as ct


# tilescope: args b8[128], f32[128], f32[128]
# expect: ok
# tilescope: args b8[128], f16[128], f16[128]
# expect: ok
# tilescope: args b8[128], f16[128], f32[128]
# expect: ok
# tilescope: args b8[128], f16[128], bf16[128]
# expect: TileTypeError @ 23
# tilescope: args i32[128], f32[128], f32[128]
# expect: ok
# tilescope: args b8[128], i32[128], f32[128]
# expect: ok
@ct.kernel
def where_tiles(mask, x, y):
    tm = ct.load(mask, index=(0,), shape=(128,))
    tx = ct.load(x, index=(0,), shape=(128,))
    ty = ct.load(y, index=(0,), shape=(128,))
    print(ct.where(tm, tx, ty))


# tilescope: args b8[128]
# expect: ok
@ct.kernel
def where_two_loose_floats(mask):
    tm = ct.load(mask, index=(0,), shape=(128,))
    print(ct.where(tm, 1.0, -1.0))


# tilescope: args b8[128]
# expect: ok
@ct.kernel
def where_two_loose_ints(mask):
    tm = ct.load(mask, index=(0,), shape=(128,))
    print(ct.where(tm, 1, 0))


# tilescope: args b8[1,1], f16[128,128]
# expect: ok
# tilescope: args b8[128,128], f16[1,128]
# expect: ok
# tilescope: args b8[128,1], bf16[1,128]
# expect: ok
@ct.kernel
def where_tile_and_loose_scalar(mask, x):
    tm = ct.load(mask, index=(0, 0), shape=mask.shape if False else (1, 1))
    tx = ct.load(x, index=(0, 0), shape=(128, 128))
    print(ct.where(tm, tx, 0.))


# tilescope: args b8[4,1], f32[1,8]
# expect: ok
@ct.kernel
def where_broadcasts_mask(mask, x):
    tm = ct.load(mask, index=(0, 0), shape=(4, 1))
    tx = ct.load(x, index=(0, 0), shape=(1, 8))
    print(ct.where(tm, tx, tx * 2))


# upstream-note: upstream 1.7.0 raises TileInternalError for non-broadcastable where() operands; tilescope reports a TileTypeError
# tilescope: args b8[4], f32[8]
# expect: TileInternalError @ 71
@ct.kernel
def where_incompatible_shapes(mask, x):
    tm = ct.load(mask, index=(0,), shape=(4,))
    tx = ct.load(x, index=(0,), shape=(8,))
    print(ct.where(tm, tx, tx))


# tilescope: args f32[4]
# expect: ok
# tilescope: args i8[4]
# expect: ok
# tilescope: args b8[4]
# expect: ok
# tilescope: args f8e4m3fn[4]
# expect: ok
@ct.kernel
def astype_method_and_function(x):
    t = ct.load(x, (0,), (4,))
    print(t.astype(ct.float16), ct.astype(t, ct.int64), t.astype(ct.bool_))


# tilescope: args f64[4]
# expect: TileUnsupportedFeatureError @ 95
# tilescope: args f32[4]
# expect: ok
@ct.kernel
def astype_float_rounding_mode(x):
    t = ct.load(x, (0,), (4,))
    print(ct.astype(t, ct.float32, rounding_mode=ct.RoundingMode.RZ))


# tilescope: args i32[4]
# expect: TileTypeError @ 104
# expect-match: rounding_mode is only valid for float
@ct.kernel
def astype_int_rounding_mode(x):
    t = ct.load(x, (0,), (4,))
    print(ct.astype(t, ct.float32, rounding_mode=ct.RoundingMode.RN))


# tilescope: args f8e8m0fnu[4]
# expect: TileUnsupportedFeatureError @ 112
@ct.kernel
def astype_from_e8m0_rounding_mode(x):
    t = ct.load(x, (0,), (4,))
    print(ct.astype(t, ct.float32, rounding_mode=ct.RoundingMode.RZ))


# tilescope: args f32[4]
# expect: ok
# tilescope: args f16[4]
# expect: ok
@ct.kernel
def astype_to_tf32(x):
    t = ct.load(x, (0,), (4,))
    print(t.astype(ct.tfloat32).astype(ct.float32))


# tilescope: args f32[4]
# expect: ok
# tilescope: args i32[4]
# expect: ok
# tilescope: args f16[4]
# expect: TileTypeError @ 136
# tilescope: args i64[4]
# expect: TileTypeError @ 136
@ct.kernel
def bitcast_same_width(x):
    t = ct.load(x, (0,), (4,))
    print(ct.bitcast(t, ct.uint32))


# tilescope: args b8[4]
# expect: ok
@ct.kernel
def bool_to_float(x):
    print(ct.load(x, (0,), (4,)).astype(ct.float32))


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def astype_scalar_values(x):
    a = ct.astype(ct.bid(0), ct.float16)
    b = ct.astype(3, ct.int8)
    c = ct.astype(2.5, ct.bfloat16)
    print(a, b, c)


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def dtype_constructor_casts(x):
    t = ct.load(x, (0,), (4,))
    print(ct.float16(ct.bid(0)), ct.int8(ct.bid(0)), ct.uint64(7))


# tilescope: args f32[4]
# expect: TileTypeError @ 168
@ct.kernel
def astype_bad_dtype(x):
    print(ct.load(x, (0,), (4,)).astype("float16"))


# tilescope: args f32[4]
# expect: TileTypeError @ 175
@ct.kernel
def dtype_constructor_on_nd_tile(x):
    print(ct.float16(ct.load(x, (0,), (4,))))


# tilescope: args f32[4,4]
# expect: TileTypeError @ 186
# tilescope: args i32[4,4]
# expect: TileTypeError @ 186
@ct.kernel
def array_astype_on_load(x):
    t = ct.load(x, (0, 0), (4, 4)).astype(ct.float64)
    print(t)
    ct.store(x, (0, 0), t)
