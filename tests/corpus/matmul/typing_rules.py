"""Typing rules of mma, matmul and mma_scaled: accumulator table, promotion, shapes."""
import cuda.tile as ct


# tilescope: args f16[16,32], f16[32,16], f16[16,16]
# expect: ok
# tilescope: args bf16[16,32], bf16[32,16], bf16[16,16]
# expect: ok
# tilescope: args i8[16,32], i8[32,16], i8[16,16]
# expect: ok
# tilescope: args u8[16,32], u8[32,16], u8[16,16]
# expect: ok
# tilescope: args i8[16,32], u8[32,16], i32[16,16]
# expect: TileTypeError @ 35
# tilescope: args i32[16,32], i32[32,16], i32[16,16]
# expect: TileTypeError @ 35
# tilescope: args f16[16,32], f32[32,16], f32[16,16]
# expect: ok
# tilescope: args f16[16,32], bf16[32,16], f32[16,16]
# expect: TileTypeError @ 35
# tilescope: args f8e4m3fn[16,32], f8e4m3fn[32,16], f8e4m3fn[16,16]
# expect: ok
# tilescope: args tf32[16,32], tf32[32,16], tf32[16,16]
# expect: ok
# tilescope: args f64[16,32], f64[32,16], f64[16,16]
# expect: ok
# tilescope: args bool[16,32], bool[32,16], bool[16,16]
# expect: TileTypeError @ 35
# tilescope: args f16[16,16], f16[32,16], f16[16,16]
# expect: ok
@ct.kernel
def matmul_dtypes(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(16, 32))
    y = ct.load(b, index=(0, 0), shape=(32, 16))
    ct.store(c, index=(0, 0), tile=x @ y)


# tilescope: args f32[32], f32[32,16], f32[16]
# expect: ok
@ct.kernel
def matmul_vec_mat(a, b, c):
    x = ct.load(a, index=(0,), shape=(32,))
    y = ct.load(b, index=(0, 0), shape=(32, 16))
    ct.store(c, index=(0,), tile=ct.matmul(x, y))


# tilescope: args f32[16,32], f32[32], f32[16]
# expect: ok
@ct.kernel
def matmul_mat_vec(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(16, 32))
    y = ct.load(b, index=(0,), shape=(32,))
    ct.store(c, index=(0,), tile=ct.matmul(x, y))


# tilescope: args f32[32], f32[32], f32[1]
# expect: ok
@ct.kernel
def matmul_vec_vec(a, b, c):
    x = ct.load(a, index=(0,), shape=(32,))
    y = ct.load(b, index=(0,), shape=(32,))
    ct.store(c, index=(0,), tile=(x @ y).reshape((1,)))


# tilescope: args f32[2,16,32], f32[32], f32[2,16]
# expect: ok
@ct.kernel
def matmul_batch_vec(a, b, c):
    x = ct.load(a, index=(0, 0, 0), shape=(2, 16, 32))
    y = ct.load(b, index=(0,), shape=(32,))
    ct.store(c, index=(0, 0), tile=x @ y)


# tilescope: args f32[2,16,32], f32[32,8], f32[2,16,8]
# expect: ok
@ct.kernel
def matmul_batch_bcast(a, b, c):
    x = ct.load(a, index=(0, 0, 0), shape=(2, 16, 32))
    y = ct.load(b, index=(0, 0), shape=(32, 8))
    ct.store(c, index=(0, 0, 0), tile=x @ y)


# tilescope: args f32[2,16,32], f32[4,32,8], f32[2,16,8]
# expect: TileTypeError @ 89
@ct.kernel
def matmul_batch_bad(a, b, c):
    x = ct.load(a, index=(0, 0, 0), shape=(2, 16, 32))
    y = ct.load(b, index=(0, 0, 0), shape=(4, 32, 8))
    ct.store(c, index=(0, 0, 0), tile=x @ y)


# tilescope: args f32[2,2,16,32], f32[2,2,32,8], f32[2,2,16,8]
# expect: ok
@ct.kernel
def matmul_4d(a, b, c):
    x = ct.load(a, index=(0, 0, 0, 0), shape=(2, 2, 16, 32))
    y = ct.load(b, index=(0, 0, 0, 0), shape=(2, 2, 32, 8))
    ct.store(c, index=(0, 0, 0, 0), tile=x @ y)




# tilescope: args f16[16,32], f16[32,16], f32[16,16]
# expect: ok
# tilescope: args f16[16,32], f16[32,16], f16[16,16]
# expect: ok
# tilescope: args f16[16,32], f16[32,16], f64[16,16]
# expect: TileTypeError @ 124
# tilescope: args bf16[16,32], bf16[32,16], f16[16,16]
# expect: TileTypeError @ 124
# tilescope: args i8[16,32], i8[32,16], i16[16,16]
# expect: TileTypeError @ 124
# tilescope: args u8[16,32], i8[32,16], i32[16,16]
# expect: ok
# tilescope: args f8e5m2[16,32], f8e5m2[32,16], f16[16,16]
# expect: ok
# tilescope: args f16[16,32], f16[32,16], i32[16,16]
# expect: TileTypeError @ 124
@ct.kernel
def mma_acc_dtypes(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(16, 32))
    y = ct.load(b, index=(0, 0), shape=(32, 16))
    acc = ct.load(c, index=(0, 0), shape=(16, 16))
    ct.store(c, index=(0, 0), tile=ct.mma(x, y, acc))


# tilescope: args f16[16,32], f16[32,16], f32[16,16]
# expect: TileTypeError @ 134
@ct.kernel
def mma_fast_acc_f16(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(16, 32))
    y = ct.load(b, index=(0, 0), shape=(32, 16))
    acc = ct.load(c, index=(0, 0), shape=(16, 16))
    ct.store(c, index=(0, 0), tile=ct.mma(x, y, acc, use_fast_acc=True))


# tilescope: args f16[16,32], f16[32,16], f32[16,16]
# expect: TileTypeError @ 144
@ct.kernel
def mma_acc_kw(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(16, 32))
    y = ct.load(b, index=(0, 0), shape=(32, 16))
    acc = ct.load(c, index=(0, 0), shape=(16, 16))
    ct.store(c, index=(0, 0), tile=ct.mma(x, y, acc=acc, use_fast_acc=1))


# tilescope: args f16[2,16,32], f16[32,16], f32[2,16,16]
# expect: ok
@ct.kernel
def mma_batch_bcast(a, b, c):
    x = ct.load(a, index=(0, 0, 0), shape=(2, 16, 32))
    y = ct.load(b, index=(0, 0), shape=(32, 16))
    acc = ct.load(c, index=(0, 0, 0), shape=(2, 16, 16))
    ct.store(c, index=(0, 0, 0), tile=ct.mma(x, y, acc))


# tilescope: args f16[16,32], f16[32,16], f32[16,16]
# expect: TileTypeError @ 163
@ct.kernel
def mma_acc_scalar(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(16, 32))
    y = ct.load(b, index=(0, 0), shape=(32, 16))
    ct.store(c, index=(0, 0), tile=ct.mma(x, y, 0.0))


# tilescope: args f16[16,32], f16[32,16], f32[16,16]
# expect: TileTypeError @ 173
@ct.kernel
def mma_dtype_before_shape(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(16, 32))
    y = ct.load(b, index=(0, 0), shape=(32, 16)).astype(ct.int8)
    acc = ct.load(c, index=(0, 0), shape=(16, 8))
    ct.store(c, index=(0, 0), tile=ct.mma(x, y, acc))


# tilescope: args f8e4m3fn[16,64], f8e8m0fnu[16,2], f8e4m3fn[64,16], f8e8m0fnu[2,16], f32[16,16]
# expect: ok
# tilescope: args f8e4m3fn[16,64], f8e8m0fnu[16,4], f8e4m3fn[64,16], f8e8m0fnu[4,16], f32[16,16]
# expect: ok
# tilescope: args f8e4m3fn[16,64], f8e8m0fnu[16,2], f8e5m2[64,16], f8e8m0fnu[2,16], f32[16,16]
# expect: TileTypeError @ 197
# tilescope: args f8e4m3fn[16,64], f8e8m0fnu[16,2], f8e4m3fn[64,16], f8e4m3fn[2,16], f32[16,16]
# expect: TileTypeError @ 197
# tilescope: args f8e4m3fn[16,64], f8e4m3fn[16,2], f8e4m3fn[64,16], f8e4m3fn[2,16], f32[16,16]
# expect: TileTypeError @ 197
# tilescope: args f8e4m3fn[16,64], f8e8m0fnu[16,2], f8e4m3fn[64,16], f8e8m0fnu[2,16], f16[16,16]
# expect: TileTypeError @ 197
# tilescope: args f16[16,64], f8e8m0fnu[16,2], f16[64,16], f8e8m0fnu[2,16], f32[16,16]
# expect: TileTypeError @ 197
@ct.kernel
def mma_scaled_2d(a, sa, b, sb, c):
    x = ct.load(a, index=(0, 0), shape=(16, 64))
    xs = ct.load(sa, index=(0, 0), shape=(16, 2))
    y = ct.load(b, index=(0, 0), shape=(64, 16))
    ys = ct.load(sb, index=(0, 0), shape=(2, 16))
    acc = ct.load(c, index=(0, 0), shape=(16, 16))
    ct.store(c, index=(0, 0), tile=ct.mma_scaled(x, xs, y, ys, acc))


# tilescope: args f8e4m3fn[2,16,64], f8e8m0fnu[2,16,2], f8e4m3fn[64,16], f8e8m0fnu[2,16], f32[2,16,16]
# expect: ok
@ct.kernel
def mma_scaled_3d_2d(a, sa, b, sb, c):
    x = ct.load(a, index=(0, 0, 0), shape=(2, 16, 64))
    xs = ct.load(sa, index=(0, 0, 0), shape=(2, 16, 2))
    y = ct.load(b, index=(0, 0), shape=(64, 16))
    ys = ct.load(sb, index=(0, 0), shape=(2, 16))
    acc = ct.load(c, index=(0, 0, 0), shape=(2, 16, 16))
    ct.store(c, index=(0, 0, 0), tile=ct.mma_scaled(x, xs, y, ys, acc))


# tilescope: args f8e4m3fn[2,16,64], f8e8m0fnu[16,2], f8e4m3fn[64,16], f8e8m0fnu[2,16], f32[2,16,16]
# expect: TileTypeError @ 221
@ct.kernel
def mma_scaled_scale_rank(a, sa, b, sb, c):
    x = ct.load(a, index=(0, 0, 0), shape=(2, 16, 64))
    xs = ct.load(sa, index=(0, 0), shape=(16, 2))
    y = ct.load(b, index=(0, 0), shape=(64, 16))
    ys = ct.load(sb, index=(0, 0), shape=(2, 16))
    acc = ct.load(c, index=(0, 0, 0), shape=(2, 16, 16))
    ct.store(c, index=(0, 0, 0), tile=ct.mma_scaled(x, xs, y, ys, acc))


# tilescope: args f8e4m3fn[16,64], f8e8m0fnu[8,2], f8e4m3fn[64,16], f8e8m0fnu[2,16], f32[16,16]
# expect: TileTypeError @ 233
@ct.kernel
def mma_scaled_scale_m_bad(a, sa, b, sb, c):
    x = ct.load(a, index=(0, 0), shape=(16, 64))
    xs = ct.load(sa, index=(0, 0), shape=(8, 2))
    y = ct.load(b, index=(0, 0), shape=(64, 16))
    ys = ct.load(sb, index=(0, 0), shape=(2, 16))
    acc = ct.load(c, index=(0, 0), shape=(16, 16))
    ct.store(c, index=(0, 0), tile=ct.mma_scaled(x, xs, y, ys, acc))


# tilescope: args f8e4m3fn[16,64], f8e8m0fnu[16,2], f8e4m3fn[32,16], f8e8m0fnu[1,16], f32[16,16]
# expect: TileTypeError @ 245
@ct.kernel
def mma_scaled_k_bad(a, sa, b, sb, c):
    x = ct.load(a, index=(0, 0), shape=(16, 64))
    xs = ct.load(sa, index=(0, 0), shape=(16, 2))
    y = ct.load(b, index=(0, 0), shape=(32, 16))
    ys = ct.load(sb, index=(0, 0), shape=(1, 16))
    acc = ct.load(c, index=(0, 0), shape=(16, 16))
    ct.store(c, index=(0, 0), tile=ct.mma_scaled(x, xs, y, ys, acc))
