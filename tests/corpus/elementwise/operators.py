import cuda.tile as ct


# tilescope: args f32[128], f32[128], f32[128]
# expect: ok
# tilescope: args i32[128], i32[128], i32[128]
# expect: ok
@ct.kernel
def arith_operators(x, y, z):
    a = ct.load(x, index=(0,), shape=(128,))
    b = ct.load(y, index=(0,), shape=(128,))
    r = a + b - a * b
    r = r + a // b + a % b
    ct.store(z, index=(0,), tile=r)


# tilescope: args f32[128], f32[128], f32[128]
# expect: ok
@ct.kernel
def truediv_operator(x, y, z):
    a = ct.load(x, index=(0,), shape=(128,))
    b = ct.load(y, index=(0,), shape=(128,))
    ct.store(z, index=(0,), tile=a / b)


# tilescope: args i32[128], i32[128], f32[128]
# expect: ok
@ct.kernel
def int_truediv_promotes(x, y, z):
    a = ct.load(x, index=(0,), shape=(128,))
    b = ct.load(y, index=(0,), shape=(128,))
    ct.store(z, index=(0,), tile=a / b)


# tilescope: args f32[64], f32[64], bool[64]
# expect: ok
@ct.kernel
def comparisons(x, y, m):
    a = ct.load(x, index=(0,), shape=(64,))
    b = ct.load(y, index=(0,), shape=(64,))
    c = (a < b) & (a <= b) | (a > b) ^ (a >= b)
    c = c | (a == b) | (a != b)
    c = c & ct.greater(a, b) | ct.less(a, b) | ct.equal(a, b)
    c = c | ct.not_equal(a, b) | ct.less_equal(a, b) | ct.greater_equal(a, b)
    ct.store(m, index=(0,), tile=c)


# tilescope: args i32[64], i32[64], i32[64]
# expect: ok
# tilescope: args u8[64], u8[64], u8[64]
# expect: ok
# tilescope: args i64[64], i64[64], i64[64]
# expect: ok
@ct.kernel
def bitwise_ops(x, y, z):
    a = ct.load(x, index=(0,), shape=(64,))
    b = ct.load(y, index=(0,), shape=(64,))
    r = (a & b) | (a ^ b) | ~a
    r = r | (a << 2) | (b >> 1)
    r = r | ct.bitwise_and(a, b) | ct.bitwise_or(a, b) | ct.bitwise_xor(a, b)
    r = r | ct.bitwise_not(b) | ct.bitwise_lshift(a, b) | ct.bitwise_rshift(a, b)
    ct.store(z, index=(0,), tile=r)


# tilescope: args bool[64], bool[64]
# expect: ok
@ct.kernel
def bool_logic(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=~a & a | a ^ a)


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def unary_operators(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=-a + (+a))


# tilescope: args f32[16,16], f32[16], f32[16,16]
# expect: ok
@ct.kernel
def broadcasting_binop(x, v, z):
    a = ct.load(x, index=(0, 0), shape=(16, 16))
    b = ct.load(v, index=(0,), shape=(16,))
    ct.store(z, index=(0, 0), tile=a * b + b[:, None])


# tilescope: args f32[64], f32[64], f32
# expect: ok
@ct.kernel
def scalar_tile_mix(x, y, s):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=s * a + s / 2 - 1)


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def augmented_assign(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    a += 1.0
    a *= 2.0
    a -= 0.5
    a /= 3.0
    ct.store(y, index=(0,), tile=a)


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def float_pow_operator(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=a ** 2 + 2.0 ** a)


# tilescope: args i32[64], i32[64]
# expect: TileInternalError @ 125
# expect-match: Missing binary arithmetic implementation for pow
# upstream-note: integer ** is not implemented and surfaces as TileInternalError rather than a TileTypeError
@ct.kernel
def int_pow_operator(x, y):
    a = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=a ** 2)
