import cuda.tile as ct


# tilescope: args f32[128], f32[128]
# expect: ok
# tilescope: args i32[128], i32[128]
# expect: ok
@ct.kernel
def cumsum_1d(x, y):
    t = ct.load(x, index=(0,), shape=(128,))
    ct.store(y, index=(0,), tile=ct.cumsum(t))


# tilescope: args f32[16,32], f32[16,32]
# expect: ok
@ct.kernel
def cumprod_reverse(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 32))
    ct.store(y, index=(0, 0), tile=ct.cumprod(t, axis=1, reverse=True))


# tilescope: args f32[16,32], f32[16,32]
# expect: ok
@ct.kernel
def cumsum_axis0_rounding(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 32))
    ct.store(y, index=(0, 0), tile=ct.cumsum(t, axis=0, rounding_mode=ct.RoundingMode.RZ))


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def custom_scan_max(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.scan(t, 0, lambda a, b: ct.maximum(a, b), -3e38))


def _affine_combine(a0, b0, a1, b1):
    # compose x -> a*x + b maps
    return a0 * a1, b0 * a1 + b1


# tilescope: args f32[64], f32[64], f32[64]
# expect: ok
@ct.kernel
def custom_scan_tuple(a, b, y):
    ta = ct.load(a, index=(0,), shape=(64,))
    tb = ct.load(b, index=(0,), shape=(64,))
    ra, rb = ct.scan((ta, tb), axis=0, func=_affine_combine, identity=(1.0, 0.0), reverse=False)
    ct.store(y, index=(0,), tile=rb)


# tilescope: args f32[64], f32[64]
# expect: TileTypeError @ 58
@ct.kernel
def scan_axis_out_of_range(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.cumsum(t, axis=1))
