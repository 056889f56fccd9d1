import cuda.tile as ct


# tilescope: args f32[16], 4
# expect: ok
@ct.kernel
def fstring_constant_fields(x, N: ct.Constant[int]):
    t = ct.load(x, index=(0,), shape=(16,))
    print(f"n={N} f={1.5} b={True} t={t}")


# tilescope: args f32[16]
# expect: ok
@ct.kernel
def print_mixed_constants(x):
    t = ct.load(x, index=(0,), shape=(16,))
    print("a", 3, 2.5, True, None, (1, t), ct.float32, t, sep=",")


# tilescope: args f32[16]
# expect: TileTypeError @ 25
@ct.kernel
def print_spec_incompatible(x):
    t = ct.load(x, index=(0,), shape=(16,))
    print(f"{t:d}")


# tilescope: args f32[16]
# expect: ok
@ct.kernel
def print_spec_flags(x):
    t = ct.load(x, index=(0,), shape=(16,))
    print(f"{t:>+#08.3e}|{t:<5}|{ct.bid(0):x}")


# tilescope: args f32[16]
# expect: TileTypeError @ 41
@ct.kernel
def print_tile_as_sep(x):
    t = ct.load(x, index=(0,), shape=(16,))
    print(t, t, sep=t)


# tilescope: args i32[16]
# expect: TileTypeError @ 49
@ct.kernel
def printf_too_many_args(x):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.printf("%d\n", t, t)


# tilescope: args f32[16]
# expect: ok
@ct.kernel
def print_bool_tiles(x):
    t = ct.load(x, index=(0,), shape=(16,))
    print(t > 0, ct.bid(0) > 1)


# tilescope: args f32[16], 4
# expect: TileTypeError @ 65
@ct.kernel
def assert_fstring_message(x, N: ct.Constant[int]):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.assert_(t > 0, f"N={N}")


# tilescope: args f32[16], 4
# expect: TileSyntaxError @ 72
@ct.kernel
def fstring_conversion(x, N: ct.Constant[int]):
    print(f"{N!r}")


# tilescope: args f32[16]
# expect: TileTypeError @ 79
@ct.kernel
def print_unknown_keyword(x):
    print("a", flush=True)
