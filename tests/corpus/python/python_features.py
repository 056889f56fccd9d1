import enum
from contextlib import contextmanager
from dataclasses import dataclass

import cuda.tile as ct


def _scale_add(t, s, bias=0.0):
    return t * s + bias


@ct.function
def _ct_square(t):
    return t * t


class Act(enum.Enum):
    RELU = 0
    IDENT = 1


@dataclass(frozen=True)
class Cfg:
    tile: int
    act: Act


CFG = Cfg(64, Act.RELU)


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def helper_functions(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=_scale_add(t, 2.0, bias=1.0) + _ct_square(t))


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def lambdas_and_closures(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    k = 3.0
    f = lambda v: v * k  # noqa: E731

    def inner(v):
        return f(v) + k

    ct.store(y, index=(0,), tile=inner(t))


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def tuples_unpack_nested_genexpr(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    a, b, c, d = (t, t + 1, t + 2, t + 3)
    first, (second, third) = 1.0, (2.0, 3.0)
    tup = tuple(v * 2 for v in ct.static_iter((c, d)))
    n = len(tup)
    ct.store(y, index=(0,), tile=a + b + tup[0] + tup[-1] + first + second + third + n)


# tilescope: args f32[64], f32[64], 3
# expect: ok
@ct.kernel
def tuple_in_operator(x, y, K: ct.Constant[int]):
    t = ct.load(x, index=(0,), shape=(64,))
    if K in (1, 3, 5):
        t = t + 1
    ct.store(y, index=(0,), tile=t)


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def frozen_dataclass_enum_global(x, y):
    t = ct.load(x, index=(0,), shape=(CFG.tile,))
    if CFG.act == Act.RELU:
        t = ct.maximum(t, 0.0)
    ct.store(y, index=(0,), tile=t)


def _apply(t, **kwargs):
    return t * kwargs["scale"] + kwargs["shift"]


def _fwd(*args, **kwargs):
    return _apply(*args, **kwargs)


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def kwargs_forwarding(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=_fwd(t, scale=2.0, shift=1.0))


@contextmanager
def _nothing():
    yield 2.0


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def contextmanager_with(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    with _nothing() as s:
        t = t * s
    ct.store(y, index=(0,), tile=t)


# tilescope: args list[f32[?]], f32[64]
# expect: ok
@ct.kernel
def list_of_arrays_param(xs, y):
    acc = ct.zeros((64,), dtype=ct.float32)
    for i in range(len(xs)):
        acc = acc + ct.load(xs[i], index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=acc)


# tilescope: args (f32[64], f32[64]), f32[64]
# expect: ok
@ct.kernel
def tuple_of_arrays_param(pair, y):
    a, b = pair
    t = ct.load(a, index=(0,), shape=(64,)) + ct.load(b, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=t)


# tilescope: args (f32, i32), f32[64]
# expect: ok
@ct.kernel
def tuple_of_scalars_param(sc, y):
    t = ct.full((64,), sc[0], dtype=ct.float32) + sc[1]
    ct.store(y, index=(0,), tile=t)


def _recurse(t, n):
    if n == 0:
        return t
    return _recurse(t + 1, n - 1)


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def compile_time_recursion(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=_recurse(t, 4))


def _multi_return(t):
    return t + 1, t - 1


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def multiple_return_values(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    p, m = _multi_return(t)
    ct.store(y, index=(0,), tile=p * m)


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def builtin_min_max_range_len(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    n = min(4, 8) + max(1, 2) + len((1, 2, 3))
    for i in range(n):
        t = t + i
    ct.store(y, index=(0,), tile=t)


# tilescope: args f32[64], f32[64]
# expect: TileSyntaxError @ 186
@ct.kernel
def mutate_frozen_dataclass(x, y):
    c = Cfg(64, Act.IDENT)
    c.tile = 32
    ct.store(y, index=(0,), tile=ct.load(x, index=(0,), shape=(64,)))


def _infinite(t):
    return _infinite(t + 1)


# tilescope: args f32[64], f32[64]
# expect: TileRecursionError @ 191
@ct.kernel
def unbounded_recursion(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=_infinite(t))


# tilescope: args f32[64], f32[64]
# expect: TileTypeError @ 208
@ct.kernel
def tuple_index_out_of_range(x, y):
    tup = (1.0, 2.0)
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=t + tup[2])


def _sum3(a, b, c):
    return a + b + c


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def star_args_call(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    parts = (t, t * 2, 1.0)
    ct.store(y, index=(0,), tile=_sum3(*parts))


# tilescope: args f32[64], f32[64]
# expect: TileSyntaxError @ 229
@ct.kernel
def star_assignment_unsupported(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    a, *rest = (t, t + 1, t + 2)
    ct.store(y, index=(0,), tile=a)


# tilescope: args f32[64], f32[64]
# expect: TileSyntaxError @ 238
@ct.kernel
def dict_kwargs_unsupported(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    opts = {"scale": 2.0, "shift": 1.0}
    ct.store(y, index=(0,), tile=_fwd(t, **opts))
