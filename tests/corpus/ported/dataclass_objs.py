# Frozen dataclasses in device code: construction, replace, methods, dunders, rejections.
# Semantics ported from upstream test_dataclass.py.
import dataclasses
from dataclasses import dataclass
from typing import Any

import cuda.tile as ct


@dataclass(frozen=True)
class FooBar:
    foo: int
    bar: int
    baz: Any = 5


@dataclass(frozen=True)
class Selfish:
    self: int


@dataclass
class Thawed:
    foo: int


@dataclass(frozen=True, init=False)
class Initless:
    foo: int


@dataclass(frozen=True)
class CustomInit:
    foo: int

    def __init__(self):
        pass


@dataclass(frozen=True)
class CustomNew:
    foo: int

    def __new__(cls):
        pass


@dataclass(frozen=True)
class Base:
    x: int


@dataclass(frozen=True)
class Derived(Base):
    y: int


class PlainDerived(Base):
    pass


@dataclass(frozen=True)
class NoInitField:
    foo: int
    bar: int = dataclasses.field(init=False)


@dataclass(frozen=True)
class FactoryField:
    foo: int
    bar: int = dataclasses.field(default_factory=lambda: 5)


@dataclass(frozen=True)
class WithMethod:
    x: Any
    y: int
    NUMBER = 123

    def foo(self):
        return self.x * 10 + self.y

    @property
    def prop(self):
        return self.x * 10 + self.y


@dataclass(frozen=True)
class PostInit:
    foo: int
    bar: Any

    def __post_init__(self):
        ct.scatter(self.bar, (), self.foo)


@dataclass(frozen=True)
class WithCall:
    x: int
    y: int

    def __call__(self, z):
        return 100 * self.x + 10 * self.y + z


@dataclass(frozen=True)
class CallDerived(WithCall):
    w: int = 0


@dataclass(frozen=True)
class WithItems:
    x: Any

    def __getitem__(self, i):
        return i * 3

    def __setitem__(self, i, val):
        ct.scatter(self.x, i, val * 10)


GLOBAL_FB = FooBar(2, 7)


# tilescope: args i32[3]
# expect: ok
@ct.kernel
def construct_with_defaults(x):
    fb = FooBar(2, bar=7)
    ct.static_assert(fb.baz == 5)
    ct.scatter(x, 0, fb.foo)
    ct.scatter(x, 2, fb.baz)


# tilescope: args i32[5]
# expect: ok
@ct.kernel
def nested_dataclass(x):
    fb = FooBar(2, bar=7, baz=FooBar(30, 40))
    ct.scatter(x, 3, fb.baz.bar)
    ct.scatter(x, 4, fb.baz.baz)


# tilescope: args i32[]
# expect: ok
@ct.kernel
def global_dataclass(x):
    ct.scatter(x, (), GLOBAL_FB.foo)


# tilescope: args i32[]
# expect: ok
@ct.kernel
def field_named_self(x):
    ct.scatter(x, (), Selfish(12).self)


# tilescope: args i32[2]
# expect: ok
@ct.kernel
def static_eval_roundtrip_runtime_field(x):
    fb = FooBar(ct.bid(0) + 10, bar=7)
    fb2 = ct.static_eval(fb)
    print(fb2.foo)
    ct.scatter(x, 1, fb2.bar)


# tilescope: args i32[2]
# expect: ok
@ct.kernel
def static_eval_builds_dataclass(x):
    fb = FooBar(10, 12)
    fb2 = ct.static_eval(FooBar(fb.bar, fb.foo))
    ct.static_assert(fb2.foo == 12)
    ct.scatter(x, 0, fb2.foo)


# tilescope: args i32[7]
# expect: ok
@ct.kernel
def replace_fields(x):
    fb = FooBar(2, 7, 13)
    fb2 = dataclasses.replace(fb, baz=123, bar=(30, 40))
    ct.static_assert(fb2.bar[1] == 40)
    ct.static_assert(fb.bar == 7)
    ct.scatter(x, 6, fb2.baz)


# tilescope: args i32[3], i32
# expect: ok
@ct.kernel
def loop_carried_dataclass(x, n):
    fb = FooBar(1, 10, 100)
    for i in range(n):
        fb = dataclasses.replace(fb, foo=fb.foo + 1, bar=fb.bar + i)
    print(fb.foo)
    ct.scatter(x, 2, fb.baz)


# tilescope: args i32[2], i32[2], i32[2]
# expect: ok
@ct.kernel
def methods_properties_class_constants(x, y, z):
    fb = WithMethod(ct.bid(0) + 5, 7)
    ct.scatter(x, ct.bid(0), fb.foo())
    ct.scatter(y, ct.bid(0), fb.prop)
    ct.scatter(z, ct.bid(0), WithMethod.NUMBER + fb.NUMBER)


# tilescope: args f32[1]
# expect: TileTypeError @ 215
# expect-match: Dataclass 'FooBar' has no such field 'abracadabra'
@ct.kernel
def replace_unknown_field(x):
    dataclasses.replace(FooBar(2, 7), abracadabra=8)


# tilescope: args f32[1]
# expect: TileTypeError @ 223
# expect-match: Only frozen dataclasses are supported
@ct.kernel
def nonfrozen_rejected(x):
    Thawed(2)


# tilescope: args f32[1]
# expect: TileTypeError @ 231
# expect-match: Only frozen dataclasses are supported
@ct.kernel
def nonfrozen_from_static_eval(x):
    ct.static_eval(Thawed(2))


# tilescope: args f32[1]
# expect: TileTypeError @ 239
# expect-match: default generated __init__\(\) method
@ct.kernel
def init_false_rejected(x):
    Initless(2)


# tilescope: args f32[1]
# expect: TileTypeError @ 247
# expect-match: default generated __init__\(\) method
@ct.kernel
def custom_init_rejected(x):
    CustomInit()


# tilescope: args f32[1]
# expect: TileTypeError @ 255
# expect-match: custom __new__ are not supported
@ct.kernel
def custom_new_rejected(x):
    CustomNew()


# tilescope: args i32[2]
# expect: ok
@ct.kernel
def dataclass_inheritance(x):
    d = Derived(3, 5)
    ct.scatter(x, 0, d.x)
    ct.scatter(x, 1, d.y)


# tilescope: args f32[1]
# expect: TileTypeError @ 272
# expect-match: Non-dataclass subclasses of a dataclass are not supported
@ct.kernel
def plain_subclass_rejected(x):
    PlainDerived(3)


# tilescope: args f32[1]
# expect: TileTypeError @ 280
# expect-match: init=False fields are not supported
@ct.kernel
def init_false_field_rejected(x):
    NoInitField(2)


# tilescope: args f32[1]
# expect: TileTypeError @ 288
# expect-match: default_factory fields are not supported
@ct.kernel
def default_factory_rejected(x):
    FactoryField(2)


# tilescope: args i32[]
# expect: ok
@ct.kernel
def post_init_runs(x):
    PostInit(3, x)


# tilescope: args i32[]
# expect: ok
@ct.kernel
def call_dunder(x):
    d = WithCall(3, 5)
    ct.static_assert(d(7) == 357)
    ct.scatter(x, (), d(7))


# tilescope: args i32[]
# expect: ok
@ct.kernel
def call_dunder_inherited(x):
    ct.scatter(x, (), CallDerived(3, 5)(7))


# tilescope: args f32[1]
# expect: TileTypeError @ 320
# expect-match: Cannot call an object of type FooBar
@ct.kernel
def call_without_dunder(x):
    d = FooBar(3, 5)
    d(7)


# tilescope: args i32[4]
# expect: ok
@ct.kernel
def getitem_and_setitem_dunders(x):
    d = WithItems(x)
    ct.static_assert(d[7] == 21)
    d[1] = 5


# tilescope: args f32[1]
# expect: TileTypeError @ 336
@ct.kernel
def missing_required_field(x):
    FooBar(1)


# tilescope: args f32[1]
# expect: TileTypeError @ 343
@ct.kernel
def unknown_attribute(x):
    FooBar(1, 2).nope


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def dataclass_holds_tile(x):
    fb = FooBar(ct.load(x, (0,), (4,)), 2)
    print(fb.foo * fb.bar)


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def dataclass_equality(x):
    ct.static_assert(FooBar(1, 2) == FooBar(1, 2))
