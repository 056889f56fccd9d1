# Module globals, Constant parameters and postponed-annotation-free constant handling.
# Semantics ported from upstream test_global_variables.py and test_constant.py.
import enum

import cuda.tile as ct

global_int = 128
global_tuple = (128,)
global_dtype = ct.float16


class MyEnum(enum.Enum):
    FOO = 100
    BAR = 200


# tilescope: args f32[128], f32[128], f32[128]
# expect: ok
@ct.kernel
def use_global_constants(x, y, z):
    tx = ct.load(x, index=(ct.bid(0),), shape=(global_int,))
    ty = ct.load(y, index=(ct.bid(0),), shape=global_tuple)
    ct.store(z, index=(ct.bid(0),), tile=tx + ty)


# tilescope: args f32[128], f32[128], f32[128]
# expect: TileSyntaxError @ 31
# expect-match: Undefined variable
@ct.kernel
def global_read_before_local_assignment(x, y, z):
    tx = ct.load(x, index=(ct.bid(0),), shape=(global_int,))
    global_int += 1  # noqa
    ct.store(z, index=(ct.bid(0),), tile=tx)


# tilescope: args f32[128], f32[128], f32[128], 64
# expect: ok
@ct.kernel
def parameter_shadows_global(global_x, y, z, global_int: ct.Constant[int]):
    tx = ct.load(global_x, index=(ct.bid(0),), shape=(global_int,))
    ct.store(z, index=(ct.bid(0),), tile=tx)


# tilescope: args f32[128], f32[128]
# expect: TileSyntaxError @ 48
@ct.kernel
def global_undefined_name(y, z):
    tx = ct.load(global_x, index=(ct.bid(0),), shape=(global_int,))  # noqa: F821
    ct.store(z, index=(ct.bid(0),), tile=tx)


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def global_dtype_constant(x):
    print(ct.zeros((4,), dtype=global_dtype))


# tilescope: args f32[4]
# expect: TileSyntaxError @ 63
@ct.kernel
def global_statement(x):
    global global_int
    global_int = 3


# tilescope: args 8, f32[8]
# expect: ok
# tilescope: args 16, f32[16]
# expect: ok
@ct.kernel
def constant_int_shape(n: ct.Constant[int], x):
    ct.store(x, (0,), ct.zeros((n,), dtype=x.dtype))


# tilescope: args 2.5, f16[4]
# expect: ok
@ct.kernel
def constant_float_stays_loose(c: ct.Constant[float], x):
    t = ct.load(x, (0,), (4,)) * c
    print(t)


# tilescope: args True, f32[4]
# expect: ok
# tilescope: args False, f32[4]
# expect: ok
@ct.kernel
def constant_bool_folds_branch(flag: ct.Constant[bool], x):
    if flag:
        t = ct.zeros((4,), dtype=ct.float32)
    else:
        t = ct.zeros((4,), dtype=ct.int8)
    print(t)


# tilescope: args 5, i32
# expect: ok
@ct.kernel
def runtime_int_is_not_constant(n: ct.Constant[int], m):
    print(ct.arange(n * 0 + 4, dtype=ct.int32) + m)


# tilescope: args i32
# expect: TileTypeError @ 108
@ct.kernel
def runtime_int_as_shape(m):
    print(ct.arange(m, dtype=ct.int32))


# tilescope: args i32[]
# expect: ok
@ct.kernel
def global_enum_comparison(out):
    c = MyEnum.FOO
    ct.scatter(out, (), c == MyEnum.BAR)
