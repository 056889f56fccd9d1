# Nested functions, closures, frozen captures, default arguments and lambdas.
# Semantics ported from upstream test_closure.py.
import cuda.tile as ct

int_alias = int


def _make_scatter_closure(default):
    def f(x, i, t=default):
        ct.scatter(x, i, t)
    default = -1
    return f


# tilescope: args i32[]
# expect: ok
@ct.kernel
def nested_function_with_annotations(x):
    def foo(t: int_alias) -> int_alias:
        return t + 20
    ct.scatter(x, (), foo(ct.gather(x, ())))


# tilescope: args i32[]
# expect: ok
@ct.kernel
def nested_function_shadows_param(x):
    def foo(x):
        return x + 20
    ct.scatter(x, (), foo(ct.gather(x, ())))


# tilescope: args i32[2], i32
# expect: ok
@ct.kernel
def closure_sees_later_rebinding(x, n):
    def foo(t):
        return t + n
    val = ct.gather(x, 0)
    ct.scatter(x, 0, foo(val))
    n = 100
    r = foo(val)
    print(r)
    ct.scatter(x, 1, r)


# tilescope: args i32[]
# expect: ok
@ct.kernel
def closure_factory_frozen_capture(x):
    def make(t):
        def f(y):
            return y + t
        return f
    c = make(30)
    ct.scatter(x, (), c(ct.gather(x, ())))


# tilescope: args i32[]
# expect: ok
@ct.kernel
def closure_returned_in_tuple(x):
    def make(t):
        def f(y):
            return y + t
        return f, "dummy"
    c = make(30)[0]
    ct.scatter(x, (), c(ct.gather(x, ())))


# tilescope: args i32[2]
# expect: ok
@ct.kernel
def closures_join_at_if(x):
    def make(t):
        def f(y):
            return y + t
        return f
    i = ct.bid(0)
    if i == 0:
        c = make(30)
    else:
        c = make(40)
    ct.scatter(x, i, c(ct.gather(x, i)))


# tilescope: args i32[5]
# expect: ok
@ct.kernel
def captures_at_many_depths(x):
    def f0(x0):
        def f1(x1):
            def f2(x2):
                def f3(x3):
                    def f4(x4):
                        ct.scatter(x, 0, x0)
                        ct.scatter(x, 4, x4)
                    return f4
                f3(30)(40)
            return f2
        f1(10)(20)
    f0(0)


# tilescope: args i32[]
# expect: ok
@ct.kernel
def capture_of_capturing_function(x):
    def make(t):
        def g(y):
            return y * 2 + t
        def f(y):
            return g(y) + 100
        return f
    ct.scatter(x, (), make(30)(ct.gather(x, ())))


# tilescope: args i32[], i32[3]
# expect: ok
@ct.kernel
def nested_default_args(x, y):
    def func(t, a=10, b=3):
        return t * a + b
    tx = ct.gather(x, ())
    ct.scatter(y, 0, func(tx))
    ct.scatter(y, 1, func(tx, b=5))
    ct.scatter(y, 2, func(tx, 4))


# tilescope: args i32[], i32[]
# expect: ok
@ct.kernel
def frozen_capture_of_runtime_value(x, y):
    def make(t):
        def f(val):
            return val + t
        return f
    c = make(ct.gather(x, ()))
    r = c(5)
    print(r)
    ct.scatter(y, (), r)


# tilescope: args i32[2]
# expect: ok
@ct.kernel
def host_closure_default_from_branch(x):
    if ct.bid(0) == 0:
        c = _make_scatter_closure(3)
    else:
        c = _make_scatter_closure(4)
    c(x, ct.bid(0))


# tilescope: args i32[], i32[3]
# expect: ok
@ct.kernel
def lambda_with_default_and_late_capture(x, y):
    f = lambda t, m=100: t * 2 + n + m  # noqa: E731
    tx = ct.gather(x, ())
    n = 5
    ct.scatter(y, 0, f(tx))
    n = 7
    ct.scatter(y, 1, f(tx))
    f2 = lambda t: t * 10 + n  # noqa: E731
    ct.scatter(y, 2, f2(tx))


# tilescope: args f32[4]
# expect: TileStaticEvalError @ 174
@ct.kernel
def lambda_returns_constant(x):
    f = lambda: 4  # noqa: E731
    ct.static_assert(f() == 4)
    print(ct.full((f(),), 1.0, dtype=ct.float32))


# tilescope: args f32[4]
# expect: TileTypeError @ 184
@ct.kernel
def nested_function_missing_argument(x):
    def f(a, b):
        return a + b
    f(1)


# tilescope: args f32[4]
# expect: TileTypeError @ 193
@ct.kernel
def nested_function_unknown_keyword(x):
    def f(a):
        return a
    f(1, c=2)


# tilescope: args f32[4]
# expect: TileStaticEvalError @ 202
@ct.kernel
def nested_function_varargs(x):
    def f(*args):
        return len(args)
    ct.static_assert(f(1, 2, 3) == 3)
