import cuda.tile as ct


# tilescope: args f16[64,32], f16[32,64], f32[64,64]
# expect: ok
# tilescope: args bf16[64,32], bf16[32,64], f32[64,64]
# expect: ok
# tilescope: args f32[64,32], f32[32,64], f32[64,64]
# expect: ok
@ct.kernel
def mma_basic(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(64, 32))
    y = ct.load(b, index=(0, 0), shape=(32, 64))
    acc = ct.zeros((64, 64), dtype=ct.float32)
    acc = ct.mma(x, y, acc)
    ct.store(c, index=(0, 0), tile=acc)


# tilescope: args f16[64,32], f16[32,64], f16[64,64]
# expect: ok
@ct.kernel
def mma_f16_acc(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(64, 32))
    y = ct.load(b, index=(0, 0), shape=(32, 64))
    acc = ct.mma(x, y, acc=ct.zeros((64, 64), dtype=ct.float16))
    ct.store(c, index=(0, 0), tile=acc)


# tilescope: args i8[32,64], i8[64,32], i32[32,32]
# expect: ok
@ct.kernel
def mma_int8(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(32, 64))
    y = ct.load(b, index=(0, 0), shape=(64, 32))
    acc = ct.mma(x, y, ct.zeros((32, 32), dtype=ct.int32))
    ct.store(c, index=(0, 0), tile=acc)


# tilescope: args f8e4m3fn[64,64], f8e4m3fn[64,64], f32[64,64]
# expect: ok
@ct.kernel
def mma_fp8_fast_acc(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(64, 64))
    y = ct.load(b, index=(0, 0), shape=(64, 64))
    acc = ct.mma(x, y, ct.zeros((64, 64), dtype=ct.float32), use_fast_acc=True)
    ct.store(c, index=(0, 0), tile=acc)


# tilescope: args f16[4,32,16], f16[4,16,32], f32[4,32,32]
# expect: ok
@ct.kernel
def mma_batched(a, b, c):
    x = ct.load(a, index=(0, 0, 0), shape=(4, 32, 16))
    y = ct.load(b, index=(0, 0, 0), shape=(4, 16, 32))
    acc = ct.mma(x, y, ct.zeros((4, 32, 32), dtype=ct.float32))
    ct.store(c, index=(0, 0, 0), tile=acc)


# tilescope: args f16[64,32], f16[32,64], f16[64,64]
# expect: ok
# tilescope: args f32[64,32], f32[32,64], f32[64,64]
# expect: ok
@ct.kernel
def matmul_fn_and_operator(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(64, 32))
    y = ct.load(b, index=(0, 0), shape=(32, 64))
    ct.store(c, index=(0, 0), tile=ct.matmul(x, y) + x @ y)


# tilescope: args f16[64,32], f16[32,64], f32[64,64]
# expect: ok
@ct.kernel
def matmul_tf32_cast(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(64, 32)).astype(ct.tfloat32)
    y = ct.load(b, index=(0, 0), shape=(32, 64)).astype(ct.tfloat32)
    acc = ct.mma(x, y, ct.zeros((64, 64), dtype=ct.float32))
    ct.store(c, index=(0, 0), tile=acc)


# tilescope: args f8e4m3fn[64,64], f8e8m0fnu[64,2], f8e4m3fn[64,64], f8e8m0fnu[2,64], f32[64,64]
# expect: ok
@ct.kernel
def mma_scaled_fp8(a, sa, b, sb, c):
    x = ct.load(a, index=(0, 0), shape=(64, 64))
    xs = ct.load(sa, index=(0, 0), shape=(64, 2))
    y = ct.load(b, index=(0, 0), shape=(64, 64))
    ys = ct.load(sb, index=(0, 0), shape=(2, 64))
    acc = ct.mma_scaled(x, xs, y, ys, ct.zeros((64, 64), dtype=ct.float32))
    ct.store(c, index=(0, 0), tile=acc)


# tilescope: args f16[64,32], f16[64,64], f32[64,64]
# expect: TileTypeError @ 98
@ct.kernel
def mma_k_mismatch(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(64, 32))
    y = ct.load(b, index=(0, 0), shape=(64, 64))
    ct.store(c, index=(0, 0), tile=ct.mma(x, y, ct.zeros((64, 64), dtype=ct.float32)))


# tilescope: args f16[64,32], bf16[32,64], f32[64,64]
# expect: TileTypeError @ 107
@ct.kernel
def mma_dtype_mismatch(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(64, 32))
    y = ct.load(b, index=(0, 0), shape=(32, 64))
    ct.store(c, index=(0, 0), tile=ct.mma(x, y, ct.zeros((64, 64), dtype=ct.float32)))


# tilescope: args f16[64], f16[64], f32[64]
# expect: TileTypeError @ 116
@ct.kernel
def mma_rank1(a, b, c):
    x = ct.load(a, index=(0,), shape=(64,))
    y = ct.load(b, index=(0,), shape=(64,))
    ct.store(c, index=(0,), tile=ct.mma(x, y, ct.zeros((64,), dtype=ct.float32)))


# tilescope: args f16[64,32], f16[32,64], f32[64,64]
# expect: TileTypeError @ 125
@ct.kernel
def mma_acc_shape_mismatch(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(64, 32))
    y = ct.load(b, index=(0, 0), shape=(32, 64))
    ct.store(c, index=(0, 0), tile=ct.mma(x, y, ct.zeros((32, 64), dtype=ct.float32)))
