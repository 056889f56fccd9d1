# Front-end type checking of op arguments and path-dependent types.
# Semantics ported from upstream test_typeinfer.py.
import cuda.tile as ct


class _Plain:
    pass


# tilescope: args f32[4,4]
# expect: TileTypeError @ 15
# expect-match: Expected shape length to be 2, got 3
@ct.kernel
def load_shape_rank_mismatch(x):
    ct.load(x, (0, 0), shape=(2, 2, 4))


# tilescope: args f32[4,4]
# expect: TileTypeError @ 23
# expect-match: element #1 has type Tile\[float32,\(\)\]
@ct.kernel
def load_shape_float_element(x):
    ct.load(x, (0, 0), shape=(2, 2.0))


# tilescope: args f32[4,4]
# expect: TileTypeError @ 31
# expect-match: Expected shape length to be 2, got 1
@ct.kernel
def load_shape_not_tuple(x):
    ct.load(x, (0, 0), shape=2)


# tilescope: args f32[4,4]
# expect: TileTypeError @ 39
# expect-match: is not positive
@ct.kernel
def load_shape_negative(x):
    ct.load(x, (0, 0), shape=(-1, -2))


# tilescope: args f32[4,4], i32
# expect: TileTypeError @ 47
# expect-match: Expected a constant integer tuple
@ct.kernel
def load_shape_runtime_dim(x, i):
    ct.load(x, (0, 0), shape=(2, i))


# tilescope: args f32[4]
# expect: TileTypeError @ 55
# expect-match: Dimension #0 of shape \(0, 0\) is not positive
@ct.kernel
def full_zero_shape(x):
    ct.full((0, 0), 1, dtype=ct.float32)


# tilescope: args f32[4]
# expect: TileTypeError @ 63
# expect-match: is not a power of two
@ct.kernel
def full_non_power_of_two(x):
    ct.full((2, 3), 1, dtype=ct.float32)


# tilescope: args f32[4,4]
# expect: TileTypeError @ 71
# expect-match: Index size 3 does not match the array rank 2
@ct.kernel
def load_index_rank_mismatch(x):
    ct.load(x, (0, 0, 0), shape=(2, 2))


# tilescope: args f32[4,4]
# expect: TileTypeError @ 79
# expect-match: Expected 'C' or 'F', got 'A'
@ct.kernel
def load_bad_order_literal(x):
    ct.load(x, (0, 0), shape=(2, 2), order='A')


# tilescope: args f32[4,4]
# expect: TileTypeError @ 87
# expect-match: Axis 3 is out of range for rank 2
@ct.kernel
def load_order_axis_out_of_range(x):
    ct.load(x, (0, 0), shape=(2, 2), order=(0, 3))


# tilescope: args f32[4,4]
# expect: TileTypeError @ 95
# expect-match: Expected a tile
@ct.kernel
def permute_array_argument(x):
    ct.permute(x, (1, 0))


# tilescope: args f32[4,4]
# expect: TileTypeError @ 103
# expect-match: Expected a scalar
@ct.kernel
def full_string_fill(x):
    ct.full((4, 4), "foo", dtype=ct.int32)


# tilescope: args f32[4,4]
# expect: TileTypeError @ 111
# expect-match: Expected a dtype constant
@ct.kernel
def full_string_dtype(x):
    ct.full((4, 4), 1, dtype="foo")


# tilescope: args f32[4]
# expect: TileTypeError @ 120
# expect-match: Expected a string constant
@ct.kernel
def printf_tile_as_format(x):
    t = ct.full((1,), 0, dtype=ct.float32)
    ct.printf(t)


# tilescope: args f32[4], b8
# expect: TileTypeError @ 129
# expect-match: Expected a boolean constant
@ct.kernel
def sum_runtime_keepdims(x, keepdims):
    t = ct.full((1,), 0, dtype=ct.float32)
    ct.sum(t, 0, keepdims=keepdims)


# tilescope: args f32[4]
# expect: TileTypeError @ 139
# expect-match: does not support bool
@ct.kernel
def add_two_bool_tiles(x):
    a = ct.full((1,), 0, dtype=ct.bool_)
    b = ct.full((1,), 0, dtype=ct.bool_)
    a + b


# tilescope: args f32[1]
# expect: TileTypeError @ 150
# expect-match: depends on path taken
@ct.kernel
def if_else_int_vs_float(x):
    if ct.bid(0) == 0:
        a = 1
    else:
        a = 2.0
    ct.store(x, (0,), a)


# tilescope: args f32[1]
# expect: TileTypeError @ 161
# expect-match: depends on path taken
@ct.kernel
def for_loop_carried_type_changes(x):
    a = 1
    for _ in range(10):
        a *= 2.0
    ct.store(x, (0,), a)


# tilescope: args f32[1]
# expect: TileTypeError @ 173
# expect-match: depends on path taken
@ct.kernel
def while_loop_carried_type_changes(x):
    a = 1
    i = 0
    while i < 10:
        a *= 2.0
        i += 1
        if i >= 5:
            break
    ct.store(x, (0,), a)


# tilescope: args f32[1]
# expect: TileTypeError @ 192
# expect-match: depends on path taken
@ct.kernel
def while_break_results_disagree(x):
    i = 0
    while True:
        i += 1
        if i >= 5:
            a = 3.0
            break
        elif i >= ct.bid(0):
            a = 5
            break
    ct.store(x, (0,), a)


# tilescope: args f32[4,4], f32[4,4], f32[4,4]
# expect: ok
@ct.kernel
def arrays_join_at_if(x, y, out):
    if ct.bid(0) == 0:
        a = x
    else:
        a = y
    ct.store(out, (0, 0), ct.load(a, (0, 0), shape=(4, 4)))


# tilescope: args i32[2], f32[2]
# expect: ok
@ct.kernel
def unused_mismatch_inside_loop(x, y):
    for i in range(2):
        if ct.bid(0) == 0:
            t = ct.gather(x, i)
            ct.scatter(x, i, t + 1)
        else:
            t = ct.gather(y, i)
            ct.scatter(y, i, t + 3.0)


# tilescope: args 5, i16[]
# expect: TileTypeError @ 241
# expect-match: cannot implicitly cast
# tilescope: args 5, i32[]
# expect: ok
# tilescope: args 2147483648, i32[]
# expect: TileTypeError @ 241
# tilescope: args 2147483648, i64[]
# expect: ok
# tilescope: args 9223372036854775808, i64[]
# expect: TileTypeError @ 241
# tilescope: args 9223372036854775808, u64[]
# expect: ok
# tilescope: args -2147483649, i64[]
# expect: ok
@ct.kernel
def loop_materializes_constant_type(n: ct.Constant[int], x):
    t = n
    for i in range(2):
        t += 1
    ct.scatter(x, (), t)


# tilescope: args u64[]
# expect: TileValueError @ 249
# expect-match: out of range of any supported integer type
@ct.kernel
def constant_too_big_for_any_int(x):
    t = 18446744073709551616
    for i in range(2):
        t += 1
    ct.scatter(x, (), t)


# tilescope: args f32[1]
# expect: TileTypeError @ 260
# expect-match: Cannot call an object of type
@ct.kernel
def subbyte_dtype_constructor(x):
    ct.float4_e2m1fn(2.0)


# tilescope: args f32[]
# expect: ok
@ct.kernel
def annotated_assignment_is_ignored(x):
    a: int = ct.gather(x, ())
    a: float
    ct.scatter(x, (), a + 3.0)


# tilescope: args i32[], 3, i32, 7.5, f32, f32[]
# expect: ok
@ct.kernel
def mixed_const_and_runtime_params(x, a: ct.Constant, b, c: ct.Constant, d, y):
    ct.scatter(x, (), a * 10 + b)
    ct.scatter(y, (), c * 100 + d)


# tilescope: args f32[1]
# expect: TileTypeError @ 286
# expect-match: Tiles are immutable
@ct.kernel
def tile_item_assignment(x):
    t = ct.ones((8,), dtype=ct.int32)
    t[0] = 7


# tilescope: args f32[1]
# expect: TileError @ 294
# expect-match: eval\(\) is not supported in device code
@ct.kernel
def call_builtin_eval(x):
    eval("2 + 2")


# tilescope: args f32[1]
# expect: TileError @ 302
# expect-match: Creating instances of type "_Plain"
@ct.kernel
def instantiate_plain_class(x):
    _Plain()


# tilescope: args f32[1]
# expect: TileTypeError @ 313
# expect-match: Type of `val` depends on path taken
@ct.kernel
def enum_constant_differs_by_branch(x):
    if ct.bid(0) == 0:
        val = ct.MemoryOrder.RELAXED
    else:
        val = ct.MemoryOrder.WEAK
    print(val == ct.MemoryOrder.WEAK)


# tilescope: args f32[4,4]
# expect: TileTypeError @ 322
# expect-match: Index size 3 does not match the tiled view rank 2
@ct.kernel
def tiled_view_index_rank_mismatch(x):
    x.tiled_view((2, 2)).load((0, 0, 0))


# tilescope: args f32[1]
# expect: TileTypeError @ 330
# expect-match: Format .* for arg #0 got unexpected type
@ct.kernel
def printf_int_spec_float_arg(x):
    ct.printf("%d", -1.0)


# tilescope: args f32[1]
# expect: TileTypeError @ 338
# expect-match: Invalid format string
@ct.kernel
def printf_bad_format(x):
    ct.printf("%!")


# tilescope: args f32[1]
# expect: TileTypeError @ 346
# expect-match: Specifier .* is not supported
@ct.kernel
def printf_char_specifier(x):
    ct.printf("%c", 1)


# tilescope: args f32[1]
# expect: TileTypeError @ 354
# expect-match: Not enough arguments
@ct.kernel
def printf_not_enough_args(x):
    ct.printf("prefix: %d, %d", 1)


# tilescope: args f32[1]
# expect: ok
@ct.kernel
def printf_mixed_widths(x):
    ct.printf("%d %ld %u %f %f", ct.int32(-1), ct.int64(-1), ct.uint32(1), 3.14, ct.float16(1.5))
    ct.printf("escape %% %d", 123)
