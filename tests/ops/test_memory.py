"""Typing rules of loads/stores, gather/scatter, advanced indexing and array views
(tilescope/ops/memory.py, gather.py, views.py)."""
import pytest

import tilescope
import tilescope.lang as ct
from tilescope.errors import TileTypeError, TileUnsupportedFeatureError, TileValueError


def ops_named(compiled, name):
    return [op for op in compiled.final.walk() if op.name == name]


def rejects(kernel, args, cls, match):
    with pytest.raises(cls, match=match):
        tilescope.compile(kernel, args)


# ---- load / store / num_tiles ------------------------------------------------------

@ct.kernel
def load_scalar(src, dst):
    x = ct.load(src, index=(3,), shape=())
    ct.store(dst, index=(0,), tile=x)


def test_load_0d_shape_gives_a_scalar_and_store_reshapes_it():
    c = tilescope.compile(load_scalar, "f32[64], f32[64]")
    [load] = ops_named(c, "load_tile")
    assert load.result.type.shape == (1,)          # one element per array axis ...
    assert c.stored_types() == ["Tile[float32,(1)]"]


@ct.kernel
def unchecked_load(src, dst):
    ct.store(dst, index=(0,), tile=ct.load(src, index=(0,), shape=(64,), check_bounds=False))


def test_check_bounds_false_needs_bytecode_13_4():
    with pytest.raises(TileUnsupportedFeatureError, match=r"check_bounds=False.*13\.4"):
        tilescope.compile(unchecked_load, "f32[64], f32[64]", tileiras_version="13.3")
    assert tilescope.compile(unchecked_load, "f32[64], f32[64]").target == (13, 4)   # the default: newest


@ct.kernel
def store_rank_mismatch(src, dst):
    ct.store(src, index=(0, 0), tile=ct.load(dst, index=(0,), shape=(16,)))


def test_store_rank_mismatch_is_accepted_like_upstream():
    c = tilescope.compile(store_rank_mismatch, "f32[64,64], f32[64]")
    assert c.stored_types() == ["Tile[float32,(16)]"]


@ct.kernel
def num_tiles_runtime(src, dst):
    n = ct.num_tiles(src, axis=0, shape=(64,))
    ct.store(dst, index=(0,), tile=ct.load(src, index=(n - 1,), shape=(64,)))


def test_num_tiles_is_a_runtime_int32_even_for_static_shapes():
    c = tilescope.compile(num_tiles_runtime, "f32[1024], f32[64]")
    [op] = ops_named(c, "num_tiles")
    assert str(op.result.type) == "Tile[int32,()]"
    assert op.attrs["shape"] == (64,) and op.attrs["axis"] == 0


@ct.kernel
def weak_with_scope(src, dst):
    ct.store(dst, index=(0,), tile=ct.load(src, index=(0,), shape=(64,)), memory_scope=ct.MemoryScope.DEVICE)


@ct.kernel
def bad_latency(src, dst):
    ct.store(dst, index=(0,), tile=ct.load(src, index=(0,), shape=(64,), latency=11))


def test_memory_order_and_hint_errors():
    rejects(weak_with_scope, "f32[64], f32[64]", TileTypeError, "WEAK memory ordering cannot specify")
    rejects(bad_latency, "f32[64], f32[64]", TileValueError, "Latency must be between 1 and 10")


# ---- gather / scatter ----------------------------------------------------------------

@ct.kernel
def gather_broadcast(src, rows, cols, dst):
    r = ct.load(rows, index=(0, 0), shape=(16, 1))
    c = ct.load(cols, index=(0, 0), shape=(1, 8))
    t = ct.gather(src, (r, c), mask=r < 8, padding_value=-1)
    ct.store(dst, index=(0, 0), tile=t)


def test_gather_broadcasts_indices_mask_and_padding():
    c = tilescope.compile(gather_broadcast, "f16[64,64], i32[16,1], u32[1,8], f16[16,8]")
    [g] = ops_named(c, "gather")
    assert str(g.result.type) == "Tile[float16,(16,8)]"
    assert [str(v.type) for v in g.operands[1:]] == [
        "Tile[int32,(16,8)]", "Tile[uint32,(16,8)]", "Tile[float16,(16,8)]", "Tile[bool_,(16,8)]"]
    assert g.attrs["has_mask"] and g.attrs["check_bounds"]


@ct.kernel
def gather_float_index(src, idx, dst):
    ct.store(dst, index=(0,), tile=ct.gather(src, ct.load(idx, index=(0,), shape=(64,))))


@ct.kernel
def gather_int_mask(src, idx, dst):
    ind = ct.load(idx, index=(0,), shape=(64,))
    ct.store(dst, index=(0,), tile=ct.gather(src, ind, mask=ind))


@ct.kernel
def gather_wrong_rank(src, idx, dst):
    ind = ct.load(idx, index=(0,), shape=(64,))
    ct.store(dst, index=(0,), tile=ct.gather(src, ind))


def test_gather_errors():
    rejects(gather_float_index, "f32[1024], f32[64], f32[64]", TileTypeError, "integer scalars/tiles")
    rejects(gather_int_mask, "f32[1024], i32[64], f32[64]", TileTypeError, "must have boolean dtype")
    rejects(gather_wrong_rank, "f32[32,32], i32[64], f32[64]", TileTypeError,
            r"For array of rank 2, `indices` must be a tuple of length 2")


@ct.kernel
def scatter_literal(dst, idx):
    ind = ct.load(idx, index=(0,), shape=(32,))
    ct.scatter(dst, (ind, ind), 1.0)


@ct.kernel
def scatter_bad_value(dst, idx, vals):
    ct.scatter(dst, ct.load(idx, index=(0,), shape=(64,)), ct.load(vals, index=(0,), shape=(32,)))


def test_scatter_value_broadcasts_and_adapts():
    c = tilescope.compile(scatter_literal, "f16[32,32], i32[32]")
    assert c.stored_types() == ["Tile[float16,(32)]"]
    rejects(scatter_bad_value, "f32[1024], i32[64], f32[64]", TileTypeError,
            r"Value shape \(32,\) is not broadcastable to the index shape \(64,\)")


# ---- advanced indexing ------------------------------------------------------------------

@ct.kernel
def advanced(src, dst, rows, col0):
    r = ct.load(rows, index=(0,), shape=(8,))
    t = ct.load_advanced_indexing(src, (r, ct.Slice(col0, 16)), padding_mode=ct.PaddingMode.ZERO)
    ct.store_advanced_indexing(dst, (r, ct.Slice(0, 16)), t)


@ct.kernel
def advanced_two_sparse(src, dst, rows):
    r = ct.load(rows, index=(0,), shape=(8,))
    ct.store(dst, index=(0, 0), tile=ct.load_advanced_indexing(src, (r, r)))


@ct.kernel
def advanced_bad_length(src, dst, rows):
    r = ct.load(rows, index=(0,), shape=(8,))
    ct.store(dst, index=(0, 0), tile=ct.load_advanced_indexing(src, (r, ct.Slice(0, 12))))


def test_advanced_indexing():
    c = tilescope.compile(advanced, "f32[256,64], f32[256,64], i32[8], i32")
    [ld] = ops_named(c, "load_advanced")
    assert ld.attrs["sparse_dim"] == 0 and str(ld.result.type) == "Tile[float32,(8,16)]"
    assert c.stored_types() == ["Tile[float32,(8,16)]"]
    rejects(advanced_two_sparse, "f32[64,64], f32[8,8], i32[8]", TileTypeError, "exactly one index")
    rejects(advanced_bad_length, "f32[64,64], f32[8,8], i32[8]", TileTypeError, "must be a power of two")


# ---- views ----------------------------------------------------------------------------------

@ct.kernel
def slices(src, dst, start):
    a = src.slice(axis=-1, start=8, stop=24)
    b = src.slice(0, start, start + 4)
    ct.store(dst, index=(0, 0), tile=ct.load(a, index=(0, 0), shape=(4, 16)) + ct.load(b, index=(0, 0), shape=(4, 16)))


@ct.kernel
def slice_reversed(src, dst):
    ct.store(dst, index=(0, 0), tile=ct.load(src.slice(0, 8, 4), index=(0, 0), shape=(4, 16)))


def test_array_slice_types_and_errors():
    c = tilescope.compile(slices, "f32[64,64], f32[4,16], i32")
    a, b = ops_named(c, "array_slice")
    assert a.attrs["axis"] == 1 and a.result.type.static_dim(1) == 16
    assert b.attrs["axis"] == 0 and b.result.type.static_dim(0) is None
    rejects(slice_reversed, "f32[64,64], f32[4,16]", TileTypeError, "stop must be greater than or equal")


@ct.kernel
def tiled_views(src, dst):
    tv = src.tiled_view((4, 16), padding_mode=ct.PaddingMode.ZERO, traversal_steps=(2, 16))
    out = dst.tiled_view(16)
    n = tv.num_tiles(0)
    t = tv.load((n - 1, 0))
    out.store(0, ct.sum(t, axis=0))


@ct.kernel
def tiled_view_bad_store(src, dst):
    dst.tiled_view((4, 16)).store((0, 0), ct.load(src, index=(0, 0), shape=(8, 16)))


def test_tiled_view():
    c = tilescope.compile(tiled_views, "f32[64,64], f32[64]")
    [view, _] = ops_named(c, "tiled_view")
    assert view.result.type.tile_shape == (4, 16) and view.result.type.traversal_steps == (2, 16)
    assert str(ops_named(c, "tiled_num_tiles")[0].result.type) == "Tile[int32,()]"
    assert c.stored_types() == ["Tile[float32,(16)]"]
    rejects(tiled_view_bad_store, "f32[64,64], f32[64,64]", TileTypeError, "not broadcastable to the tiled view")


@ct.kernel
def raw_memory(src, dst):
    rs = src.get_raw_memory()
    offs = ct.load(dst, index=(0,), shape=(64,))
    rs.store_offset(offs, rs.load_offset(offs, mask=offs < 10, padding_value=7) * 2)


def test_raw_memory_load_store():
    c = tilescope.compile(raw_memory, "i32[1024], i32[64]")
    [ld] = ops_named(c, "raw_load")
    assert str(ld.result.type) == "Tile[int32,(64)]" and ld.attrs["has_mask"]
    assert c.stored_types() == ["Tile[int32,(64)]"]


@ct.kernel
def foreign(src, dst):
    p = src.foreign_pointer
    ct.store(dst, index=(0,), tile=ct.load(src, index=(0,), shape=(64,)))


def test_foreign_pointer_is_unsupported():
    rejects(foreign, "f32[64], f32[64]", TileUnsupportedFeatureError, "foreign_pointer")


@ct.kernel
def list_items(xs, y, k):
    ct.store(y, index=(0,), tile=ct.load(xs[k], index=(0,), shape=(64,)) + ct.load(xs[0], index=(0,), shape=(64,)))


@ct.kernel
def list_float_index(xs, y):
    ct.store(y, index=(0,), tile=ct.load(xs[1.0], index=(0,), shape=(64,)))


def test_list_getitem():
    c = tilescope.compile(list_items, "list[f32[?]], f32[64], i32")
    items = ops_named(c, "list_item")
    assert len(items) == 2 and all(str(op.result.type).startswith("Array[float32") for op in items)
    rejects(list_float_index, "list[f32[?]], f32[64]", TileTypeError, "Index must be an integer scalar")
