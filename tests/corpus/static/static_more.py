import cuda.tile as ct


# tilescope: args f32[16], i32
# expect: TileTypeError @ 8
@ct.kernel
def assume_contradicts_constant(x, n):
    k = ct.assume_divisible_by(33, 16)


# tilescope: args f32[16], i32
# expect: TileTypeError @ 15
@ct.kernel
def assume_zero_divisor(x, n):
    k = ct.assume_divisible_by(n, 0)


# tilescope: args f32[16], i32
# expect: TileTypeError @ 22
@ct.kernel
def assume_on_float(x, n):
    k = ct.assume_divisible_by(1.0, 16)


# tilescope: args f32[16], i32
# expect: TileUnsupportedFeatureError @ 29
@ct.kernel
def grid_dependency_wait_needs_13_4(x, n):
    ct.grid_dependency_control_wait()


# tilescope: args f32[16], i32
# expect: TileStaticAssertionError @ 38
@ct.kernel
def ensure_constant_tuple(x, n):
    a = ct.ensure_constant((1, 2))
    b = ct.ensure_constant(ct.float32)
    c = ct.ensure_constant((1, n))


# tilescope: args f32[64], i32
# expect: ok
@ct.kernel
def static_eval_builds_ops(x, n):
    t = ct.load(x, index=(0,), shape=(64,))
    v = ct.static_eval(-t * 2 + n)
    ct.store(x, index=(0,), tile=v)
