# range() loops, lists of arrays, and **kwargs dictionaries.
# Semantics ported from upstream test_range.py, test_list.py, test_dict.py.
import cuda.tile as ct


def _kw_helper(**kwargs):
    ct.static_assert(kwargs == {"foo": 123, "bar": 456})
    return 789


def _leaf(x, foo, bar):
    return x * 100 + foo * 10 + bar


def _forward(f, **kwargs):
    return f(3, **kwargs)


def _dict_access(**kwargs):
    ct.static_assert(kwargs["foo"] == 123)
    ct.static_assert(kwargs.get("bar") == 456)
    ct.static_assert(kwargs.get("qux") is None)
    ct.static_assert("foo" in kwargs)
    ct.static_assert("qux" not in kwargs)
    return len(kwargs)


def _dict_miss(**kwargs):
    return kwargs["qux"]


# tilescope: args i32, i32[16]
# expect: ok
@ct.kernel
def range_stop_only(stop, out):
    idx = 0
    for i in range(stop):
        ct.store(out, (idx,), tile=ct.full((1,), fill_value=i, dtype=ct.int32))
        idx = idx + 1


# tilescope: args i32, i32, i32[16]
# expect: ok
@ct.kernel
def range_start_stop(start, stop, out):
    for i in range(start, stop):
        ct.store(out, (i,), tile=ct.full((1,), fill_value=i, dtype=ct.int32))


# tilescope: args i32, i32, i32[16]
# expect: TileTypeError @ 55
# expect-match: Step must be positive, got -2
@ct.kernel
def range_negative_constant_step(start, stop, out):
    for i in range(start, stop, -2):
        ct.store(out, (0,), tile=ct.full((1,), fill_value=i, dtype=ct.int32))


# tilescope: args i32, i32, i32, i32[16]
# expect: ok
@ct.kernel
def range_runtime_step(start, stop, step, out):
    for i in range(start, stop, step):
        ct.store(out, (0,), tile=ct.full((1,), fill_value=i, dtype=ct.int32))


# tilescope: args i32[4], i32[16]
# expect: TileTypeError @ 72
# expect-match: Expected a scalar
@ct.kernel
def range_over_array(stop, out):
    for i in range(stop):
        pass


# tilescope: args f32, i32[16]
# expect: TileTypeError @ 81
# expect-match: Expected a signed integer
@ct.kernel
def range_float_bound(stop, out):
    for i in range(stop):
        pass


# tilescope: args 1.5, i32[16]
# expect: TileTypeError @ 89
@ct.kernel
def range_float_constant_bound(stop: ct.Constant[float], out):
    for i in range(stop):
        pass


# tilescope: args i64, i32[16]
# expect: ok
@ct.kernel
def range_i64_bound(stop, out):
    for i in range(stop):
        print(i)


# tilescope: args u32, i32[16]
# expect: TileTypeError @ 105
@ct.kernel
def range_unsigned_bound(stop, out):
    for i in range(stop):
        pass


# tilescope: args i32[16]
# expect: ok
@ct.kernel
def range_constant_step_zero_trip(out):
    for i in range(10, 0):
        ct.store(out, (0,), tile=ct.full((1,), fill_value=i, dtype=ct.int32))


# tilescope: args i32[16]
# expect: TileTypeError @ 121
@ct.kernel
def range_zero_step(out):
    for i in range(0, 10, 0):
        pass


# tilescope: args list[f32[?,?]], f32[16,16]
# expect: ok
@ct.kernel
def list_loop_with_len(arrays, out):
    res = ct.zeros((16, 16), dtype=out.dtype)
    for i in range(len(arrays)):
        res += ct.load(arrays[i], (0, 0), (16, 16))
    ct.store(out, (0, 0), res)


# tilescope: args list[f32[?,?]], f32[16,16]
# expect: ok
@ct.kernel
def list_constant_indices(arrays, out):
    res = ct.load(arrays[0], (0, 0), (16, 16)) + ct.load(arrays[2], (0, 0), (16, 16))
    ct.store(out, (0, 0), res)


# tilescope: args list[f32[?,?]], f32[16,16]
# expect: ok
@ct.kernel
def list_0d_tile_indices(arrays, out):
    bid = ct.full((), 0, dtype=ct.int32)
    res = ct.load(arrays[bid], (0, 0), (16, 16)) + ct.load(arrays[bid + 1], (0, 0), (16, 16))
    ct.store(out, (0, 0), res)


# tilescope: args list[f16[?,?]], f32[16,16]
# expect: ok
@ct.kernel
def list_element_dtype_flows(arrays, out):
    t = ct.load(arrays[0], (0, 0), (16, 16))
    print(t)
    ct.store(out, (0, 0), t)


# tilescope: args list[f32[?]], f32[16]
# expect: TileTypeError @ 166
@ct.kernel
def list_index_with_1d_tile(arrays, out):
    idx = ct.zeros((2,), dtype=ct.int32)
    ct.load(arrays[idx], (0,), (16,))


# tilescope: args list[f32[?]], f32[16]
# expect: TileTypeError @ 173
@ct.kernel
def list_item_assignment(arrays, out):
    arrays[0] = out


# tilescope: args list[f32[?]], f32[16]
# expect: ok
@ct.kernel
def list_len_is_runtime(arrays, out):
    n = len(arrays)
    print(n)


# tilescope: args f32[4]
# expect: TileStaticEvalError @ 188
@ct.kernel
def kwargs_dict_equality(x):
    ct.static_assert(_kw_helper(foo=123, bar=456) == 789)


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def kwargs_forwarding(x):
    ct.static_assert(_forward(_leaf, foo=4, bar=5) == 345)


# tilescope: args f32[4]
# expect: TileStaticEvalError @ 202
@ct.kernel
def kwargs_get_and_contains(x):
    ct.static_assert(_dict_access(foo=123, bar=456) == 2)


# tilescope: args f32[4]
# expect: TileTypeError @ 29
# expect-match: Key 'qux' not found in dictionary
@ct.kernel
def kwargs_missing_key(x):
    _dict_miss(foo=123, bar=456)


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def kwargs_hold_tiles(x):
    t = _forward(_leaf, foo=ct.load(x, (0,), (4,)), bar=1)
    print(t)


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def kwargs_dict_equality_result(x):
    r = _kw_helper(foo=123, bar=456)
    ct.static_assert(r == 789)


# tilescope: args f32[4]
# expect: TileTypeError @ 25
@ct.kernel
def kwargs_get_and_contains_result(x):
    n = _dict_access(foo=123, bar=456)
    ct.static_assert(n == 2)
