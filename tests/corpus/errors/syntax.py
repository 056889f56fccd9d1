import cuda.tile as ct


# tilescope: args f32[64]
# expect: TileSyntaxError @ 8
@ct.kernel
def list_literal(x):
    vals = [1, 2, 3]
    ct.store(x, index=(0,), tile=ct.full((64,), vals[0], dtype=ct.float32))


# tilescope: args f32[64], i32
# expect: TileSyntaxError @ 16
@ct.kernel
def walrus(x, n):
    if (m := n + 1) > 0:
        ct.store(x, index=(0,), tile=ct.full((64,), m, dtype=ct.float32))


# tilescope: args f32[64]
# expect: TileSyntaxError @ 24
@ct.kernel
def try_except(x):
    try:
        t = ct.load(x, index=(0,), shape=(64,))
    except Exception:
        t = ct.zeros((64,), dtype=ct.float32)
    ct.store(x, index=(0,), tile=t)


# tilescope: args f32[64], i32
# expect: TileSyntaxError @ 35
@ct.kernel
def assert_statement(x, n):
    assert n > 0
    ct.store(x, index=(0,), tile=ct.zeros((64,), dtype=ct.float32))


# tilescope: args f32[64]
# expect: TileTypeError @ 45
# expect-match: Expected a range object
@ct.kernel
def for_over_tuple(x):
    acc = ct.zeros((64,), dtype=ct.float32)
    for v in (1.0, 2.0):
        acc = acc + v
    ct.store(x, index=(0,), tile=acc)


# tilescope: args f32[64]
# expect: TileSyntaxError @ 54
@ct.kernel
def dict_literal(x):
    d = {"a": 1.0}
    ct.store(x, index=(0,), tile=ct.full((64,), d["a"], dtype=ct.float32))


# tilescope: args f32[64]
# expect: TileSyntaxError @ 62
@ct.kernel
def list_comprehension(x):
    vals = [i for i in range(4)]
    ct.store(x, index=(0,), tile=ct.zeros((64,), dtype=ct.float32))


# tilescope: args f32[64]
# expect: TileSyntaxError @ 70
@ct.kernel
def global_statement(x):
    global _G
    _G = 1
    ct.store(x, index=(0,), tile=ct.zeros((64,), dtype=ct.float32))


# tilescope: args f32[64], i32
# expect: TileSyntaxError @ 80
@ct.kernel
def raise_runtime_exception(x, n):
    if n > 0:
        raise ValueError("nope")
    ct.store(x, index=(0,), tile=ct.zeros((64,), dtype=ct.float32))


# tilescope: args f32[64]
# expect: TileSyntaxError @ 91
@ct.kernel
def for_else(x):
    for i in range(4):
        pass
    else:
        ct.store(x, index=(0,), tile=ct.zeros((64,), dtype=ct.float32))


# tilescope: args f32[64]
# expect: TileSyntaxError @ 98
@ct.kernel
def yield_in_kernel(x):
    yield 1


# tilescope: args f32[64]
# expect: TileSyntaxError @ 105
@ct.kernel
def set_literal(x):
    s = {1, 2}
    ct.store(x, index=(0,), tile=ct.zeros((64,), dtype=ct.float32))


# tilescope: args f32[64]
# expect: TileSyntaxError @ 114
@ct.kernel
def del_statement(x):
    t = ct.load(x, index=(0,), shape=(64,))
    del t
    ct.store(x, index=(0,), tile=ct.zeros((64,), dtype=ct.float32))


# tilescope: args f32[64], i32
# expect: TileSyntaxError @ 125
@ct.kernel
def while_else(x, n):
    while n > 0:
        n = n - 1
    else:
        n = 5
    ct.store(x, index=(0,), tile=ct.full((64,), n, dtype=ct.float32))


# tilescope: args f32[64]
# expect: TileSyntaxError @ 133
@ct.kernel
def import_in_kernel(x):
    import math
    ct.store(x, index=(0,), tile=ct.zeros((64,), dtype=ct.float32))
