"""Typing rules of atomics on arrays, raw memory and tiled views (tilescope/ops/atomics.py)."""
import pytest

import tilescope
import tilescope.lang as ct
from tilescope.errors import TileTypeError


def ops_named(compiled, name):
    return [op for op in compiled.final.walk() if op.name == name]


def rejects(kernel, args, cls, match):
    with pytest.raises(cls, match=match):
        tilescope.compile(kernel, args)


@ct.kernel
def rmw_all(cnt, src, out):
    idx = ct.load(src, index=(0,), shape=(64,))
    o = ct.atomic_add(cnt, idx, 1)
    o = o + ct.atomic_max(cnt, idx, 5)
    o = o + ct.atomic_and(cnt, idx, 7)
    ct.store(out, index=(0,), tile=o)


def test_rmw_result_and_literal_update_dtype():
    c = tilescope.compile(rmw_all, "i32[64], i32[64], i32[64]")
    modes = [op.attrs["mode"] for op in ops_named(c, "atomic")]
    assert modes == ["add", "max", "and"]
    assert all(str(op.result.type) == "Tile[int32,(64)]" for op in ops_named(c, "atomic"))
    # a bare literal update is an int32 tile: it does not convert to uint32 ...
    rejects(rmw_all, "u32[64], i32[64], u32[64]", TileTypeError, "cannot implicitly cast int32 to uint32")
    # ... and bitwise atomics need an exact dtype match
    rejects(rmw_all, "i64[64], i32[64], i64[64]", TileTypeError, r"update dtype \(int32\) to exactly match")


@ct.kernel
def scalar_index(cnt):
    ct.atomic_add(cnt, 3, 1)
    ct.atomic_or(cnt, 4, 1)


def test_scalar_index_literal():
    c = tilescope.compile(scalar_index, "i32[64]")
    assert c.stored_types() == ["Tile[int32,()]", "Tile[int32,()]"]
    rejects(scalar_index, "u32[64]", TileTypeError, r"update dtype \(int32\) to exactly match .*uint32")


@ct.kernel
def max_literal(x, src):
    ct.atomic_max(x, ct.load(src, index=(0,), shape=(64,)), 1.0)


@ct.kernel
def add_literal(x, src):
    ct.atomic_add(x, ct.load(src, index=(0,), shape=(64,)), 1.0)


@pytest.mark.parametrize("dtype,ok", [("f32", True), ("f64", True), ("f16", False), ("bf16", False)])
def test_float_add_literal(dtype, ok):
    if ok:
        assert tilescope.compile(add_literal, f"{dtype}[64], i32[64]").stored_types() == \
            [f"Tile[{ {'f32': 'float32', 'f64': 'float64'}[dtype]},(64)]"]
    else:   # the float32 literal tile does not narrow implicitly
        rejects(add_literal, f"{dtype}[64], i32[64]", TileTypeError, "cannot implicitly cast float32")


def test_dtype_restrictions():
    rejects(max_literal, "f32[64], i32[64]", TileTypeError, "Unsupported array dtype: float32")
    rejects(add_literal, "i16[64], i32[64]", TileTypeError, "Unsupported array dtype: int16")


@ct.kernel
def weak_atomic(x):
    ct.atomic_add(x, 0, 1, memory_order=ct.MemoryOrder.WEAK)


@ct.kernel
def no_scope(x):
    ct.atomic_add(x, 0, 1, memory_scope=ct.MemoryScope.NONE)


def test_memory_order_validation():
    rejects(weak_atomic, "i32[64]", TileTypeError, "Invalid memory order for tile_atomic_rmw")
    rejects(no_scope, "i32[64]", TileTypeError, "requires a memory scope")


@ct.kernel
def cas(x, src):
    idx = ct.load(src, index=(0, 0), shape=(16, 1))
    old = ct.atomic_cas(x, (idx, 0), 0, 1.5)
    ct.atomic_xchg(x, (idx, 1), old)


def test_cas_broadcasts_expected_and_desired():
    c = tilescope.compile(cas, "f64[64,4], i32[64,1]")
    [op] = ops_named(c, "atomic_cas")
    assert str(op.result.type) == "Tile[float64,(16,1)]"
    assert [str(v.type) for v in op.operands[-2:]] == ["Tile[float64,(16,1)]"] * 2


@ct.kernel
def raw_atomics(cnt, src):
    rm = cnt.get_raw_memory()
    offs = ct.load(src, index=(0,), shape=(64,))
    old = rm.atomic_xor_offset(offs, offs, mask=offs > 3, memory_order=ct.MemoryOrder.RELAXED)
    rm.atomic_cas_offset(offs, old, 0)


def test_raw_memory_atomics():
    c = tilescope.compile(raw_atomics, "i32[1024], i32[64]")
    [rmw] = ops_named(c, "raw_atomic")
    assert rmw.attrs["mode"] == "xor" and rmw.attrs["has_mask"]
    assert len(ops_named(c, "raw_atomic_cas")) == 1     # kept although its result is unused
    assert c.stored_types() == ["Tile[int32,(64)]", "Tile[int32,(64)]"]


@ct.kernel
def view_atomics(dst):
    tv = dst.tiled_view((16, 16))
    tv.atomic_store_add((0, 0), 1)
    tv.atomic_store_or((1, 0), 1)


def test_tiled_view_atomics():
    c = tilescope.compile(view_atomics, "i32[64,64]")
    assert [op.attrs["mode"] for op in ops_named(c, "tiled_atomic")] == ["add", "or"]
    assert c.stored_types() == ["Tile[int32,(16,16)]"] * 2
    rejects(view_atomics, "i64[64,64]", TileTypeError, r"update dtype \(int32\) to exactly match")
    rejects(view_atomics, "f32[64,64]", TileTypeError, "Unsupported tiled view dtype: float32")
