import cuda.tile as ct


# tilescope: args f32[16]
# expect: ok
# tilescope: args i32[16]
# expect: ok
@ct.kernel
def print_tile(x):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.print(t)


# tilescope: args f32[16], i32
# expect: ok
@ct.kernel
def print_fstring(x, n):
    t = ct.load(x, index=(0,), shape=(16,))
    s = ct.sum(t)
    ct.print(f"block {ct.bid(0)} n={n} sum={s:.3f}", sep="", end="\n")


# tilescope: args f32[16]
# expect: ok
@ct.kernel
def print_multiple_args(x):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.print("values:", t, ct.max(t), sep=" | ")


# tilescope: args i32[8]
# expect: ok
@ct.kernel
def printf_formats(x):
    t = ct.load(x, index=(0,), shape=(8,))
    ct.printf("bid=%d t=%d\n", ct.bid(0), t)
    ct.printf("%5.2f\n", t.astype(ct.float32))


# tilescope: args f32[16]
# expect: ok
@ct.kernel
def assert_tile(x):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.assert_(t >= 0.0, "negative input")
    ct.assert_(ct.bid(0) < 1000)


# tilescope: args f32[16]
# expect: TileTypeError @ 54
@ct.kernel
def printf_bad_specifier(x):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.printf("%s\n", t)


# tilescope: args f32[16]
# expect: TileTypeError @ 62
@ct.kernel
def printf_arg_count_mismatch(x):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.printf("%f %f\n", t)


# tilescope: args f32[16]
# expect: TileTypeError @ 70
@ct.kernel
def assert_non_bool(x):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.assert_(t, "not a bool")
