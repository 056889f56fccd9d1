"""Typing rules of mma, matmul / `@` and mma_scaled (tilescope/ops/matmul.py)."""
import pytest

import tilescope
import tilescope.lang as ct
from tilescope.errors import TileTypeError


def ops_named(compiled, name):
    return [op for op in compiled.final.walk() if op.name == name]


@ct.kernel
def mma_2d(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(16, 32))
    y = ct.load(b, index=(0, 0), shape=(32, 8))
    acc = ct.load(c, index=(0, 0), shape=(16, 8))
    ct.store(c, index=(0, 0), tile=ct.mma(x, y, acc))


@pytest.mark.parametrize("inp,acc", [("f16", "f16"), ("f16", "f32"), ("bf16", "f32"), ("f32", "f32"),
                                     ("f64", "f64"), ("tf32", "f32"), ("f8e4m3fn", "f16"),
                                     ("f8e5m2", "f32"), ("i8", "i32"), ("u8", "i32")])
def test_mma_accumulator_table(inp, acc):
    c = tilescope.compile(mma_2d, f"{inp}[16,32], {inp}[32,8], {acc}[16,8]")
    [op] = ops_named(c, "mma")
    assert op.result.type == op.operands[2].type
    assert op.attrs["use_fast_acc"] is False


def test_mma_mixed_int8_uint8():
    c = tilescope.compile(mma_2d, "i8[16,32], u8[32,8], i32[16,8]")
    [op] = ops_named(c, "mma")
    assert [v.type.dtype.name for v in op.operands] == ["int8", "uint8", "int32"]


@pytest.mark.parametrize("args,match", [
    ("bf16[16,32], bf16[32,8], f16[16,8]", "Unsupported acc dtype float16"),
    ("i8[16,32], i8[32,8], i16[16,8]", "Unsupported acc dtype int16"),
    ("f16[16,32], bf16[32,8], f32[16,8]", "x and y must have the same dtype unless they are int8/uint8"),
    ("f16[16,32], f32[32,8], f32[16,8]", "x and y must have the same dtype"),
    ("i32[16,32], i32[32,8], i32[16,8]", "Unsupported input dtype int32"),
])
def test_mma_dtype_errors(args, match):
    with pytest.raises(TileTypeError, match=match):
        tilescope.compile(mma_2d, args)


@ct.kernel
def mma_batched_bcast(a, b, c):
    x = ct.load(a, index=(0, 0, 0), shape=(2, 16, 32))
    y = ct.load(b, index=(0, 0), shape=(32, 8))
    acc = ct.load(c, index=(0, 0, 0), shape=(2, 16, 8))
    ct.store(c, index=(0, 0, 0), tile=ct.mma(x, y, acc))


def test_mma_broadcasts_batch_axes():
    c = tilescope.compile(mma_batched_bcast, "f16[2,16,32], f16[32,8], f32[2,16,8]")
    [op] = ops_named(c, "mma")
    assert [v.type.shape for v in op.operands] == [(2, 16, 32), (2, 32, 8), (2, 16, 8)]


@ct.kernel
def mma_k_mismatch(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(16, 32))
    y = ct.load(b, index=(0, 0), shape=(16, 8))
    acc = ct.load(c, index=(0, 0), shape=(16, 8))
    ct.store(c, index=(0, 0), tile=ct.mma(x, y, acc))


@ct.kernel
def mma_acc_shape(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(16, 32))
    y = ct.load(b, index=(0, 0), shape=(32, 8))
    acc = ct.load(c, index=(0, 0), shape=(8, 8))
    ct.store(c, index=(0, 0), tile=ct.mma(x, y, acc))


@ct.kernel
def mma_rank1(a, b, c):
    x = ct.load(a, index=(0,), shape=(32,))
    y = ct.load(b, index=(0, 0), shape=(32, 8))
    acc = ct.load(c, index=(0,), shape=(8,))
    ct.store(c, index=(0,), tile=ct.mma(x, y, acc))


@ct.kernel
def mma_fast(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(16, 32))
    y = ct.load(b, index=(0, 0), shape=(32, 8))
    acc = ct.load(c, index=(0, 0), shape=(16, 8))
    ct.store(c, index=(0, 0), tile=ct.mma(x, y, acc, use_fast_acc=True))


@pytest.mark.parametrize("kernel,args,match", [
    (mma_k_mismatch, "f16[16,32], f16[16,8], f32[16,8]", "Incompatible shapes for matrix mul"),
    (mma_acc_shape, "f16[16,32], f16[32,8], f32[16,8]", r"Expect acc shape to be \(16, 8\)"),
    (mma_rank1, "f16[32], f16[32,8], f32[8]", "Expect shape of `x` to be at least 2D"),
    (mma_fast, "f16[16,32], f16[32,8], f32[16,8]", "use_fast_acc is only supported for fp8"),
])
def test_mma_shape_errors(kernel, args, match):
    with pytest.raises(TileTypeError, match=match):
        tilescope.compile(kernel, args)


def test_mma_fast_acc_fp8():
    c = tilescope.compile(mma_fast, "f8e4m3fn[16,32], f8e4m3fn[32,8], f32[16,8]")
    assert ops_named(c, "mma")[0].attrs["use_fast_acc"] is True


@ct.kernel
def matmul_op(a, b, c):
    x = ct.load(a, index=(0, 0), shape=(16, 32))
    y = ct.load(b, index=(0, 0), shape=(32, 8))
    ct.store(c, index=(0, 0), tile=x @ y)


@pytest.mark.parametrize("x,y,out,acc", [
    ("f16", "f16", "f16", "float16"),       # accumulates in the first supported acc dtype
    ("bf16", "bf16", "bf16", "float32"),
    ("i8", "i8", "i8", "int32"),
    ("f16", "f32", "f32", "float32"),       # operands are promoted first
    ("tf32", "tf32", "tf32", "float32"),
])
def test_matmul_result_dtype(x, y, out, acc):
    c = tilescope.compile(matmul_op, f"{x}[16,32], {y}[32,8], {out}[16,8]")
    [op] = ops_named(c, "mma")
    assert op.result.type.dtype.name == acc
    assert op.operands[2].const == 0
    assert c.stored_types() == [f"Tile[{tilescope.dtypes.dtype_from_name(out).name},(16,8)]"]


@pytest.mark.parametrize("args,match", [
    ("i32[16,32], i32[32,8], i32[16,8]", "Unsupported input dtype int32"),
    ("i8[16,32], u8[32,8], i32[16,8]", "promot"),
    ("f16[16,32], bf16[32,8], f32[16,8]", "promot"),
])
def test_matmul_errors(args, match):
    with pytest.raises(TileTypeError, match=match):
        tilescope.compile(matmul_op, args)


@ct.kernel
def matmul_vectors(a, b, m, c, d, e):
    v = ct.load(a, index=(0,), shape=(32,))
    w = ct.load(b, index=(0,), shape=(32,))
    mat = ct.load(m, index=(0, 0, 0), shape=(2, 16, 32))
    ct.store(c, index=(0,), tile=ct.matmul(v, w).reshape((1,)))
    ct.store(d, index=(0, 0), tile=mat @ w)
    ct.store(e, index=(0, 0), tile=ct.matmul(v, mat.permute((0, 2, 1))))


def test_matmul_one_dimensional_operands():
    c = tilescope.compile(matmul_vectors, "f32[32], f32[32], f32[2,16,32], f32[1], f32[2,16], f32[2,16]")
    assert c.stored_types() == ["Tile[float32,(1)]", "Tile[float32,(2,16)]", "Tile[float32,(2,16)]"]
    assert [op.result.type.shape for op in ops_named(c, "mma")] == [(1, 1), (2, 16, 1), (2, 1, 16)]


@ct.kernel
def scaled(a, sa, b, sb, c):
    x = ct.load(a, index=(0, 0), shape=(16, 64))
    xs = ct.load(sa, index=(0, 0), shape=(16, 2))
    y = ct.load(b, index=(0, 0), shape=(64, 8))
    ys = ct.load(sb, index=(0, 0), shape=(2, 8))
    acc = ct.load(c, index=(0, 0), shape=(16, 8))
    ct.store(c, index=(0, 0), tile=ct.mma_scaled(x, xs, y, ys, acc))


def test_mma_scaled_ok():
    c = tilescope.compile(scaled, "f8e4m3fn[16,64], f8e8m0fnu[16,2], f8e4m3fn[64,8], f8e8m0fnu[2,8], f32[16,8]")
    [op] = ops_named(c, "mma_scaled")
    assert [v.type.shape for v in op.operands] == [(16, 64), (16, 2), (64, 8), (2, 8), (16, 8)]
    assert str(op.result.type) == "Tile[float32,(16,8)]"


@pytest.mark.parametrize("args,match", [
    ("f8e4m3fn[16,64], f8e8m0fnu[16,2], f8e5m2[64,8], f8e8m0fnu[2,8], f32[16,8]", "same dtype"),
    ("f8e4m3fn[16,64], f8e8m0fnu[16,2], f8e4m3fn[64,8], f8e4m3fn[2,8], f32[16,8]",
     "x_scale and y_scale must have the same dtype"),
    ("f16[16,64], f8e8m0fnu[16,2], f16[64,8], f8e8m0fnu[2,8], f32[16,8]", "Unsupported input dtype float16"),
    ("f8e4m3fn[16,64], f8e4m3fn[16,2], f8e4m3fn[64,8], f8e4m3fn[2,8], f32[16,8]", "Unsupported scale dtype"),
    ("f8e4m3fn[16,64], f8e8m0fnu[16,2], f8e4m3fn[64,8], f8e8m0fnu[2,8], f16[16,8]", "Unsupported acc dtype"),
])
def test_mma_scaled_dtype_errors(args, match):
    with pytest.raises(TileTypeError, match=match):
        tilescope.compile(scaled, args)


@ct.kernel
def scaled_bad_block(a, sa, b, sb, c):
    x = ct.load(a, index=(0, 0), shape=(16, 64))
    xs = ct.load(sa, index=(0, 0), shape=(16, 4))
    y = ct.load(b, index=(0, 0), shape=(64, 8))
    ys = ct.load(sb, index=(0, 0), shape=(4, 8))
    acc = ct.load(c, index=(0, 0), shape=(16, 8))
    ct.store(c, index=(0, 0), tile=ct.mma_scaled(x, xs, y, ys, acc))


def test_mma_scaled_block_size():
    with pytest.raises(TileTypeError, match=r"scaling block size B = K // K_s in \{32\}"):
        tilescope.compile(scaled_bad_block,
                          "f8e4m3fn[16,64], f8e8m0fnu[16,4], f8e4m3fn[64,8], f8e8m0fnu[4,8], f32[16,8]")
