import cuda.tile as ct


# tilescope: args f32[1024], f32[64]
# expect: ok
@ct.kernel
def for_carried_accumulator(x, y):
    acc = ct.zeros((64,), dtype=ct.float32)
    for i in range(16):
        acc += ct.load(x, index=(i,), shape=(64,))
    ct.store(y, index=(0,), tile=acc)


# tilescope: args f32[1024], f32[64], i32
# expect: ok
@ct.kernel
def for_dynamic_bounds_step(x, y, n):
    acc = ct.zeros((64,), dtype=ct.float32)
    cnt = 0
    for i in range(1, n, 2):
        acc = acc + ct.load(x, index=(i,), shape=(64,))
        cnt = cnt + 1
    ct.store(y, index=(0,), tile=acc / cnt)


# tilescope: args i32[1], i32
# expect: ok
@ct.kernel
def while_loop(out, n):
    i = 0
    s = 0
    while i < n:
        s = s + i
        i = i + 1
    ct.store(out, index=(0,), tile=ct.full((1,), s, dtype=ct.int32))


# tilescope: args f32[64], f32[64], i32
# expect: ok
@ct.kernel
def if_elif_else_dynamic(x, y, mode):
    t = ct.load(x, index=(0,), shape=(64,))
    if mode == 0:
        r = t + 1
    elif mode == 1:
        r = t * 2
    else:
        r = -t
    ct.store(y, index=(0,), tile=r)


# tilescope: args f32[64], f32[64], 1
# expect: ok
# tilescope: args f32[64], f32[64], 7
# expect: ok
@ct.kernel
def if_constant_folded(x, y, MODE: ct.Constant[int]):
    t = ct.load(x, index=(0,), shape=(64,))
    if MODE == 1:
        r = t.astype(ct.float16)
    else:
        r = t
    ct.store(y, index=(0,), tile=r)


# tilescope: args f32[1024], f32[64], i32
# expect: ok
@ct.kernel
def for_break_continue(x, y, limit):
    acc = ct.zeros((64,), dtype=ct.float32)
    for i in range(16):
        if i == 3:
            continue
        if i >= limit:
            break
        acc = acc + ct.load(x, index=(i,), shape=(64,))
    ct.store(y, index=(0,), tile=acc)


# tilescope: args f32[64], i32
# expect: ok
@ct.kernel
def early_return(x, n):
    if n < 0:
        return
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(x, index=(0,), tile=t + 1)


# tilescope: args f32[64,64], f32[64,64], i32, i32
# expect: ok
@ct.kernel
def nested_loops(x, y, m, n):
    for i in range(m):
        acc = ct.zeros((8, 8), dtype=ct.float32)
        for j in range(n):
            acc = acc + ct.load(x, index=(i, j), shape=(8, 8))
        ct.store(y, index=(i, 0), tile=acc)


# tilescope: args i32[1], i32
# expect: ok
@ct.kernel
def while_with_break(out, n):
    i = 0
    while True:
        if i * i > n:
            break
        i += 1
    ct.store(out, index=(0,), tile=ct.full((1,), i, dtype=ct.int32))


# tilescope: args f32[64], f32[64], i32
# expect: ok
@ct.kernel
def ternary_expression(x, y, n):
    t = ct.load(x, index=(0,), shape=(64,))
    s = 2.0 if n > 0 else 0.5
    ct.store(y, index=(0,), tile=t * s)


# tilescope: args f32[64], f32[64], i32
# expect: ok
@ct.kernel
def boolean_ops_scalar(x, y, n):
    t = ct.load(x, index=(0,), shape=(64,))
    if n > 0 and n < 10 or not (n != 42):
        t = t + 1
    ct.store(y, index=(0,), tile=t)


# tilescope: args f32[64], f32[64], i32
# expect: TileTypeError @ 138
@ct.kernel
def loop_carried_dtype_change(x, y, n):
    acc = ct.zeros((64,), dtype=ct.float16)
    for i in range(n):
        acc = acc + ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=acc)


# tilescope: args f32[64], f32[64], i32
# expect: TileTypeError @ 148
@ct.kernel
def loop_carried_shape_change(x, y, n):
    acc = ct.zeros((32,), dtype=ct.float32)
    for i in range(n):
        acc = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=acc)


# tilescope: args f32[64], f32[64], i32
# expect: TileTypeError @ 159
@ct.kernel
def if_branches_type_mismatch(x, y, n):
    if n > 0:
        r = ct.zeros((64,), dtype=ct.float32)
    else:
        r = ct.zeros((64,), dtype=ct.int32)
    ct.store(y, index=(0,), tile=r)


# tilescope: args f32[64], f32[64], i32
# expect: TileTypeError @ 167
@ct.kernel
def var_defined_in_one_branch(x, y, n):
    if n > 0:
        r = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=r)


# tilescope: args f32[64], f32[64]
# expect: TileTypeError @ 177
@ct.kernel
def if_on_tile_condition(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    if t > 0:
        t = t + 1
    ct.store(y, index=(0,), tile=t)
