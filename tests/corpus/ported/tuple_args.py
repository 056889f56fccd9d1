# Tuple kernel parameters (calling convention v2): scalars, arrays, nesting, constants.
# Semantics ported from upstream test_tuple_arguments.py.
import cuda.tile as ct


# tilescope: args f32[8], f32[8], (i32, i32)
# expect: ok
# tilescope: args f32[8], f32[8], (f32, i64)
# expect: ok
@ct.kernel
def scalar_tuple(a, out, addends):
    t = ct.load(a, (0,), (8,))
    r = t + addends[0] + addends[1]
    print(r)
    ct.store(out, (0,), r)


# tilescope: args (f32[4,4], f32[4,4]), f32[4,4]
# expect: ok
# tilescope: args (f16[4,4], f32[4,4]), f32[4,4]
# expect: ok
@ct.kernel
def array_tuple(pair, out):
    a = ct.load(pair[0], (0, 0), (4, 4))
    b = ct.load(pair[1], (0, 0), (4, 4))
    print(a + b)
    ct.store(out, (0, 0), a + b)


# tilescope: args (f32[8], i32), f32[8]
# expect: ok
@ct.kernel
def mixed_tuple(pair, out):
    ct.store(out, (0,), ct.load(pair[0], (0,), (8,)) + pair[1])


# tilescope: args f32[8], f32[8], (8, 4)
# expect: ok
@ct.kernel
def constant_tuple(a, out, shape: ct.Constant[tuple]):
    ct.store(out, (0,), ct.load(a, (0,), (shape[0],)))


# tilescope: args f32[8], f32[8], (8, i32)
# expect: ok
@ct.kernel
def partially_constant_tuple(a, out, cfg):
    t = ct.load(a, (0,), (cfg[0],))
    ct.store(out, (0,), t + cfg[1])


# tilescope: args f32[8], f32[8], (i32, i32)
# expect: TileTypeError @ 56
@ct.kernel
def runtime_tuple_item_as_shape(a, out, cfg):
    ct.load(a, (0,), (cfg[0],))


# tilescope: args i32[], ()
# expect: ok
@ct.kernel
def empty_tuple(out, empty):
    ct.static_assert(len(empty) == 0)
    ct.scatter(out, (), len(empty) + 1)


# tilescope: args f32[8], f32[8], ((i32, i32), i32)
# expect: ok
@ct.kernel
def nested_scalar_tuple(a, out, cfg):
    t = ct.load(a, (0,), (8,))
    ct.store(out, (0,), t * cfg[0][1] + cfg[0][0] + cfg[1])


# tilescope: args (f32[8], (i32, i64)), f32[8]
# expect: ok
@ct.kernel
def nested_mixed_tuple(pair, out):
    r = ct.load(pair[0], (0,), (8,)) + pair[1][0] + pair[1][1]
    print(r)


# tilescope: args (list[f32[?]], f32), f32[8]
# expect: ok
@ct.kernel
def tuple_holds_list(pair, out):
    res = ct.zeros((8,), dtype=out.dtype)
    for i in range(len(pair[0])):
        res = res + ct.load(pair[0][i], (0,), (8,))
    ct.store(out, (0,), res + pair[1])


# tilescope: args f32[8], f32[8], ((8, i32), i32)
# expect: ok
@ct.kernel
def nested_partial_constant(a, out, cfg):
    t = ct.load(a, (0,), (cfg[0][0],))
    ct.store(out, (0,), t + cfg[0][1] + cfg[1])


# tilescope: args i32[2], (i32, i32), (i32, i32)
# expect: ok
@ct.kernel
def two_tuple_params(out, t1, t2):
    ct.scatter(out, (0,), t1[0] + t2[0])
    ct.scatter(out, (1,), t1[1] + t2[1])


# tilescope: args i32[2], ((i32, i32), (i32, i32))
# expect: ok
@ct.kernel
def tuple_of_tuples(out, t):
    ct.scatter(out, (0,), t[0][0] + t[1][0])


# tilescope: args i32[2], (i32, i32)
# expect: ok
@ct.kernel
def tuple_param_unpacked(out, t):
    a, b = t
    ct.scatter(out, (0,), a * b)


# tilescope: args i32[2], (i32, i32)
# expect: TileTypeError @ 128
@ct.kernel
def tuple_param_index_out_of_range(out, t):
    ct.scatter(out, (0,), t[2])


# tilescope: args i32[2], (i32, i32)
# expect: ok
@ct.kernel
def tuple_param_len_is_constant(out, t):
    ct.static_assert(len(t) == 2)
    for v in ct.static_iter(t):
        print(v)


# tilescope: args i32[2], (i32, i32)
# expect: TileTypeError @ 144
@ct.kernel
def tuple_param_runtime_index(out, t):
    ct.scatter(out, (0,), t[ct.bid(0)])
