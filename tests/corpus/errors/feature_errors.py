import cuda.tile as ct


# tilescope: args f32[64]
# expect: TileUnsupportedFeatureError @ 8
@ct.kernel
def grid_dependency_wait_needs_13_4(x):
    ct.grid_dependency_control_wait()
    ct.store(x, index=(0,), tile=ct.zeros((64,), dtype=ct.float32))


# tilescope: args f32[64]
# expect: TileUnsupportedFeatureError @ 17
@ct.kernel
def grid_dependency_launch_needs_13_4(x):
    ct.store(x, index=(0,), tile=ct.zeros((64,), dtype=ct.float32))
    ct.grid_dependency_control_launch_dependents()


# tilescope: args f32[64]
# expect: TileValueError @ 24
@ct.kernel
def latency_out_of_range(x):
    t = ct.load(x, index=(0,), shape=(64,), latency=42)
    ct.store(x, index=(0,), tile=t)


# tilescope: args f32[64]
# expect: ok
# upstream-note: integer literals are range-checked against the tile dtype (TileValueError) but a float literal that overflows float16 (1e10) is accepted silently
@ct.kernel
def float_literal_overflowing_f16_accepted(x):
    t = ct.load(x, index=(0,), shape=(64,)).astype(ct.float16)
    ct.store(x, index=(0,), tile=(t + 1e10).astype(ct.float32))


# tilescope: args u8[64]
# expect: TileValueError @ 42
@ct.kernel
def negative_literal_unsigned(x):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(x, index=(0,), tile=t + (-1))


# tilescope: args f32[64]
# expect: TileTypeError @ 49
@ct.kernel
def assume_divisible_non_positive(x):
    n = ct.assume_divisible_by(ct.bid(0), 0)
    ct.store(x, index=(n,), tile=ct.zeros((64,), dtype=ct.float32))


# tilescope: args f32[64]
# expect: TileTypeError @ 58
@ct.kernel
def reduce_non_constant_identity(x):
    t = ct.load(x, index=(0,), shape=(64,))
    r = ct.reduce(t, 0, lambda a, b: a + b, t)
    ct.store(x, index=(0,), tile=ct.full((64,), r, dtype=ct.float32))


# tilescope: args f32[64]
# expect: TileTypeError @ 67
@ct.kernel
def astile_too_deep_runtime(x):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(x, index=(0,), tile=ct.astile(t, dtype=ct.float32))
