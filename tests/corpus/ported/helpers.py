# Plain Python helper functions called from kernels: returns, kwargs, recursion, decorators.
# Semantics ported from upstream test_helper_function.py.
import functools

import cuda.tile as ct


def _inc(v):
    return v + 1


def _pair_inc(a, b):
    return a + 1, b + 1


def _offset(a, b, arg=False):
    off = 1 if arg else -1
    return a + off, b + off


def _recursive(v, n):
    if n > 0:
        r = _recursive(v, n - 1) + 1
    else:
        r = v
    return r


def _array_helper(x, y, out, B, N):
    tx = ct.load(x, index=(ct.bid(0), 0), shape=(B, N))
    ty = ct.load(y, index=(ct.bid(0), 0), shape=(B, 1))
    ct.store(out, index=(ct.bid(0), 0), tile=tx + ty)


def _early(tx, ty, early):
    if early:
        return tx
    return tx + ty


def _ret_in_while(n):
    a, b = 1, 1
    while True:
        a, b = b, a + b
        if b > n:
            return b


def _ret_in_for(n):
    a, b = 1, 1
    for i in range(n):
        a, b = b, a + b
        if b > n:
            return b


def _ret_type_depends():
    if ct.bid(0) == 0:
        return 3
    else:
        return 5.0


def _after_while(n):
    while n > 0:
        n = n - 1
    return n


def _loops(n):
    a = 0
    for i in range(n):
        a += 1
        for j in range(n):
            a += 1
    return a


def _reassign(bid):
    bid = bid + 10
    return bid + 5


@ct.function
def _ct_helper(x, out, B: ct.Constant[int]):
    ct.store(out, index=(0,), tile=ct.load(x, index=(0,), shape=(B,)) + 1)


def _bar(x):
    ct.abracadabra(x)


def _foo(x):
    _bar(x)


def _decorate(func):
    @functools.wraps(func)
    def wrapper(x):
        return func(x + 3)
    return wrapper


@_decorate
def _decorated(x):
    return x * 10


def _forward(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)
    return wrapper


@_forward
def _forwarded(x):
    return x * 10


def _no_return():
    pass


# tilescope: args f32[64,16], f32[64,1], f32[64,16], 16, 16
# expect: ok
@ct.kernel
def repeated_helper_calls(x, y, out, B: ct.Constant[int], N: ct.Constant[int]):
    tx = ct.load(x, index=(ct.bid(0), 0), shape=(B, N))
    ty = ct.load(y, index=(ct.bid(0), 0), shape=(B, 1))
    _no_return()
    a, b = _pair_inc(tx, _inc(_inc(ty)))
    ct.store(out, index=(ct.bid(0), 0), tile=a + b)


# tilescope: args f32[64,16], f32[64,1], f32[64,16], 16, 16, b8
# expect: ok
# tilescope: args f32[64,16], f32[64,1], f32[64,16], 16, 16, False
# expect: ok
@ct.kernel
def helper_keyword_arg(x, y, out, B: ct.Constant[int], N: ct.Constant[int], arg):
    tx = ct.load(x, index=(ct.bid(0), 0), shape=(B, N))
    ty = ct.load(y, index=(ct.bid(0), 0), shape=(B, 1))
    a, b = _offset(tx, ty, arg=arg)
    c, d = _offset(tx, ty)
    ct.store(out, index=(ct.bid(0), 0), tile=a + b + c + d)


# tilescope: args i32[], i32[], 100000
# expect: TileRecursionError @ 23
# tilescope: args i32[], i32[], 109
# expect: ok
@ct.kernel
def recursion_depth(x, out, N: ct.Constant[int]):
    ct.scatter(out, (), _recursive(ct.gather(x, ()), N))


# tilescope: args f32[64,16], f32[64,1], f32[64,16], 16, 16
# expect: ok
@ct.kernel
def helper_takes_arrays(x, y, out, B: ct.Constant[int], N: ct.Constant[int]):
    _array_helper(x, y, out, B, N)


# tilescope: args f32[64,16], f32[64,1], f32[64,16], 16, 16, b8
# expect: ok
# tilescope: args f32[64,16], f32[64,1], f32[64,16], 16, 16, True
# expect: ok
@ct.kernel
def helper_early_return(x, y, out, B: ct.Constant[int], N: ct.Constant[int], early):
    tx = ct.load(x, index=(ct.bid(0), 0), shape=(B, N))
    ty = ct.load(y, index=(ct.bid(0), 0), shape=(B, 1))
    ct.store(out, index=(ct.bid(0), 0), tile=_early(tx, ty, early))


# tilescope: args i32[1], i32[1]
# expect: ok
@ct.kernel
def helper_returns_inside_while(n, y):
    v = ct.load(n, index=(0,), shape=(1,))
    ct.store(y, (0,), ct.full((1,), _ret_in_while(v.item()), dtype=ct.int32))


# tilescope: args i32[1], i32[1]
# expect: TileTypeError @ 49
@ct.kernel
def helper_returns_inside_for(n, y):
    v = ct.load(n, index=(0,), shape=(1,))
    ct.store(y, (0,), ct.full((1,), _ret_in_for(v.item()), dtype=ct.int32))


# tilescope: args f32[1]
# expect: TileTypeError @ 61
# expect-match: Type of return value depends on path taken
@ct.kernel
def helper_return_type_mismatch(x):
    _ret_type_depends()


# tilescope: args i32[1], i32[1]
# expect: ok
@ct.kernel
def helper_return_after_loops(n, y):
    v = ct.load(n, index=(0,), shape=(1,)).item()
    ct.store(y, (0,), ct.full((1,), _after_while(v) + _loops(v), dtype=ct.int32))


# tilescope: args i32[1]
# expect: ok
@ct.kernel
def helper_reassigns_parameter(x):
    ct.store(x, (0,), ct.full((1,), _reassign(ct.bid(0)), ct.int32))


# tilescope: args f32[16], f32[16], 16
# expect: ok
@ct.kernel
def ct_function_helper(x, out, B: ct.Constant[int]):
    _ct_helper(x, out, B)


# tilescope: args f32[16]
# expect: TileTypeError @ 90
# expect-match: has no attribute 'abracadabra'
@ct.kernel
def error_inside_nested_helpers(x):
    _foo(x)


# tilescope: args i32[]
# expect: ok
@ct.kernel
def decorated_helpers(y):
    t = _decorated(5)
    ct.static_assert(t == 80)
    ct.static_assert(_forwarded(5) == 50)
    ct.scatter(y, (), t)


# tilescope: args f32[16]
# expect: TileTypeError @ 244
@ct.kernel
def helper_too_many_args(x):
    _inc(1, 2)
