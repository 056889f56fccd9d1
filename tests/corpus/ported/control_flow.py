# Loops, branches, break/continue, early return, undefined variables.
# Semantics ported from upstream test_control_flow.py.
import cuda.tile as ct


# tilescope: args f32[256], i32, 128
# expect: ok
@ct.kernel
def for_range_one_arg(x, n, tile: ct.Constant[int]):
    xi = ct.load(x, index=(ct.bid(0),), shape=(tile,))
    for _ in range(n):
        xi += 1
    ct.store(x, index=(ct.bid(0),), tile=xi)


# tilescope: args f32[256], i32, 128
# expect: ok
@ct.kernel
def for_range_step_two(x, n, tile: ct.Constant[int]):
    xi = ct.load(x, index=(ct.bid(0),), shape=(tile,))
    for _ in range(0, n * 2, 2):
        xi += 1
    ct.store(x, index=(ct.bid(0),), tile=xi)


# tilescope: args f32[256], i32, 128
# expect: ok
@ct.kernel
def two_loops_constant_then_runtime_start(x, n, tile: ct.Constant[int]):
    xi = ct.load(x, index=(ct.bid(0),), shape=(tile,))
    k = 2
    for _ in range(k):
        xi += 1
    for _ in range(k, n):
        xi += 1
    ct.store(x, index=(ct.bid(0),), tile=xi)


# tilescope: args f32[256], i32, 128
# expect: ok
@ct.kernel
def scalar_accumulator_feeds_full(x, n, tile: ct.Constant[int]):
    acc = 0
    for _ in range(n):
        acc += 1
    ct.store(x, index=(ct.bid(0),), tile=ct.full((tile,), acc, dtype=x.dtype))


# tilescope: args f32[256], i32, 128
# expect: ok
@ct.kernel
def nested_loops_two_carried(x, n, tile: ct.Constant[int]):
    xi = ct.load(x, index=(ct.bid(0),), shape=(tile,))
    xi2 = ct.load(x, index=(ct.bid(0),), shape=(tile,))
    for a in range(n):
        xi += 1
        for b in range(n):
            xi2 += 1
    ct.store(x, index=(ct.bid(0),), tile=xi + xi2)


# tilescope: args f32[256], i32, 128
# expect: ok
@ct.kernel
def nested_break_continue(x, n, tile: ct.Constant[int]):
    xi = ct.load(x, index=(ct.bid(0),), shape=(tile,))
    for index in range(n):
        for inner in range(n):
            if inner == 2:
                break
        if index == 2:
            continue
        elif index > 4:
            break
        xi += 1
    ct.store(x, index=(ct.bid(0),), tile=xi)


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def tuple_carried_fibonacci(x):
    t = ct.load(x, index=(0,), shape=(1,)), ct.load(x, index=(1,), shape=(1,))
    for i in range(5):
        t = t[1], t[0] + t[1]
    ct.store(x, index=(2,), tile=t[1])


# tilescope: args f32[256], i32, 128
# expect: ok
@ct.kernel
def while_break_and_continue(x, n, tile: ct.Constant[int]):
    xi = ct.load(x, index=(ct.bid(0),), shape=(tile,))
    count = 0
    while count < n:
        count += 1
        if count > 2:
            continue
        if count == 7:
            break
        xi += 1
    ct.store(x, index=(ct.bid(0),), tile=xi)


# tilescope: args f32[1]
# expect: ok
@ct.kernel
def constant_assigned_in_loop_not_propagated(x):
    a = ct.bid(0) + 3.0
    while ct.bid(0) == 1:
        a = 10.0
        break
    ct.store(x, (0,), ct.full((1,), a, x.dtype))


# tilescope: args f32[1]
# expect: ok
@ct.kernel
def same_constant_on_both_loop_exits(x):
    a = 0
    while True:
        if ct.bid(0) == 0:
            a = 1
            break
        a = 1
        break
    ct.store(x, (0,), ct.full((a,), 3.0, x.dtype))


# tilescope: args f32[1]
# expect: TileTypeError @ 142
# expect-match: Expected a const
@ct.kernel
def different_constants_on_loop_exits(x):
    a = 0
    while True:
        if ct.bid(0) == 0:
            a = 1
            break
        a = 2
        break
    ct.store(x, (0,), ct.full((a,), 3.0, x.dtype))


# tilescope: args i32[1]
# expect: ok
@ct.kernel
def break_value_is_constant(x):
    a = 0
    while True:
        if ct.bid(0) == 0:
            a = 1
            break
        a += 1
    ct.store(x, (0,), ct.full((a,), 1.0, ct.int32))


# tilescope: args f32[256], b8, 128
# expect: ok
# tilescope: args f32[256], True, 128
# expect: ok
# tilescope: args f32[256], 0, 128
# expect: ok
@ct.kernel
def if_on_parameter(x, condition, tile: ct.Constant[int]):
    xi = ct.load(x, index=(ct.bid(0),), shape=(tile,))
    if condition:
        xi += 1
    else:
        xi -= 1
    ct.store(x, index=(ct.bid(0),), tile=xi)


# tilescope: args f32[256], b8, b8, 128
# expect: ok
# tilescope: args f32[256], i32, b8, 128
# expect: ok
@ct.kernel
def boolean_and_or_conditions(x, c0, c1, tile: ct.Constant[int]):
    xi = ct.load(x, index=(ct.bid(0),), shape=(tile,))
    if c0 and c1:
        xi += 1
    cond = c0 or c1
    if cond:
        xi += 1
    if c0 and (c1 or ct.bid(0) > 50):
        xi += 1
    ct.store(x, index=(ct.bid(0),), tile=xi)


# tilescope: args f32[256], b8, 128
# expect: ok
@ct.kernel
def conditional_expression_same_type(x, c0, tile: ct.Constant[int]):
    xi = ct.load(x, index=(ct.bid(0),), shape=(tile,))
    xi = xi + 1 if c0 else xi - 1
    ct.store(x, index=(ct.bid(0),), tile=xi)


# tilescope: args f32[256], b8, 128
# expect: TileTypeError @ 205
@ct.kernel
def conditional_expression_type_mismatch(x, c0, tile: ct.Constant[int]):
    xi = ct.load(x, index=(ct.bid(0),), shape=(tile,))
    xi = c0 if c0 else xi - 1
    ct.store(x, index=(ct.bid(0),), tile=xi)


# tilescope: args f32[256], i32, 128
# expect: ok
@ct.kernel
def conditional_expression_scalar_and_constant(x, c0, tile: ct.Constant[int]):
    xi = ct.load(x, index=(ct.bid(0),), shape=(tile,))
    cond = c0 if c0 else 100
    xi += cond
    ct.store(x, index=(ct.bid(0),), tile=xi)


# tilescope: args f32[256], i32, i32, 128
# expect: ok
@ct.kernel
def chained_comparison(x, left, right, tile: ct.Constant[int]):
    i = ct.bid(0)
    xi = ct.load(x, index=(i,), shape=(tile,))
    if left < i < right:
        xi += 1
    ct.store(x, index=(i,), tile=xi)


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def tuple_result_of_if(x):
    t = ct.load(x, index=(0,), shape=(1,))
    if ct.bid(0) > 0:
        a = t, t
    else:
        a = t + 3, t + 5
    ct.store(x, index=(1,), tile=a[0])
    ct.store(x, index=(2,), tile=a[1])


# tilescope: args i32[4], i32[4]
# expect: ok
@ct.kernel
def array_result_of_if(x, y):
    if ct.bid(0) == 0:
        a = x
    else:
        a = y
    ct.store(a, index=(0,), tile=ct.full((1,), ct.bid(0) + 10, dtype=x.dtype))


# tilescope: args f32[256], f32[256], 128
# expect: ok
@ct.kernel
def branch_local_unused_after(x, y, tile: ct.Constant[int]):
    i = ct.bid(0)
    xi = ct.load(x, index=(i,), shape=(tile,))
    for _ in range(10):
        if i == 0:
            acc = ct.load(x, index=(i,), shape=(tile,))
            yi = acc + xi
        else:
            yi = xi
        ct.store(y, index=(i,), tile=yi)


# tilescope: args f32[256], f32[256], 128
# expect: TileTypeError @ 275
@ct.kernel
def branch_local_used_after(x, y, tile: ct.Constant[int]):
    i = ct.bid(0)
    xi = ct.load(x, index=(i,), shape=(tile,))
    if i == 0:
        acc = ct.load(y, index=(i,), shape=(tile,))
        yi = acc + xi
    else:
        yi = xi
    yi += acc
    ct.store(y, index=(i,), tile=yi)


# tilescope: args f32[1]
# expect: ok
@ct.kernel
def same_constant_both_branches(x):
    if ct.bid(0) == 1:
        a = 1
    else:
        a = 1
    ct.store(x, (0,), ct.full((a,), 3.0, x.dtype))


# tilescope: args f32[1]
# expect: TileTypeError @ 304
# expect-match: Expected a const
@ct.kernel
def different_constant_both_branches(x):
    if ct.bid(0) == 1:
        a = 1
    else:
        a = 2
    ct.store(x, (0,), ct.full((a,), 3.0, x.dtype))


# tilescope: args f32[8,16,16], f32[8,16,16]
# expect: ok
@ct.kernel
def triple_nested_loops_with_python_max(inp, out):
    max_val = ct.full((1, 1, 1), ct.float32("-inf"), dtype=ct.float32)
    for d in range(1):
        for h in range(1):
            for w in range(1):
                if d >= 0 and h >= 0 and w >= 0:
                    val = ct.load(inp, index=(d, h, w), shape=(1, 1, 1))
                    max_val = max(max_val, val)
    ct.store(out, index=(ct.bid(0), ct.bid(1), ct.bid(2)), tile=max_val)


# tilescope: args f32[64,16], f32[64,1], f32[64,16], 16, 16, b8
# expect: ok
@ct.kernel
def early_return_on_flag(x, y, out, B: ct.Constant[int], N: ct.Constant[int], early):
    tx = ct.load(x, index=(ct.bid(0), 0), shape=(B, N))
    ty = ct.load(y, index=(ct.bid(0), 0), shape=(B, 1))
    if early:
        return
    ct.store(out, index=(ct.bid(0), 0), tile=tx + ty)


# tilescope: args i32[]
# expect: ok
@ct.kernel
def tuple_first_defined_inside_loop(x):
    i = 0
    while True:
        if i > 0:
            tx = ct.gather(x, ()) + i
            tx2 = (tx, tx)
            break
        i += 10
    ct.scatter(x, (), tx2[0])


# tilescope: args f32[4], i32
# expect: TileSyntaxError @ 350
@ct.kernel
def match_statement(x, option):
    match option:
        case 0:
            pass
        case _:
            pass


# tilescope: args f32[4], i32
# expect: ok
@ct.kernel
def loop_variable_after_loop(x, n):
    i = 0
    for i in range(n):
        pass
    print(i)


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def while_with_tile_condition(x):
    t = ct.load(x, (0,), (4,))
    while ct.sum(t) < 100.0:
        t = t * 2.0
    print(t)


# tilescope: args f32[4]
# expect: TileTypeError @ 382
@ct.kernel
def if_on_non_scalar_tile(x):
    t = ct.load(x, (0,), (4,))
    if t > 0:
        t = t + 1
    print(t)


# tilescope: args f32[4]
# expect: TileTypeError @ 393
@ct.kernel
def loop_carried_shape_changes(x):
    t = ct.load(x, (0,), (4,))
    for i in range(3):
        t = ct.reshape(t, (2, 2))
    print(t)
