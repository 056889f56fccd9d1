"""Kernels for the element-wise / math executor tests (generated list, one op each)."""
import tilescope.lang as ct


@ct.kernel
def bin_add(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=a + c)


@ct.kernel
def bin_sub(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=a - c)


@ct.kernel
def bin_mul(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=a * c)


@ct.kernel
def bin_truediv(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=a / c)


@ct.kernel
def bin_floordiv(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=a // c)


@ct.kernel
def bin_mod(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=a % c)


@ct.kernel
def bin_pow(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=a ** c)


@ct.kernel
def bin_maximum(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.maximum(a, c))


@ct.kernel
def bin_minimum(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.minimum(a, c))


@ct.kernel
def bin_maximum_nan(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.maximum(a, c, propagate_nan=True))


@ct.kernel
def bin_minimum_nan(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.minimum(a, c, propagate_nan=True))


@ct.kernel
def bin_band(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=a & c)


@ct.kernel
def bin_bor(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=a | c)


@ct.kernel
def bin_bxor(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=a ^ c)


@ct.kernel
def bin_lshift(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=a << c)


@ct.kernel
def bin_rshift(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=a >> c)


@ct.kernel
def bin_atan2(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.atan2(a, c))


@ct.kernel
def bin_cdiv(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.cdiv(a, c))


@ct.kernel
def bin_lt(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=a < c)


@ct.kernel
def bin_le(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=a <= c)


@ct.kernel
def bin_eq(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=a == c)


@ct.kernel
def bin_ne(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=a != c)


@ct.kernel
def bin_gt(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=a > c)


@ct.kernel
def bin_ge(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=a >= c)


@ct.kernel
def bin_add_rz(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.add(a, c, rounding_mode=ct.RoundingMode.RZ))


@ct.kernel
def bin_add_rm(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.add(a, c, rounding_mode=ct.RoundingMode.RM))


@ct.kernel
def bin_add_rp(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.add(a, c, rounding_mode=ct.RoundingMode.RP))


@ct.kernel
def bin_mul_rz(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.mul(a, c, rounding_mode=ct.RoundingMode.RZ))


@ct.kernel
def bin_div_rz(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.truediv(a, c, rounding_mode=ct.RoundingMode.RZ))


@ct.kernel
def bin_div_rp(x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    c = ct.load(y, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.truediv(a, c, rounding_mode=ct.RoundingMode.RP))


@ct.kernel
def un_exp(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.exp(a))


@ct.kernel
def un_exp2(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.exp2(a))


@ct.kernel
def un_log(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.log(a))


@ct.kernel
def un_log2(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.log2(a))


@ct.kernel
def un_sqrt(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.sqrt(a))


@ct.kernel
def un_rsqrt(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.rsqrt(a))


@ct.kernel
def un_sin(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.sin(a))


@ct.kernel
def un_cos(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.cos(a))


@ct.kernel
def un_tan(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.tan(a))


@ct.kernel
def un_sinh(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.sinh(a))


@ct.kernel
def un_cosh(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.cosh(a))


@ct.kernel
def un_tanh(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.tanh(a))


@ct.kernel
def un_floor(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.floor(a))


@ct.kernel
def un_ceil(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.ceil(a))


@ct.kernel
def un_abs(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=abs(a))


@ct.kernel
def un_neg(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=-a)


@ct.kernel
def un_invert(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=~a)


@ct.kernel
def un_isnan(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.isnan(a))


@ct.kernel
def un_sqrt_rz(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.sqrt(a, rounding_mode=ct.RoundingMode.RZ))


@ct.kernel
def un_astype(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.astype(a, o.dtype))


@ct.kernel
def un_astype_rz(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.astype(a, o.dtype, rounding_mode=ct.RoundingMode.RZ))


@ct.kernel
def un_astype_rm(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.astype(a, o.dtype, rounding_mode=ct.RoundingMode.RM))


@ct.kernel
def un_astype_rp(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.astype(a, o.dtype, rounding_mode=ct.RoundingMode.RP))


@ct.kernel
def un_bitcast(x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.bitcast(a, o.dtype))


@ct.kernel
def where_k(m, x, y, o, T: ct.Constant[int]):
    b = ct.bid(0)
    c = ct.load(m, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.where(c, ct.load(x, index=(b,), shape=(T,)), ct.load(y, index=(b,), shape=(T,))))


@ct.kernel
def where_scalar(m, x, o, T: ct.Constant[int]):
    b = ct.bid(0)
    c = ct.load(m, index=(b,), shape=(T,))
    ct.store(o, index=(b,), tile=ct.where(c > 0, ct.load(x, index=(b,), shape=(T,)), 7))
