# Enum constants in device code: comparison, construction from constants, name/value.
# Semantics ported from upstream test_enum.py.
from enum import Enum, IntEnum

import cuda.tile as ct


class Color(Enum):
    RED = 0
    GREEN = 1
    BLUE = 2


class Status(Enum):
    OK = "ok"
    ERROR = "error"


class Weight(Enum):
    LIGHT = 0.5
    HEAVY = 2.0


class Priority(IntEnum):
    LOW = 0
    MEDIUM = 1
    HIGH = 2


# tilescope: args i32[]
# expect: ok
@ct.kernel
def enum_eq_ne(out):
    x = Color.RED
    ct.static_assert(x == Color.RED)
    ct.static_assert(x != Color.GREEN)
    if x == Color.RED:
        ct.scatter(out, (), 1)


# tilescope: args i32[]
# expect: ok
@ct.kernel
def construct_from_constant_int(out):
    i = 0
    x = Color(i)
    ct.static_assert(x == Color.RED)


# tilescope: args i32[]
# expect: ok
@ct.kernel
def construct_from_str_and_float(out):
    ct.static_assert(Status("ok") == Status.OK)
    ct.static_assert(Weight(0.5) == Weight.LIGHT)


# tilescope: args i32[]
# expect: ok
@ct.kernel
def intenum_ordering(out):
    ct.static_assert(Priority.LOW < Priority.HIGH)


# tilescope: args i32[]
# expect: ok
@ct.kernel
def intenum_arith(out):
    ct.scatter(out, (), Priority.HIGH + 1)


# tilescope: args f32[1], i32[]
# expect: TileTypeError @ 76
@ct.kernel
def construct_from_runtime_value(x, out):
    _ = Color(ct.bid(0))


# tilescope: args i32[]
# expect: TileValueError @ 83
@ct.kernel
def construct_from_bad_value(out):
    _ = Color(99)


# tilescope: args i32[]
# expect: TileValueError @ 90
@ct.kernel
def construct_from_bad_type(out):
    _ = Color("foo")


# tilescope: args i32[]
# expect: ok
@ct.kernel
def name_and_value_attributes(out):
    ct.static_assert(Color.BLUE.name == "BLUE")
    ct.static_assert(Status.ERROR.value == "error")
    ct.static_assert(Weight.HEAVY.value == 2.0)


# tilescope: args i32[]
# expect: TileTypeError @ 106
@ct.kernel
def plain_enum_ordering(out):
    if Color.RED < Color.GREEN:
        ct.scatter(out, (), 1)


# tilescope: args i32[]
# expect: ok
@ct.kernel
def enum_identity(out):
    ct.static_assert(Color.RED is Color.RED)
    ct.static_assert(Color.RED is not Color.BLUE)


# tilescope: args i32[]
# expect: ok
@ct.kernel
def enum_same_in_both_branches(out):
    if ct.bid(0) == 0:
        c = Color.RED
    else:
        c = Color.RED
    ct.static_assert(c == Color.RED)


# tilescope: args i32[]
# expect: TileTypeError @ 136
@ct.kernel
def enum_value_differs_in_branches(out):
    if ct.bid(0) == 0:
        c = Color.RED
    else:
        c = Color.GREEN
    print(c == Color.RED)


# tilescope: args i32[]
# expect: ok
@ct.kernel
def enum_value_feeds_shape(out):
    t = ct.arange(Priority.HIGH * 2, dtype=ct.int32)
    print(t)


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def library_enum_argument(x):
    t = ct.load(x, (0,), (4,), padding_mode=ct.PaddingMode.ZERO)
    print(t)
