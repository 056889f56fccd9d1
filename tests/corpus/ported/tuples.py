# Tuple construction, indexing, comparison, membership and starred unpacking.
# Semantics ported from upstream test_tuple.py.
import cuda.tile as ct

_NESTED = (100, (101, 102), (103, (104, 105)))


def _scatter_items(arr, *items):
    for i, v in ct.static_iter(enumerate(items)):
        ct.scatter(arr, i, v)


def _swallow(*items):
    pass


# tilescope: args f32[64], f32[64], i32[]
# expect: ok
@ct.kernel
def concat_tuples(x, y, z):
    a = ct.load(x, (0,), (16,))
    b = ct.load(x, (1,), (16,))
    t = (a,) + (b, a + b)
    ct.store(y, (0,), t[2])
    ct.scatter(z, (), len(t))
    ct.static_assert(len(t) == 3)


# tilescope: args f32[1]
# expect: TileTypeError @ 35
# expect-match: Tuple indices must be integers or slices
@ct.kernel
def index_with_float(x):
    t = (1, 2, 3)
    t[1.0]


# tilescope: args f32[1]
# expect: TileTypeError @ 44
# expect-match: Tuple indices must be integers or slices
@ct.kernel
def index_with_1d_tile(x):
    t = (1, 2, 3)
    t[ct.ones((2,), dtype=ct.int32)]


# tilescope: args f32[1]
# expect: TileTypeError @ 53
# expect-match: Tuple indices must be constant
@ct.kernel
def index_with_runtime_scalar(x):
    t = (1, 2, 3)
    t[ct.bid(0)]


# tilescope: args f32[1]
# expect: TileTypeError @ 62
# expect-match: Tuple indices must be integers or slices
@ct.kernel
def index_with_tuple(x):
    t = (1, 2, 3)
    t[(4, 5)]


# tilescope: args f32[1]
# expect: TileTypeError @ 71
# expect-match: Tuples are immutable
@ct.kernel
def tuple_item_assignment(x):
    t = (1, 2, 3)
    t[0] = 7


# tilescope: args f32[1]
# expect: ok
@ct.kernel
def negative_index_and_slices(x):
    t = (1, 2, 3, 4)
    ct.static_assert(t[-1] == 4)
    ct.static_assert(t[1:3] == (2, 3))
    ct.static_assert(t[::-1] == (4, 3, 2, 1))


# tilescope: args f32[1]
# expect: TileTypeError @ 89
@ct.kernel
def index_out_of_range(x):
    t = (1, 2, 3)
    t[3]


# tilescope: args i32[9]
# expect: ok
@ct.kernel
def build_with_starred(x):
    a = (10, 20, 30)
    b = ()
    c = (40, 50)
    t = (7, *a, 8, *b, 9, *c, 10)
    ct.static_assert(len(t) == 9)
    for i, v in ct.static_iter(enumerate(t)):
        ct.scatter(x, i, v)


# tilescope: args i32[5]
# expect: ok
@ct.kernel
def starred_call_to_helper(x):
    _scatter_items(x, 123, *(10, 20), 456, *(30,))


# tilescope: args i32[]
# expect: ok
@ct.kernel
def starred_call_to_builtin(x):
    args = (x, (), 1234)
    ct.scatter(*args)


# tilescope: args f32[1]
# expect: TileTypeError @ 126
# expect-match: Expected a tuple after \*
@ct.kernel
def starred_tile(x):
    tile = ct.ones((4,), dtype=ct.int32)
    _swallow(*tile)


# tilescope: args i32[]
# expect: ok
@ct.kernel
def compare_constant_tuples(x):
    ct.static_assert(() == ())
    ct.static_assert((1, 2, 3) == (1, 2, 3))
    ct.static_assert((1, 2) != (1, 3))
    ct.scatter(x, (), 1)


# tilescope: args i32[]
# expect: ok
@ct.kernel
def compare_different_lengths(x):
    a = ct.bid(0)
    if (a, 1) != (a, 1, 2):
        ct.scatter(x, (), 1)


# tilescope: args i32[2,2]
# expect: ok
@ct.kernel
def compare_scalar_tiles(x):
    a = ct.bid(0)
    b = ct.bid(1)
    c = (a, b) == (0, 0)
    print(c)
    if c:
        ct.scatter(x, (a, b), 1)


# tilescope: args f32[1]
# expect: TileTypeError @ 166
# expect-match: not supported for non-scalar elements
@ct.kernel
def compare_nd_tiles(x):
    t = ct.ones((4,), dtype=ct.int32)
    if (t,) == (t,):
        pass


# tilescope: args f32[1]
# expect: TileTypeError @ 175
# expect-match: not supported for tuples
@ct.kernel
def ordering_tuples(x):
    if (1, 2) < (3, 4):
        pass


# tilescope: args i32[2]
# expect: ok
@ct.kernel
def compare_nested(x):
    a = ct.bid(0)
    if ((a, 1), 2) == ((0, 1), 2):
        ct.scatter(x, (a,), 1)


# tilescope: args f32[1], f32[1]
# expect: TileTypeError @ 193
# expect-match: not supported for elements of type
@ct.kernel
def compare_array_elements(x, y):
    if (x,) == (y,):
        pass


# tilescope: args i32[], 4, 8
# expect: ok
# tilescope: args i32[], 4, 9
# expect: ok
@ct.kernel
def compare_constant_params(x, M: ct.Constant[int], N: ct.Constant[int]):
    if (M, N) == (4, 8):
        ct.scatter(x, (), 1)
    else:
        ct.scatter(x, (), -1)


# tilescope: args i32[4]
# expect: ok
@ct.kernel
def membership_constant(x):
    ct.static_assert(2 in (1, 2, 3))
    ct.static_assert(5 not in (1, 2, 3))
    ct.static_assert(not (1 in ()))


# tilescope: args i32[4]
# expect: ok
@ct.kernel
def membership_runtime(x):
    a = ct.bid(0)
    c = a in (0, 2)
    print(c)
    if c:
        ct.scatter(x, (a,), 1)


# tilescope: args i32[4]
# expect: ok
@ct.kernel
def membership_short_circuits(x):
    t = ct.ones((4,), dtype=ct.int32)
    ct.static_assert(2 in (2, t))
    ct.static_assert(2 in (1, 2, t))


# tilescope: args f32[1]
# expect: TileTypeError @ 243
# expect-match: 'in' requires scalar operands
@ct.kernel
def membership_tile_needle(x):
    ct.ones((4,), dtype=ct.int32) in (1, 2)


# tilescope: args f32[1]
# expect: TileTypeError @ 251
# expect-match: 'in' requires scalar operands
@ct.kernel
def membership_tile_before_match(x):
    2 in (1, ct.ones((4,), dtype=ct.int32), 2)


# tilescope: args i32[4]
# expect: ok
@ct.kernel
def membership_nested_tuples(x):
    a = ct.bid(0)
    if (a, 1) in ((0, 1), (2, 1)):
        ct.scatter(x, (a,), 1)


# tilescope: args i32[2]
# expect: ok
@ct.kernel
def global_nested_tuple(x):
    ct.scatter(x, 0, _NESTED[0])
    ct.scatter(x, 1, _NESTED[2][1][1])
    ct.static_assert(_NESTED[1] == (101, 102))


# tilescope: args f32[16]
# expect: TileTypeError @ 276
@ct.kernel
def tuple_repetition_and_len(x):
    t = (1, 2) * 3
    ct.static_assert(len(t) == 6)
    ct.static_assert(t[4] == 1)


# tilescope: args f32[16]
# expect: ok
@ct.kernel
def tuple_unpack_swap(x):
    a = ct.load(x, (0,), (16,))
    b = a * 2
    a, b = b, a
    print(a, b)


# tilescope: args f32[16]
# expect: TileValueError @ 295
@ct.kernel
def tuple_unpack_wrong_count(x):
    a, b = (1, 2, 3)


# tilescope: args f32[16]
# expect: TileSyntaxError @ 302
@ct.kernel
def tuple_starred_target(x):
    a, *rest = (1, 2, 3)
    ct.static_assert(a == 1)
