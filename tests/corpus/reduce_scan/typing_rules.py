"""Typing rules of reductions and scans: result dtypes, axes, rounding, user combiners."""
import cuda.tile as ct


# tilescope: args i8[16,16], i8[16]
# expect: ok
# tilescope: args bool[16,16], i32[16]
# expect: ok
# tilescope: args u16[16,16], i32[16]
# expect: TileTypeError @ 20
# tilescope: args f16[16,16], f32[16]
# expect: ok
# tilescope: args tf32[16,16], f32[16]
# expect: TileTypeError @ 20
# tilescope: args f8e4m3fn[16,16], f32[16]
# expect: TileTypeError @ 20
@ct.kernel
def sum_dtypes(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.sum(t, axis=1))


# tilescope: args bool[16,16], i32[16]
# expect: ok
# tilescope: args i8[16,16], i32[16]
# expect: ok
# tilescope: args f16[16,16], i32[16]
# expect: TileTypeError @ 32
@ct.kernel
def max_dtypes(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.max(t, axis=1))


# tilescope: args bool[16,16], i32[16]
# expect: ok
# tilescope: args i8[16,16], i32[16]
# expect: ok
@ct.kernel
def argmax_dtypes(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.argmax(t, axis=1))


# tilescope: args f32[16,16], f32[16]
# expect: TileTypeError @ 50
@ct.kernel
def sum_axis_true(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.sum(t, axis=True))


# tilescope: args f32[16,16], f32[16]
# expect: ok
@ct.kernel
def sum_rm_string(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.sum(t, axis=1, rounding_mode="RZ"))


# tilescope: args f32[16,16], f32[16]
# expect: TileTypeError @ 66
@ct.kernel
def sum_rm_approx(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.sum(t, axis=1, rounding_mode=ct.RoundingMode.APPROX))


# tilescope: args f16[16,16], f16[16]
# expect: TileTypeError @ 74
@ct.kernel
def sum_ftz_f16(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.sum(t, axis=1, flush_to_zero=True))


# tilescope: args i32[16,16], i32[16]
# expect: TileTypeError @ 82
@ct.kernel
def sum_rm_int(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.sum(t, axis=1, rounding_mode=ct.RoundingMode.RN))


# tilescope: args f32[16,16], f32[16]
# expect: ok
@ct.kernel
def max_ftz(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.max(t, axis=1, flush_to_zero=True))


# tilescope: args i32[16,16], i32[1]
# expect: ok
@ct.kernel
def sum_loose(x, y):
    ct.store(y, index=(0,), tile=ct.sum(3))


# tilescope: args f32[16,16], f32[1]
# expect: TileTypeError @ 105
@ct.kernel
def sum_repeat_axis(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.sum(t, axis=(1, -1)))


# tilescope: args f32[16,16], f32[1,1]
# expect: ok
@ct.kernel
def sum_keep_all(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0, 0), tile=ct.sum(t, keepdims=True))


# tilescope: args f32[16,16], i32[1,1]
# expect: ok
@ct.kernel
def argmin_keep_all(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0, 0), tile=ct.argmin(t, keepdims=True, propagate_nan=True))


# tilescope: args f32[16,16], i32[16]
# expect: TileTypeError @ 129
@ct.kernel
def argmax_tuple_axis(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.argmax(t, axis=(1,)))


# tilescope: args f32[16,16], f32[16]
# expect: TileTypeError @ 137
@ct.kernel
def reduce_tuple_axis(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, (1,), lambda a, b: a + b, 0.0))


# tilescope: args f32[16,16], f32[16]
# expect: TileTypeError @ 145
@ct.kernel
def reduce_none_axis(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, None, lambda a, b: a + b, 0.0))


# tilescope: args f32[16,16], f32[16]
# expect: TileTypeError @ 153
@ct.kernel
def reduce_ret_f64(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, 1, lambda a, b: a.astype(ct.float64) + b, 0.0))


# tilescope: args i32[16,16], i32[16]
# expect: ok
@ct.kernel
def reduce_ret_loose(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, 1, lambda a, b: 1, 0))


# tilescope: args i32[16,16], i32[16]
# expect: TileTypeError @ 169
@ct.kernel
def reduce_ret_float_loose(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, 1, lambda a, b: 1.5, 0))


# tilescope: args i16[16,16], i16[16]
# expect: TileValueError @ 177
@ct.kernel
def reduce_ret_i32(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, 1, lambda a, b: a + b + 100000, 0))


# tilescope: args f32[16,16], f32[16]
# expect: TileTypeError @ 185
@ct.kernel
def reduce_ret_tuple_nontuple(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, 1, lambda a, b: (a, b), 0.0))


# tilescope: args f32[16,16], f32[16]
# expect: TileTypeError @ 193
@ct.kernel
def reduce_tuple_bad_ret(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    r, s = ct.reduce((t, t), 1, lambda a, b, c, d: a + c, (0.0, 0.0))
    ct.store(y, index=(0,), tile=r)


# tilescope: args f32[16,16], f32[16]
# expect: TileTypeError @ 202
@ct.kernel
def reduce_tuple_short(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    r, s = ct.reduce((t, t), 1, lambda a, b, c, d: (a + c,), (0.0, 0.0))
    ct.store(y, index=(0,), tile=r)


# tilescope: args f32[16,16], f32[16]
# expect: TileTypeError @ 211
@ct.kernel
def reduce_id_count(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    r, s = ct.reduce((t, t), 1, lambda a, b, c, d: (a + c, b + d), (0.0,))
    ct.store(y, index=(0,), tile=r)


# tilescope: args f32[16,16], f32[16]
# expect: TileTypeError @ 220
@ct.kernel
def reduce_id_nontuple(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    r, s = ct.reduce((t, t), 1, lambda a, b, c, d: (a + c, b + d), 0.0)
    ct.store(y, index=(0,), tile=r)


# tilescope: args f32[16,16], f32[16]
# expect: TileTypeError @ 229
@ct.kernel
def reduce_id_tile(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, 1, lambda a, b: a + b, t))


# tilescope: args f32[16,16], f32[16], f32
# expect: TileTypeError @ 237
@ct.kernel
def reduce_id_dynamic(x, y, z):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, 1, lambda a, b: a + b, z))


# tilescope: args f32[16,16], f32[16]
# expect: TileTypeError @ 245
@ct.kernel
def reduce_not_callable(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, 1, 3, 0.0))


# tilescope: args f32[16,16], f32[16]
# expect: TileTypeError @ 253
@ct.kernel
def reduce_nonscalar_ret(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, 1, lambda a, b: t, 0.0))


# tilescope: args f32[16,16], f32[16]
# expect: TileSyntaxError @ 261
@ct.kernel
def reduce_nested(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, 1, lambda a, b: a + ct.sum(t), 0.0))


# tilescope: args f32[16,16], f32[16]
# expect: TileSyntaxError @ 269
@ct.kernel
def reduce_store_inside(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, 1, lambda a, b: a + ct.load(x, (0, 0), (1, 1)).item(), 0.0))


def _branchy(a, b):
    if a > b:
        return a
    return b


# tilescope: args f32[16,16], f32[16]
# expect: TileSyntaxError @ 273
@ct.kernel
def reduce_branch(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, 1, _branchy, 0.0))


def _loopy(a, b):
    for i in range(3):
        a = a + b
    return a


# tilescope: args f32[16,16], f32[16]
# expect: TileSyntaxError @ 287
@ct.kernel
def reduce_loop(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, 1, _loopy, 0.0))


# tilescope: args f32[16,16], f32[16]
# expect: TileTypeError @ 305
@ct.kernel
def reduce_keepdims_bad(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, 1, lambda a, b: a + b, 0.0, keepdims=1))


# tilescope: args f32[16,16], f32[16]
# expect: TileTypeError @ 313
@ct.kernel
def reduce_closure_one_arg(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, 1, lambda a: a, 0.0))


# tilescope: args f32[16,8], f32[16]
# expect: TileTypeError @ 322
@ct.kernel
def reduce_bcast_bad(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 8))
    u = ct.load(x, index=(0, 0), shape=(16, 4))
    r, s = ct.reduce((t, u), 1, lambda a, b, c, d: (a + c, b + d), (0.0, 0.0))
    ct.store(y, index=(0,), tile=r)


# tilescope: args f32[16,16], f32[16]
# expect: TileTypeError @ 331
@ct.kernel
def reduce_empty_tuple(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    r = ct.reduce((), 1, lambda: (), ())
    ct.store(y, index=(0,), tile=t)


# tilescope: args f32[16,16], f32[16]
# expect: ok
@ct.kernel
def reduce_dtype_ctor(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, 1, ct.maximum, 0.0))


# tilescope: args bool[16], i32[16]
# expect: ok
# tilescope: args i8[16], i8[16]
# expect: ok
# tilescope: args u8[16], u8[16]
# expect: ok
# tilescope: args f8e5m2[16], f32[16]
# expect: TileTypeError @ 354
@ct.kernel
def cumsum_dtypes(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(y, index=(0,), tile=ct.cumsum(t))


# tilescope: args f32[16,8], f32[16,8]
# expect: ok
@ct.kernel
def cumprod_neg_axis(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 8))
    ct.store(y, index=(0, 0), tile=ct.cumprod(t, axis=-1, reverse=True, flush_to_zero=True))


# tilescope: args f32[16,8], f32[16,8]
# expect: TileTypeError @ 370
@ct.kernel
def cumsum_axis_none(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 8))
    ct.store(y, index=(0, 0), tile=ct.cumsum(t, axis=None))


# tilescope: args f32[16,8], f32[16,8], bool
# expect: TileTypeError @ 378
@ct.kernel
def cumsum_dyn_reverse(x, y, r):
    t = ct.load(x, index=(0, 0), shape=(16, 8))
    ct.store(y, index=(0, 0), tile=ct.cumsum(t, reverse=r))


# tilescope: args i32[16], i32[16]
# expect: TileTypeError @ 386
@ct.kernel
def cumsum_rm_int(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(y, index=(0,), tile=ct.cumsum(t, rounding_mode=ct.RoundingMode.RZ))


# tilescope: args f32[16], f32[16]
# expect: TileTypeError @ 394
@ct.kernel
def scan_id_count(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    a, b = ct.scan((t, t), 0, lambda a, b, c, d: (a + c, b + d), (0.0,))
    ct.store(y, index=(0,), tile=a)


# tilescope: args f32[16], f32[16]
# expect: TileTypeError @ 403
@ct.kernel
def scan_axis_bad_and_id_bad(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(y, index=(0,), tile=ct.scan(t, 3, lambda a, b: a + b, t))


# tilescope: args f32[16], f32[16]
# expect: ok
@ct.kernel
def scan_ret_wrong(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(y, index=(0,), tile=ct.scan(t, 0, lambda a, b: a > b, 0.0))


# tilescope: args i32[16], i32[16]
# expect: ok
@ct.kernel
def scan_ret_bool(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(y, index=(0,), tile=ct.scan(t, 0, lambda a, b: a > b, 0))


# tilescope: args f32[16], f32[16]
# expect: TileSyntaxError @ 427
@ct.kernel
def scan_in_reduce(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(y, index=(0,), tile=ct.scan(t, 0, lambda a, b: a + ct.cumsum(t).item(), 0.0))


# tilescope: args f32[16], f32[16]
# expect: TileTypeError @ 435
@ct.kernel
def scan_loose_x(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(y, index=(0,), tile=ct.scan(3.0, 0, lambda a, b: a + b, 0.0))


# tilescope: args f32[16], f32[16]
# expect: ok
@ct.kernel
def scan_bool_identity_int(x, y):
    t = ct.load(x, index=(0,), shape=(16,)) > 0
    ct.store(y, index=(0,), tile=ct.scan(t, 0, lambda a, b: a | b, False))


# tilescope: args f32[16], f32[16]
# expect: ok
@ct.kernel
def reduce_bool(x, y):
    t = ct.load(x, index=(0,), shape=(16,)) > 0
    ct.store(y, index=(0,), tile=ct.reduce(t, 0, lambda a, b: a | b, False).reshape((1,)))


# tilescope: args tf32[16], f32[1]
# expect: TileTypeError @ 459
@ct.kernel
def reduce_tf32(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(y, index=(0,), tile=ct.reduce(t, 0, lambda a, b: b, 0.0).reshape((1,)))


# tilescope: args f32[4,16], f32[4]
# expect: ok
@ct.kernel
def reduce_kwarg_func(x, y):
    t = ct.load(x, index=(0, 0), shape=(4, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, axis=-1, identity=0.0, func=ct.add))


def comb(a, b, *, scale=2.0):
    return a + b * scale


# tilescope: args f32[4,16], f32[4,1]
# expect: ok
@ct.kernel
def reduce_keepdims_fn(x, y):
    t = ct.load(x, index=(0, 0), shape=(4, 16))
    ct.store(y, index=(0, 0), tile=ct.reduce(t, 1, comb, 0.0, keepdims=True))


# tilescope: args f32[4,16], f32[4,16]
# expect: TileTypeError @ 487
@ct.kernel
def sum_method(x, y):
    t = ct.load(x, index=(0, 0), shape=(4, 16))
    ct.store(y, index=(0, 0), tile=t.sum(1))
