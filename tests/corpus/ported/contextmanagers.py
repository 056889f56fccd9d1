# Generator-based context managers (contextlib.contextmanager) in device code.
# Semantics ported from upstream test_contextlib_contextmanager.py.
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import cuda.tile as ct
from cuda.tile import static_assert


def append(x, val):
    i = ct.gather(x, 0) + 1
    ct.scatter(x, 0, i)
    ct.scatter(x, i, val)


@contextmanager
def foo(x, start_val, end_val):
    append(x, start_val)
    yield start_val
    append(x, end_val)


@contextmanager
def wrap_foo(x, a, b, c, d):
    append(x, a)
    with foo(x, b, d) as res:
        append(x, c)
        yield res + 1


@contextmanager
def yield_closure(x, a, b):
    def func():
        append(x, a)
    append(x, b)
    yield func
    a += 1


@contextmanager
def two_yields(x):
    append(x, 1)
    yield
    append(x, 2)
    yield


@contextmanager
def no_yield(x):
    append(x, 1)


@contextmanager
def yield_in_if(x, flag):
    if flag:
        yield


@contextmanager
def dead_yield_after_break(x):
    yield
    while True:
        append(x, 3)
        break
        yield


@contextmanager
def only_dead_yield(x):
    while True:
        append(x, 2)
        break
        yield


@contextmanager
def with_return():
    if ct.bid(0) == 1:
        return
    yield


@contextmanager
def yields_tile(x):
    yield ct.load(x, (0,), (4,))


@dataclass(frozen=True)
class Holder:
    x: Any

    @contextmanager
    def foo(self, start_val, end_val):
        append(self.x, start_val)
        yield start_val
        append(self.x, end_val)


# tilescope: args i32[16]
# expect: ok
@ct.kernel
def simple_with(x):
    with foo(x, 20, 30) as val:
        append(x, 40)
        static_assert(val == 20)


# tilescope: args i32[16]
# expect: ok
@ct.kernel
def nested_with(x):
    with foo(x, 20, 30) as val:
        with foo(x, 50, 60) as val2:
            static_assert(val2 == 50)
        static_assert(val == 20)


# tilescope: args i32[16]
# expect: ok
@ct.kernel
def break_inside_with(x):
    i = 0
    while True:
        with foo(x, 100 + i, 200 + i):
            append(x, i)
            if i == 2:
                break
        i += 1


# tilescope: args i32[16]
# expect: ok
@ct.kernel
def context_manager_entering_another(x):
    with wrap_foo(x, 20, 30, 40, 60) as r:
        static_assert(r == 31)


# tilescope: args i32[16]
# expect: ok
@ct.kernel
def yielded_closure_used_after_exit(x):
    with yield_closure(x, 10, 20) as func:
        func()
    func()


# tilescope: args i32[16]
# expect: ok
@ct.kernel
def continue_inside_nested_with(x):
    i = 0
    while i < 1:
        with foo(x, 1, 2):
            with foo(x, 3, 4):
                i += 1
                continue


# tilescope: args i32[16]
# expect: ok
@ct.kernel
def return_inside_nested_with(x):
    with foo(x, 1, 2):
        with foo(x, 3, 4):
            append(x, 9)
            return


# tilescope: args i32[16]
# expect: TileTypeError @ 46
# expect-match: must have one `yield` statement
@ct.kernel
def two_yields_rejected(x):
    with two_yields(x):
        append(x, 99)


# tilescope: args i32[16]
# expect: TileTypeError @ 185
# expect-match: no reachable `yield` statement
@ct.kernel
def no_yield_rejected(x):
    with no_yield(x):
        append(x, 99)


# tilescope: args i32[16]
# expect: TileTypeError @ 194
# expect-match: outside of loops and conditional
@ct.kernel
def yield_in_if_rejected(x):
    with yield_in_if(x, True):
        append(x, 99)


# tilescope: args i32[16]
# expect: ok
@ct.kernel
def dead_yield_ignored(x):
    with dead_yield_after_break(x):
        append(x, 9)


# tilescope: args i32[16]
# expect: TileTypeError @ 211
# expect-match: no reachable `yield` statement
@ct.kernel
def only_dead_yield_rejected(x):
    with only_dead_yield(x):
        append(x, 9)


# tilescope: args i32[16]
# expect: TileSyntaxError @ 80
# expect-match: Returning from a generator-based context manager
@ct.kernel
def return_in_context_manager(x):
    with with_return():
        pass


# tilescope: args i32[16]
# expect: ok
@ct.kernel
def dataclass_method_context_manager(x):
    obj = Holder(x)
    with obj.foo(20, 30) as val:
        static_assert(val == 20)


# tilescope: args f32[4]
# expect: ok
@ct.kernel
def context_manager_yields_tile(x):
    with yields_tile(x) as t:
        print(t * 2)


# tilescope: args f32[4]
# expect: TileTypeError @ 245
@ct.kernel
def with_non_context_manager(x):
    with ct.load(x, (0,), (4,)) as t:
        pass
