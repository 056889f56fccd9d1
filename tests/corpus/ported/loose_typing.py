# Loose (untyped) Python constants vs. strictly typed values: propagation and promotion.
# Semantics ported from upstream test_loose_typing.py / test_typeinfer.py.
import cuda.tile as ct


# tilescope: args 5, i32[4]
# expect: ok
# tilescope: args 50, i32[4]
# expect: TileValueError @ 16
# expect-match: out of range of int8
@ct.kernel
def int_chain_stays_loose(n: ct.Constant[int], out):
    t = (n + 2) * 3
    t = -t
    t ^= n
    b = ct.arange(4, dtype=ct.int8) - t
    ct.static_assert(b.dtype == ct.int8)
    print(b)


# tilescope: args 5, f32[4]
# expect: ok
@ct.kernel
def float_loose_promotes_int_tile(n: ct.Constant[int], out):
    t = -((n + 2) * 3)
    t += 0.5
    b = ct.arange(4, dtype=ct.int8) - t
    ct.static_assert(b.dtype == ct.float32)
    print(b)


# tilescope: args 11, i32[4]
# expect: ok
@ct.kernel
def tuple_item_keeps_looseness(n: ct.Constant[int], out):
    tup = (ct.bid(0), n // 2)
    b = ct.arange(4, dtype=ct.int8) + tup[1]
    ct.static_assert(b.dtype == ct.int8)
    print(b)


# tilescope: args 11, i32[4]
# expect: ok
@ct.kernel
def nested_tuple_item_keeps_looseness(n: ct.Constant[int], out):
    tup = (ct.bid(0), (n // 2, ct.bid(0)))
    b = ct.arange(4, dtype=ct.int8) + tup[1][0]
    ct.static_assert(b.dtype == ct.int8)
    print(b)


# tilescope: args 5, i32[4]
# expect: ok
@ct.kernel
def same_constant_both_branches_stays_loose(n: ct.Constant[int], out):
    if ct.bid(0) == 0:
        t = n + 2
    else:
        t = 7
    b = ct.arange(4, dtype=ct.int8) + t
    ct.static_assert(b.dtype == ct.int8)
    print(b)


# tilescope: args 5, i32[4]
# expect: ok
@ct.kernel
def different_constants_join_to_int32(n: ct.Constant[int], out):
    if ct.bid(0) == 0:
        t = n
    else:
        t = 7
    b = ct.arange(4, dtype=ct.int8) + t
    ct.static_assert(b.dtype == ct.int32)
    print(b)


# tilescope: args 5, i32[4]
# expect: ok
@ct.kernel
def loose_plus_strict_is_strict(n: ct.Constant[int], out):
    t = n + ct.int16(2)
    ct.static_assert(t == 7)
    b = ct.arange(4, dtype=ct.int8) + t
    ct.static_assert(b.dtype == ct.int16)
    print(b)


# tilescope: args f16[2]
# expect: ok
@ct.kernel
def float_call_gives_loose_constant(out):
    ct.scatter(out, 0, float("2.0"))
    ct.scatter(out, 1, float(ct.float32(5.0)))


# tilescope: args f16[2]
# expect: ok
@ct.kernel
def int_call_gives_loose_constant(out):
    c = int(ct.int64(3))
    t = ct.full((2,), 1, dtype=ct.float16) + c
    print(t)


# tilescope: args f16[4]
# expect: ok
@ct.kernel
def loose_float_adapts_to_f16(x):
    t = ct.load(x, (0,), (4,)) * 0.5 + 1
    print(t)


# tilescope: args bf16[4]
# expect: ok
@ct.kernel
def loose_float_adapts_to_bf16(x):
    t = ct.load(x, (0,), (4,)) - 3.25
    print(t)


# tilescope: args i8[4]
# expect: ok
@ct.kernel
def loose_int_adapts_to_i8(x):
    t = ct.load(x, (0,), (4,)) + 100
    print(t)


# tilescope: args i8[4]
# expect: TileValueError @ 135
# expect-match: out of range of int8
@ct.kernel
def loose_int_out_of_range_for_i8(x):
    t = ct.load(x, (0,), (4,)) + 300
    print(t)


# tilescope: args u8[4]
# expect: TileValueError @ 143
@ct.kernel
def loose_negative_int_for_unsigned(x):
    t = ct.load(x, (0,), (4,)) + (-1)
    print(t)


# tilescope: args i16[4]
# expect: ok
@ct.kernel
def loose_float_promotes_int16_to_f32(x):
    t = ct.load(x, (0,), (4,)) * 1.5
    print(t)


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def strict_f64_constant_promotes(x):
    t = ct.load(x, (0,), (4,)) + ct.float64(1.0)
    print(t)


# tilescope: args i32[4]
# expect: ok
@ct.kernel
def bool_loose_with_int_tile(x):
    t = ct.load(x, (0,), (4,)) + True
    print(t)


# tilescope: args i32
# expect: ok
@ct.kernel
def runtime_scalar_plus_loose_float(n):
    t = n + 1.5
    print(t)


# tilescope: args i64
# expect: ok
@ct.kernel
def runtime_i64_scalar_plus_loose_int(n):
    t = n * 3
    print(t)
