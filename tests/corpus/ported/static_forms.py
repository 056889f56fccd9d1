# ct.static_assert / ct.static_eval / ct.static_iter: accepted forms and diagnostics.
# Semantics ported from upstream test_static_assert.py, test_static_eval.py, test_static_iter.py.
import cuda.tile as ct
import cuda.tile


def _factorial(n):
    ret = 1
    for i in range(1, n + 1):
        ret *= i
    return ret


def _global_plus_one(x):
    return x + 1


# tilescope: args i32[], 4
# expect: ok
# tilescope: args i32[], 7
# expect: TileStaticAssertionError @ 25
# expect-match: Static assertion failed
@ct.kernel
def assert_on_python_helper(x, n: ct.Constant):
    ct.static_assert(_factorial(n) < 100)
    ct.scatter(x, (), n)


# tilescope: args i32[], 7
# expect: TileStaticAssertionError @ 33
@ct.kernel
def assert_full_module_spelling(x, n: ct.Constant):
    cuda.tile.static_assert(_factorial(n) < 100)


# tilescope: args i32[], 7
# expect: TileStaticAssertionError @ 41
# expect-match: 7! = 5040, that's too much
@ct.kernel
def assert_fstring_message(x, n: ct.Constant):
    ct.static_assert(_factorial(n) < 100, f"{n}! = {_factorial(n)}, that's too much")


# tilescope: args i32[], 1
# expect: TileStaticAssertionError @ 48
@ct.kernel
def assert_empty_message(x, n: ct.Constant):
    ct.static_assert(False, "")


# tilescope: args i32[], 1
# expect: TileStaticAssertionError @ 56
# expect-match: <array\[int32, \(\)\]>
@ct.kernel
def assert_message_is_array(x, n: ct.Constant):
    ct.static_assert(False, x)


# tilescope: args i32[]
# expect: TileSyntaxError @ 65
# expect-match: static_assert\(\) must be used directly
@ct.kernel
def assert_called_indirectly(y):
    f = ct.static_assert
    f(1 * 2)


# tilescope: args i32[], 3
# expect: TileTypeError @ 73
# expect-match: static_assert\(\) condition must be a boolean
@ct.kernel
def assert_non_bool_condition(y, n: ct.Constant):
    ct.static_assert(n)


# tilescope: args i32[], i32
# expect: TileTypeError @ 82
# expect-match: must be a compile-time constant
@ct.kernel
def assert_runtime_condition(y, n):
    cond = n > 2
    ct.static_assert(cond)


# tilescope: args i32[]
# expect: TileStaticEvalError @ 90
# expect-match: ones\(\) cannot be called inside static_assert\(\)
@ct.kernel
def assert_calls_tile_function(y):
    ct.static_assert(ct.ones((4,), dtype=ct.int32).dtype == ct.int32)


# tilescope: args i32[]
# expect: TileSyntaxError @ 98
# expect-match: expects one or two positional arguments
@ct.kernel
def assert_too_many_args(y):
    ct.static_assert(True, "message", 123)


# tilescope: args i32[]
# expect: TileStaticEvalError @ 106
# expect-match: static_assert\(\) cannot be used inside static_eval\(\)
@ct.kernel
def assert_inside_static_eval(x):
    ct.static_eval(ct.static_assert(20))


# tilescope: args i32[2]
# expect: ok
@ct.kernel
def eval_sum_of_tuple(y):
    tup = (1, 2, 3)
    s1 = ct.static_eval(sum(tup))
    s2 = cuda.tile.static_eval(sum([i * i for i in tup]))
    ct.static_assert(s1 == 6 and s2 == 14)
    ct.scatter(y, 0, s1)


# tilescope: args i32[]
# expect: ok
@ct.kernel
def eval_picks_tile_from_tuple(y):
    t = ct.gather(y, ())
    s = ct.static_eval((1, t, 3)[1])
    ct.scatter(y, (), s + 5)


# tilescope: args i32[4], 0
# expect: ok
# tilescope: args i32[4], 1
# expect: ok
@ct.kernel
def eval_chooses_dynamic_tile(x, n: ct.Constant):
    a = ct.gather(x, 0) + 10
    b = ct.gather(x, 1).astype(ct.int64)
    t = ct.static_eval(a if n == 0 else b)
    print(t)


# tilescope: args i32[4,8]
# expect: ok
@ct.kernel
def eval_tile_shape_and_dtype(x):
    tile = ct.load(x, (0, 0), (4, 8))
    shape = ct.static_eval(tile.shape)
    dtype = ct.static_eval(tile.dtype)
    ct.static_assert(shape == (4, 8))
    ct.scatter(x, (0, 1), shape[1].astype(dtype))


# tilescope: args i32[4,8]
# expect: ok
@ct.kernel
def eval_array_shape_is_symbolic(x):
    shape = ct.static_eval(x.shape)
    ct.scatter(x, (0, 1), shape[1].astype(ct.static_eval(x.dtype)))


# tilescope: args i32[4,8]
# expect: ok
@ct.kernel
def eval_calls_global_function(x):
    t = ct.load(x, (0, 0), (4, 8))
    f = _global_plus_one
    v = ct.static_eval(f(t.shape[0]))
    ct.static_assert(v == 5)


# tilescope: args i32[4]
# expect: TileStaticEvalError @ 177
# expect-match: cannot be called inside static_eval\(\)
@ct.kernel
def eval_calls_nested_function(x):
    def f(n):
        return n + 1
    ct.static_eval(f(3))


# tilescope: args i32[4]
# expect: TileStaticEvalError @ 186
@ct.kernel
def eval_inside_nested_function(x):
    def f(n):
        return ct.static_eval(x.ndim + n)
    ct.static_assert(f(20) == 21)


# tilescope: args i32[]
# expect: TileSyntaxError @ 195
# expect-match: static_eval\(\) must be used directly
@ct.kernel
def eval_called_indirectly(y):
    f = ct.static_eval
    f(1 * 2)


# tilescope: args i32[]
# expect: TileStaticEvalError @ 203
# expect-match: scatter\(\) cannot be called inside static_eval\(\)
@ct.kernel
def eval_calls_scatter(y):
    ct.static_eval(ct.scatter(y, (), 1))


# tilescope: args i32[]
# expect: ok
@ct.kernel
def eval_pure_binary_ops_on_tiles(y):
    lhs = ct.bid(0) + 15
    rhs = ct.bid(1) + 4
    a = ct.static_eval(lhs // rhs)
    b = ct.static_eval(lhs % rhs)
    c = ct.static_eval(ct.maximum(lhs, rhs))
    d = ct.static_eval(lhs << rhs)
    e = ct.static_eval(lhs >= rhs)
    f = ct.static_eval(lhs / rhs)
    print(a, b, c, d, e, f)


# tilescope: args i32[]
# expect: TileStaticEvalError @ 226
# expect-match: static_eval\(\) cannot be used inside static_eval\(\)
@ct.kernel
def eval_nested(x):
    ct.static_eval(ct.static_eval(20))


# tilescope: args 0
# expect: StaticException @ 234
# expect-match: ZeroDivisionError
@ct.kernel
def eval_raises(n: ct.Constant):
    ct.static_eval(1 // n)


# tilescope: args i32[]
# expect: TileSyntaxError @ 242
# expect-match: static_eval\(\) expects a single expression
@ct.kernel
def eval_two_args(x):
    ct.static_eval(3, 5)


# tilescope: args i32[8]
# expect: ok
@ct.kernel
def eval_returns_bound_method(x):
    f = ct.static_eval(x.slice)
    sub = f(0, 1, 2)
    ct.scatter(x, 0, ct.gather(sub, 0))


# tilescope: args i32[4]
# expect: ok
@ct.kernel
def eval_returns_tile_method(x):
    t = ct.load(x, (0,), (4,))
    f = ct.static_eval(t.reshape)
    print(f((2, 2)))


# tilescope: args i32[8]
# expect: TileStaticEvalError @ 268
# expect-match: slice\(\) cannot be called inside static_eval\(\)
@ct.kernel
def eval_calls_bound_method(x):
    ct.static_eval(x.slice(0, 1, 2))


# tilescope: args f32[64], f32[16]
# expect: ok
@ct.kernel
def iter_enumerate_tiles(x, y):
    tiles = ct.load(x, (0,), (16,)), ct.load(x, (1,), (16,)), ct.load(x, (2,), (16,))
    s = ct.zeros((16,), dtype=x.dtype)
    for i, t in ct.static_iter(enumerate(tiles, 1)):
        s += i * t
    ct.store(y, (0,), s)


# tilescope: args f32[64], f32[16]
# expect: ok
@ct.kernel
def iter_range_indexes_tuple(x, y):
    tiles = ct.load(x, (0,), (16,)), ct.load(x, (1,), (16,))
    s = ct.zeros((16,), dtype=x.dtype)
    for i in ct.static_iter(range(len(tiles))):
        s += (i + 1) * tiles[i]
    ct.store(y, (0,), s)


# tilescope: args i32[4]
# expect: TileSyntaxError @ 300
# expect-match: Continue in a for loop with static_iter\(\) is not supported
@ct.kernel
def iter_continue(x):
    for i in ct.static_iter(range(3)):
        if i == 1:
            continue
        ct.scatter(x, i, 1)


# tilescope: args i32[4]
# expect: TileSyntaxError @ 311
# expect-match: Break in a for loop with static_iter\(\) is not supported
@ct.kernel
def iter_break(x):
    for i in ct.static_iter(range(3)):
        if i == 1:
            break
        ct.scatter(x, i, 1)


# tilescope: args i32[4]
# expect: TileSyntaxError @ 321
@ct.kernel
def iter_return(x):
    for i in ct.static_iter(range(3)):
        if i == 1:
            return
        ct.scatter(x, i, 1)


# tilescope: args i32[4]
# expect: TileStaticEvalError @ 330
# expect-match: ones\(\) cannot be called inside static_iter\(\) iterable
@ct.kernel
def iter_over_tile_op(x):
    for i in ct.static_iter(ct.ones((4,), dtype=ct.int32)):
        ct.scatter(x, i, 1)


# tilescope: args i32[4]
# expect: TileStaticEvalError @ 339
# expect-match: Maximum number of iterations \(1000\)
@ct.kernel
def iter_too_many(x):
    for i in ct.static_iter(range(1000000)):
        ct.scatter(x, i, 1)


# tilescope: args i32[4]
# expect: TileTypeError @ 348
# expect-match: 'int' object is not iterable
@ct.kernel
def iter_non_iterable(x):
    for i in ct.static_iter(42):
        ct.scatter(x, i, 1)


# tilescope: args i32[4]
# expect: TileStaticEvalError @ 357
# expect-match: Invalid item #0 of static_iter\(\) iterable
@ct.kernel
def iter_list_items(x):
    for i in ct.static_iter(([1, 2], [3, 4])):
        ct.scatter(x, 0, i)


# tilescope: args i32[4]
# expect: TileSyntaxError @ 367
# expect-match: static_iter\(\) must be used directly by name
@ct.kernel
def iter_called_indirectly(x):
    f = ct.static_iter
    for i in f(range(3)):
        ct.scatter(x, i, 1)


# tilescope: args i32[4], i32
# expect: StaticException @ 376
# expect-match: Symbolic tile has no concrete value
@ct.kernel
def iter_runtime_bound(x, n):
    for i in ct.static_iter(range(n)):
        ct.scatter(x, i, 1)


# tilescope: args f32[4,48], f32[48]
# expect: ok
@ct.kernel
def iter_with_inner_dynamic_loop_and_while(x, y):
    for col in ct.static_iter(range(3)):
        s = ct.zeros((16,), dtype=x.dtype)
        row = 0
        while row < 4:
            t = ct.load(x, (row, col), (1, 16)).reshape((16,))
            s += t
            if ct.sum(t) == 0:
                break
            row += 1
        ct.store(y, (col,), s)


# tilescope: args f32[64], f32[96]
# expect: ok
@ct.kernel
def iter_builds_tuple(x, y):
    tiles = (ct.load(x, (0,), (16,)), ct.load(x, (1,), (16,)))
    doubled = ()
    for t in ct.static_iter(tiles):
        doubled += (t, t * 2)
    ct.static_assert(len(doubled) == 4)
    for i, d in ct.static_iter(enumerate(doubled)):
        ct.store(y, (i,), d)


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def iter_mixed_item_types(x):
    t = 0.0
    for i, val in ct.static_iter(enumerate([2, 3.0, True])):
        t += val
        ct.scatter(x, i, t)


# tilescope: args i32[4]
# expect: ok
@ct.kernel
def eval_inside_nested_function_result(x):
    def f(n):
        return ct.static_eval(x.ndim + n)
    v = f(20)
    ct.static_assert(v == 21)
    ct.scatter(x, 0, v)
