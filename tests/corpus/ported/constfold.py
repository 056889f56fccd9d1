# Compile-time folding of Python-level constants, strings, dtypes, None and `is`.
# Semantics ported from upstream test_constfold.py.
import cuda.tile as ct


def _plus_one(x):
    return x + 1


def _plus_two(x):
    return _plus_one(_plus_one(x))


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def tuple_unpack_feeds_arange(x):
    s1, s2 = (2, 4)
    print(ct.arange(s1, dtype=ct.int32), ct.arange(s2, dtype=ct.int32))


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def tuple_slice_is_constant(x):
    s1, s2 = (1, 1, 2, 2)[::2]
    ct.static_assert(s1 == 1 and s2 == 2)
    print(ct.arange(s2, dtype=ct.int32))


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def tile_attrs_fold(x):
    tx = ct.full((2, 2), 0.1, dtype=ct.float32)
    t = ct.full(tx.shape, tx.ndim, dtype=tx.dtype)
    ct.static_assert(tx.ndim == 2)
    print(t)


# tilescope: args f32[4,4]
# expect: ok
# tilescope: args f64[4,4]
# expect: ok
@ct.kernel
def array_dtype_comparison_folds(x):
    if x.dtype == ct.float64:
        val = 1
    else:
        val = 2
    print(ct.full((2, 2), val, dtype=ct.float32))


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def dtype_equality_folds(x):
    ct.static_assert((ct.float32 == ct.float32) is True)
    ct.static_assert((ct.float32 != ct.float32) is False)
    ct.static_assert((ct.float32 == ct.float64) is False)
    ct.static_assert((ct.float32 != ct.float64) is True)


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def string_comparisons_fold(x):
    ct.static_assert(("foo" == "foo") is True)
    ct.static_assert(("foo" != "bar") is True)
    ct.static_assert(("foo" < "bar") is False)
    ct.static_assert(("foo" >= "bar") is True)


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def string_concat_and_str(x):
    a = "foo"
    ct.static_assert(a + "bar" == "foobar")
    ct.static_assert(str(123) == "123")


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def none_is_constant(x):
    n = None
    y = 1
    if n is y:
        ct.printf("never")
    ct.static_assert(n is None)
    ct.static_assert(y is not None)


# tilescope: args f32[4]
# expect: TileTypeError @ 102
# expect-match: Operator 'is' expects one of the operands to be None
@ct.kernel
def is_between_tiles(x):
    tx = ct.full((1,), 0, ct.float32)
    ty = ct.full((1,), 0, ct.float32)
    tx is ty


# tilescope: args f32[4]
# expect: TileTypeError @ 112
# expect-match: Operator 'is not' expects one of the operands to be None
@ct.kernel
def is_not_between_tiles(x):
    tx = ct.full((1,), 0, ct.float32)
    ty = ct.full((1,), 0, ct.float32)
    tx is not ty


# tilescope: args f32[4]
# expect: ok
# tilescope: args f16[4]
# expect: ok
@ct.kernel
def ifexp_on_dtype_folds(x):
    dtype = ct.float32 if x.dtype == ct.float32 else ct.float16
    print(ct.full((1,), 0, dtype=dtype))


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def if_true_folds_shape_and_dtype(x):
    if True:
        shape = (1, 1)
        dtype = ct.float32
    else:
        shape = (2, 2)
        dtype = ct.float64
    print(ct.full(shape, 0, dtype=dtype))


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def folded_if_break_in_loop(x):
    while True:
        if False:
            sz = 1
            break
        else:
            sz = 2
            break
    print(ct.full((sz, sz), 1.0, dtype=ct.float32))


# tilescope: args i32[2]
# expect: ok
@ct.kernel
def nested_folded_terminators(x):
    i = 0
    a = 10
    while True:
        if ct.bid(0) == i:
            a += 3
            if True:
                break
            a = 30
        else:
            a = 20
            i += 1
            if True:
                continue
            a = 40
    ct.scatter(x, ct.bid(0), a)


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def folded_if_with_helper_calls(x):
    if True:
        sz = _plus_one(1)
        sz = 1
    else:
        sz = _plus_two(2)
        sz = 2
    print(ct.full((sz, sz), 1.0, dtype=ct.float32))


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def dtype_reassigned_in_loop(x):
    dtype = ct.float16
    for i in range(5):
        dtype = ct.float16
    print(ct.full((1, 1), 1.0, dtype=dtype))


# tilescope: args i32[4]
# expect: ok
@ct.kernel
def semi_constant_tuple_from_if(x):
    if ct.bid(0) == 0:
        tup = (ct.bid(1), 4)
    else:
        tup = (ct.bid(0), 4)
    ct.store(x, (0,), ct.arange(tup[1], dtype=x.dtype))


# tilescope: args i64[4]
# expect: ok
@ct.kernel
def strict_integer_constants_wrap(x):
    ct.scatter(x, 0, ct.int64(ct.uint32(-3)))
    ct.scatter(x, 1, ct.int64(ct.int32(3_000_000_000)))
    ct.scatter(x, 2, ct.int64(~ct.uint32(3)))
    ct.scatter(x, 3, ct.int64(ct.uint8(150) + ct.uint8(110)))


# tilescope: args i64[2]
# expect: ok
@ct.kernel
def strict_bool_constant_truncates(x):
    ct.scatter(x, 0, ct.int64(ct.bool_(5)))
    ct.scatter(x, 1, ct.int64(ct.bool_(-3)))


# tilescope: args f64[2]
# expect: ok
@ct.kernel
def strict_float_constants_round(x):
    ct.scatter(x, 0, ct.float16(0.2))
    ct.scatter(x, 1, ct.float64(ct.float8_e8m0fnu(0.2)))


# tilescope: args f32[1]
# expect: TileValueError @ 238
# expect-match: Negative values cannot be represented in an unsigned float format
@ct.kernel
def unsigned_float_from_negative(x):
    ct.float8_e8m0fnu(-0.2)


# tilescope: args i64[], 4
# expect: ok
@ct.kernel
def ensure_constant_accepts_constant(x, c: ct.Constant):
    c2 = ct.ensure_constant(c + 1)
    ct.static_assert(c2 == 5)
    ct.scatter(x, (), c2)


# tilescope: args f32[1]
# expect: TileStaticAssertionError @ 255
# expect-match: is not a compile-time constant
@ct.kernel
def ensure_constant_rejects_bid(x):
    ct.ensure_constant(ct.bid(0))


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def uint8_constant_arith_wraps(x):
    t = ct.uint8(200) + ct.uint8(100)
    ct.static_assert(t == 44)
    u = -ct.uint32(3)
    ct.static_assert(u == 4294967293)


# tilescope: args f32[4]
# expect: StaticException @ 274
@ct.kernel
def int_division_folds_python_style(x):
    ct.static_assert(-7 // 2 == -4)
    ct.static_assert(-7 % 2 == 1)
    ct.static_assert(ct.int32(-7) // ct.int32(2) == -4)


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def strict_int_division_folds(x):
    q = ct.int32(-7) // ct.int32(2)
    r = ct.int32(-7) % ct.int32(2)
    ct.static_assert(q == -4)
    ct.static_assert(r == 1)
