import enum
import math

import cuda.tile as ct

BLOCK = 64
SCALE = 0.125
DTYPES = (ct.float16, ct.float32)


# tilescope: args f32[1024], f32[1024]
# expect: ok
@ct.kernel
def global_constants(x, y):
    t = ct.load(x, index=(ct.bid(0),), shape=(BLOCK,))
    ct.store(y, index=(ct.bid(0),), tile=t * SCALE)


# tilescope: args f32[1024], f32[1024], 128
# expect: ok
# tilescope: args f32[1024], f32[1024], 32
# expect: ok
@ct.kernel
def static_eval_math(x, y, TILE: ct.Constant[int]):
    half = ct.static_eval(TILE // 2)
    lg = ct.static_eval(int(math.log2(TILE)))
    t = ct.load(x, index=(0,), shape=(half,))
    ct.store(y, index=(0,), tile=t + lg)


# tilescope: args f32[64], 64
# expect: ok
# tilescope: args f32[64], 48
# expect: TileStaticAssertionError @ 38
# expect-match: TILE must be a power of two
@ct.kernel
def static_assert_pow2(x, TILE: ct.Constant[int]):
    ct.static_assert(TILE & (TILE - 1) == 0, "TILE must be a power of two")
    t = ct.load(x, index=(0,), shape=(TILE,))
    ct.store(x, index=(0,), tile=t)


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def static_iter_unrolled(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    acc = ct.zeros((64,), dtype=ct.float32)
    for k in ct.static_iter(range(4)):
        acc = acc + t * (k + 1)
    for dt in ct.static_iter(DTYPES):
        acc = acc + t.astype(dt).astype(ct.float32)
    ct.store(y, index=(0,), tile=acc)


# tilescope: args f32[64], 1
# expect: ok
# tilescope: args f32[64], 0
# expect: StaticException @ 64
# expect-match: MODE must be 1
@ct.kernel
def static_exception_branch(x, MODE: ct.Constant[int]):
    if MODE != 1:
        raise ct.static_exception(ValueError("MODE must be 1"))
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(x, index=(0,), tile=t)


# tilescope: args f32[64], 16
# expect: ok
@ct.kernel
def ensure_constant_fold(x, N: ct.Constant[int]):
    if ct.ensure_constant(N > 8):
        t = ct.load(x, index=(0,), shape=(N,))
    else:
        t = ct.zeros((N,), dtype=ct.float32)
    ct.store(x, index=(0,), tile=t)


# tilescope: args f32[64]
# expect: TileStaticAssertionError @ 85
# expect-match: not a compile-time constant
@ct.kernel
def ensure_constant_runtime(x):
    ct.ensure_constant(ct.bid(0))


# tilescope: args f32[?], f32[?], i32
# expect: ok
@ct.kernel
def assume_divisible(x, y, n):
    m = ct.assume_divisible_by(n, 16)
    sub = x.slice(axis=0, start=0, stop=m)
    t = ct.load(sub, index=(ct.bid(0),), shape=(16,))
    ct.store(y, index=(ct.bid(0),), tile=t)


# tilescope: args f32[64], True
# expect: ok
# tilescope: args f32[64], False
# expect: ok
@ct.kernel
def constant_bool_param(x, FLAG: ct.Constant[bool]):
    t = ct.load(x, index=(0,), shape=(64,))
    if FLAG:
        t = t * 2
    ct.store(x, index=(0,), tile=t)


# tilescope: args f32[64], 2.5
# expect: ok
@ct.kernel
def constant_float_param(x, ALPHA: ct.Constant[float]):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(x, index=(0,), tile=t * ALPHA)


# tilescope: args f32[64], f32[64], 16
# expect: ok
@ct.kernel
def constant_unannotated_param(x, y, tile):
    # a plain Python int argument is a compile-time constant even without annotation
    t = ct.load(x, index=(0,), shape=(tile,))
    ct.store(y, index=(0,), tile=t)


# tilescope: args f32[64], f32[64], (16, 32)
# expect: ok
@ct.kernel
def constant_tuple_param(x, y, shape):
    t = ct.load(x, index=(0,), shape=(shape[1],))
    ct.store(y, index=(0,), tile=t)


# tilescope: args f32[64], i32
# expect: TileTypeError @ 140
# expect-match: must be a compile-time constant
@ct.kernel
def static_assert_on_runtime(x, n):
    ct.static_assert(n > 0)


# tilescope: args f32[64]
# expect: StaticException @ 148
# expect-match: ZeroDivisionError
@ct.kernel
def static_eval_raises(x):
    v = ct.static_eval(1 // 0)
    ct.store(x, index=(0,), tile=ct.full((64,), v, dtype=ct.float32))


# tilescope: args f32[64]
# expect: ok
@ct.kernel
def static_eval_on_tile_proxy(x):
    t = ct.load(x, index=(0,), shape=(64,))
    v = ct.static_eval(t + 1)
    ct.store(x, index=(0,), tile=v)


# tilescope: args f32[64]
# expect: TileSyntaxError @ 167
@ct.kernel
def static_iter_with_break(x):
    for i in ct.static_iter(range(4)):
        if i == 2:
            break
    ct.store(x, index=(0,), tile=ct.zeros((64,), dtype=ct.float32))
