"""Typing rules of reductions and scans (tilescope/ops/reduce.py)."""
import pytest

import tilescope
import tilescope.lang as ct
from tilescope.errors import TileSyntaxError, TileTypeError


def ops_named(compiled, name):
    return [op for op in compiled.final.walk() if op.name == name]


@ct.kernel
def row_sum(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 32))
    ct.store(y, index=(0,), tile=ct.sum(t, axis=1))


@pytest.mark.parametrize("src,dst,stored", [("i8", "i8", "int8"), ("bool", "i32", "int32"),
                                            ("f16", "f16", "float16"), ("u16", "u16", "uint16"),
                                            ("f64", "f64", "float64")])
def test_sum_keeps_dtype_and_bool_becomes_int32(src, dst, stored):
    c = tilescope.compile(row_sum, f"{src}[16,32], {dst}[16]")
    [op] = ops_named(c, "reduce")
    assert op.attrs["fn"] == "sum" and op.attrs["axes"] == (1,)
    assert str(op.result.type) == f"Tile[{stored},(16)]"


@pytest.mark.parametrize("dt", ["tf32", "f8e4m3fn"])
def test_sum_rejects_restricted_floats(dt):
    with pytest.raises(TileTypeError, match="Non-arithmetic dtype"):
        tilescope.compile(row_sum, f"{dt}[16,32], f32[16]")


@ct.kernel
def many_reductions(x, a, b, c, d):
    t = ct.load(x, index=(0, 0, 0), shape=(4, 8, 16))
    ct.store(a, index=(0,), tile=ct.sum(t, axis=(2, 0)))          # axes sorted, both removed
    ct.store(b, index=(0, 0, 0), tile=ct.max(t, axis=-1, keepdims=True, propagate_nan=True))
    ct.store(c, index=(0,), tile=ct.prod(t))                     # all axes
    ct.store(d, index=(0, 0, 0), tile=ct.min(t, axis=(0, 1), keepdims=True, flush_to_zero=True))


def test_axes_keepdims_and_attributes():
    c = tilescope.compile(many_reductions, "f32[4,8,16], f32[8], f32[4,8,1], f32[1], f32[1,1,16]")
    assert c.stored_types() == ["Tile[float32,(8)]", "Tile[float32,(4,8,1)]", "Tile[float32,(1)]",
                                "Tile[float32,(1,1,16)]"]
    ops = ops_named(c, "reduce")
    assert [op.attrs["fn"] for op in ops] == ["sum", "max", "prod", "min"]
    assert [op.attrs["axes"] for op in ops] == [(0, 2), (2,), (0, 1, 2), (0, 1)]
    assert [str(op.result.type) for op in ops] == [
        "Tile[float32,(8)]", "Tile[float32,(4,8)]", "Tile[float32,()]", "Tile[float32,(16)]"]
    assert ops[1].attrs.get("propagate_nan") is True
    assert ops[3].attrs.get("flush_to_zero") is True


@ct.kernel
def bad_axis(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.sum(t, axis=2))


@ct.kernel
def repeated_axis(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.sum(t, axis=(1, -1)).reshape((1,)))


@ct.kernel
def dynamic_axis(x, y, ax):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.sum(t, axis=ax))


@ct.kernel
def sum_rounding_approx(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.sum(t, axis=1, rounding_mode=ct.RoundingMode.APPROX))


@ct.kernel
def sum_rounding_string(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.sum(t, axis=1, rounding_mode="RZ"))


@ct.kernel
def max_ftz(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.max(t, axis=1, flush_to_zero=True))


@pytest.mark.parametrize("kernel,args,match", [
    (bad_axis, "f32[16,16], f32[16]", "Axis 2 is out of range for rank 2"),
    (repeated_axis, "f32[16,16], f32[1]", "Repeated reduction axis 1"),
    (dynamic_axis, "f32[16,16], f32[16], i32", "compile-time constant"),
    (sum_rounding_approx, "f32[16,16], f32[16]", "Rounding mode approx is not supported for add"),
    (sum_rounding_approx, "i32[16,16], i32[16]", "Rounding mode approx is not supported"),
    (sum_rounding_string, "i32[16,16], i32[16]", "only be used for unrestricted float"),
    (max_ftz, "f16[16,16], f16[16]", "Flush to zero can only be used for float32"),
])
def test_reduction_errors(kernel, args, match):
    with pytest.raises(TileTypeError, match=match):
        tilescope.compile(kernel, args)


def test_rounding_mode_by_name_and_ftz_for_max():
    c = tilescope.compile(sum_rounding_string, "f32[16,16], f32[16]")
    [op] = ops_named(c, "reduce")
    assert op.attrs["rounding_mode"] is ct.RoundingMode.RZ
    tilescope.compile(max_ftz, "f32[16,16], f32[16]")


@ct.kernel
def arg_reductions(x, a, b, c):
    t = ct.load(x, index=(0, 0), shape=(8, 16))
    ct.store(a, index=(0,), tile=ct.argmax(t, axis=1))
    ct.store(b, index=(0, 0), tile=ct.argmin(t, keepdims=True, propagate_nan=True))
    ct.store(c, index=(0, 0), tile=ct.argmax(t, axis=0, keepdims=True))


@pytest.mark.parametrize("dt", ["f32", "i8", "bool", "u32"])
def test_argmax_argmin_give_int32(dt):
    c = tilescope.compile(arg_reductions, f"{dt}[8,16], i32[8], i32[1,1], i32[1,16]")
    assert c.stored_types() == ["Tile[int32,(8)]", "Tile[int32,(1,1)]", "Tile[int32,(1,16)]"]
    ops = ops_named(c, "reduce")
    assert [op.attrs["fn"] for op in ops] == ["argmax", "argmin", "argmax"]
    # axis=None reduces the flattened tile
    assert ops[1].operands[0].type.shape == (128,) and ops[1].attrs["propagate_nan"] is True


def _combine_max_idx(v0, i0, v1, i1):
    take = v1 > v0
    return ct.where(take, v1, v0), ct.where(take, i1, i0)


@ct.kernel
def custom_reduce(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 32))
    ct.store(y, index=(0, 0), tile=ct.reduce(t, axis=1, func=lambda a, b: a + b * 2, identity=0,
                                             keepdims=True))


@ct.kernel
def custom_reduce_tuple(x, i, y):
    t = ct.load(x, index=(0, 0), shape=(8, 64))
    idx = ct.load(i, index=(0, 0), shape=(1, 64))
    vals, inds = ct.reduce((t, idx), axis=-1, func=_combine_max_idx, identity=(-3e38, 0))
    ct.store(y, index=(0,), tile=inds)


def test_custom_reduce_region():
    c = tilescope.compile(custom_reduce, "i16[16,32], i16[16,1]")
    [op] = ops_named(c, "reduce")
    assert op.attrs["fn"] == "custom" and op.attrs["axes"] == (1,) and op.attrs["identities"] == (0,)
    [block] = op.blocks
    assert [str(a.type) for a in block.args] == ["Tile[int16,()]"] * 2
    assert block.ops[-1].name == "yield"
    assert str(block.ops[-1].operands[0].type) == "Tile[int16,()]"
    assert c.stored_types() == ["Tile[int16,(16,1)]"]


def test_custom_reduce_tuple_broadcasts_and_orders_args():
    c = tilescope.compile(custom_reduce_tuple, "f32[8,64], i32[1,64], i32[8]")
    [op] = ops_named(c, "reduce")
    assert [str(v.type) for v in op.operands] == ["Tile[float32,(8,64)]", "Tile[int32,(8,64)]"]
    assert op.attrs["identities"] == (-3e38, 0)
    # (*lhs, *rhs)
    assert [a.type.dtype.name for a in op.blocks[0].args] == ["float32", "int32", "float32", "int32"]
    assert [str(r.type) for r in op.results] == ["Tile[float32,(8)]", "Tile[int32,(8)]"]


@ct.kernel
def combiner_wrong_dtype(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, 1, lambda a, b: a.astype(ct.float64) + b, 0.0))


@ct.kernel
def combiner_not_tuple(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    r, s = ct.reduce((t, t), 1, lambda a, b, c, d: a + c, (0.0, 0.0))
    ct.store(y, index=(0,), tile=r)


@ct.kernel
def identity_count(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    r, s = ct.reduce((t, t), 1, lambda a, b, c, d: (a + c, b + d), (0.0,))
    ct.store(y, index=(0,), tile=r)


@ct.kernel
def identity_dynamic(x, y, z):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, 1, lambda a, b: a + b, z))


@ct.kernel
def not_callable(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, 1, 3, 0.0))


@ct.kernel
def nonscalar_result(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, 1, lambda a, b: t, 0.0))


@ct.kernel
def axis_none(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, None, lambda a, b: a + b, 0.0))


@pytest.mark.parametrize("kernel,args,match", [
    (combiner_wrong_dtype, "f32[16,16], f32[16]",
     "Reduction function returned a tile of unexpected dtype: cannot implicitly cast float64 to float32"),
    (combiner_not_tuple, "f32[16,16], f32[16]", "but a tuple was expected"),
    (identity_count, "f32[16,16], f32[16]", r"Number of identity values \(1\) must match"),
    (identity_dynamic, "f32[16,16], f32[16], f32", "Expected a constant"),
    (not_callable, "f32[16,16], f32[16]", "Expected a callable object"),
    (nonscalar_result, "f32[16,16], f32[16]", "non-scalar shape"),
    (axis_none, "f32[16,16], f32[16]", "integer constant"),
])
def test_custom_reduce_errors(kernel, args, match):
    with pytest.raises(TileTypeError, match=match):
        tilescope.compile(kernel, args)


@ct.kernel
def nested(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, 1, lambda a, b: a + ct.sum(t), 0.0))


def _branchy(a, b):
    if a > b:
        return a
    return b


@ct.kernel
def branching(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.reduce(t, 1, _branchy, 0.0))


def _loopy(a, b):
    for i in range(3):
        a = a + b
    return a


@ct.kernel
def looping(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(y, index=(0,), tile=ct.scan(t, 0, _loopy, 0.0))


@ct.kernel
def loading(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(y, index=(0,), tile=ct.scan(t, 0, lambda a, b: a + ct.load(x, (0,), (1,)).item(), 0.0))


@pytest.mark.parametrize("kernel,args,match", [
    (nested, "f32[16,16], f32[16]", "Nested scan/reduction is not supported"),
    (branching, "f32[16,16], f32[16]", "Branching inside reduction body"),
    (looping, "f32[16], f32[16]", "Loops inside scan body"),
    (loading, "f32[16], f32[16]", "memory effects are not supported inside scan body"),
])
def test_combiner_body_restrictions(kernel, args, match):
    with pytest.raises(TileSyntaxError, match=match):
        tilescope.compile(kernel, args)


@ct.kernel
def scans(x, a, b):
    t = ct.load(x, index=(0, 0), shape=(16, 32))
    ct.store(a, index=(0, 0), tile=ct.cumsum(t, axis=-1, reverse=True))
    ct.store(b, index=(0, 0), tile=ct.cumprod(t))


@pytest.mark.parametrize("dt,out", [("f32", "float32"), ("i8", "int8"), ("bool", "int32")])
def test_cumsum_cumprod(dt, out):
    c = tilescope.compile(scans, f"{dt}[16,32], {'i32' if dt == 'bool' else dt}[16,32], "
                                 f"{'i32' if dt == 'bool' else dt}[16,32]")
    ops = ops_named(c, "scan")
    assert [(op.attrs["fn"], op.attrs["axis"], op.attrs["reverse"]) for op in ops] == \
        [("sum", 1, True), ("prod", 0, False)]
    assert c.stored_types() == [f"Tile[{out},(16,32)]"] * 2


def _affine(a0, b0, a1, b1):
    return a0 * a1, b0 * a1 + b1


@ct.kernel
def custom_scan(a, b, y):
    ta = ct.load(a, index=(0,), shape=(64,))
    tb = ct.load(b, index=(0,), shape=(64,))
    ra, rb = ct.scan((ta, tb), axis=0, func=_affine, identity=(1.0, 0.0), reverse=True)
    ct.store(y, index=(0,), tile=rb)


@ct.kernel
def scan_bad_axis(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.cumsum(t, axis=1))


def test_custom_scan():
    c = tilescope.compile(custom_scan, "f32[64], f32[64], f32[64]")
    [op] = ops_named(c, "scan")
    assert op.attrs["fn"] == "custom" and op.attrs["reverse"] is True
    assert op.attrs["identities"] == (1.0, 0.0)
    assert len(op.blocks[0].args) == 4 and op.blocks[0].ops[-1].name == "yield"
    with pytest.raises(TileTypeError, match="out of range"):
        tilescope.compile(scan_bad_axis, "f32[64], f32[64]")
