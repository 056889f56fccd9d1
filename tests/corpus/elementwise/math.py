import cuda.tile as ct


# tilescope: args f32[256], f32[256]
# expect: ok
# tilescope: args f16[256], f16[256]
# expect: ok
# tilescope: args bf16[256], bf16[256]
# expect: ok
# tilescope: args f64[256], f64[256]
# expect: ok
@ct.kernel
def unary_math(x, y):
    t = ct.load(x, index=(ct.bid(0),), shape=(64,))
    r = ct.exp(t) + ct.exp2(t) + ct.log(t) + ct.log2(t)
    r = r + ct.sqrt(t) + ct.rsqrt(t)
    r = r + ct.sin(t) + ct.cos(t) + ct.tan(t)
    r = r + ct.sinh(t) + ct.cosh(t) + ct.tanh(t)
    r = r + ct.floor(t) + ct.ceil(t) + ct.abs(t) + ct.negative(t)
    ct.store(y, index=(ct.bid(0),), tile=r)


# tilescope: args f32[256], f32[256]
# expect: ok
@ct.kernel
def unary_math_modes(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    r = ct.exp(t, rounding_mode=ct.RoundingMode.APPROX)
    r = r + ct.exp2(t, flush_to_zero=True)
    r = r + ct.sqrt(t, rounding_mode=ct.RoundingMode.RN, flush_to_zero=False)
    r = r + ct.rsqrt(t, flush_to_zero=True)
    r = r + ct.tanh(t, rounding_mode=ct.RoundingMode.APPROX)
    ct.store(y, index=(0,), tile=r)


# tilescope: args f32[64], f32[64], f32[64]
# expect: ok
@ct.kernel
def binary_math(x, y, z):
    a = ct.load(x, index=(0,), shape=(64,))
    b = ct.load(y, index=(0,), shape=(64,))
    r = ct.add(a, b) + ct.sub(a, b) + ct.mul(a, b) + ct.truediv(a, b)
    r = r + ct.pow(a, b) + ct.atan2(a, b) + ct.mod(a, b) + ct.floordiv(a, b)
    r = r + ct.minimum(a, b) + ct.maximum(a, b, propagate_nan=True)
    ct.store(z, index=(0,), tile=r)


# tilescope: args f32[64], f32[64], f32[64]
# expect: ok
@ct.kernel
def binary_rounding(x, y, z):
    a = ct.load(x, index=(0,), shape=(64,))
    b = ct.load(y, index=(0,), shape=(64,))
    r = ct.add(a, b, rounding_mode=ct.RoundingMode.RZ)
    r = ct.mul(r, b, rounding_mode=ct.RoundingMode.RM, flush_to_zero=True)
    r = ct.truediv(r, a, rounding_mode=ct.RoundingMode.APPROX)
    r = ct.sub(r, a, rounding_mode=ct.RoundingMode.RP)
    ct.store(z, index=(0,), tile=r)


# tilescope: args i32[64], i32[64], i32[64]
# expect: ok
# tilescope: args u16[64], u16[64], u16[64]
# expect: ok
@ct.kernel
def integer_div_mod(x, y, z):
    a = ct.load(x, index=(0,), shape=(64,))
    b = ct.load(y, index=(0,), shape=(64,))
    q, r = ct.divmod(a, b)
    c = ct.cdiv(a, b)
    ct.store(z, index=(0,), tile=q + r + c + a // b + a % b)


# tilescope: args f32[64], bool[64]
# expect: ok
@ct.kernel
def isnan_where(x, m):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(m, index=(0,), tile=ct.isnan(a))
    ct.store(x, index=(0,), tile=ct.where(ct.isnan(a), 0.0, a))


# tilescope: args i32, i32, i32[1]
# expect: ok
@ct.kernel
def scalar_cdiv(n, d, out):
    # cdiv on runtime scalars
    c = ct.cdiv(n, d)
    ct.store(out, index=(0,), tile=ct.full((1,), c, dtype=ct.int32))


# tilescope: args f16[64], f16[64]
# expect: ok
@ct.kernel
def abs_neg_f16(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=-abs(a))
