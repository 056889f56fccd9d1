"""Typing rules of shape ops and Tile methods/attributes (tilescope/ops/shape.py)."""
import pytest

import tilescope
import tilescope.lang as ct
from tilescope.errors import TileTypeError, TileUnsupportedFeatureError


def ops_named(compiled, name):
    return [op for op in compiled.final.walk() if op.name == name]


@ct.kernel
def reshapes(x, y):
    t = ct.load(x, index=(0,), shape=(256,))
    a = t.reshape((16, -1))
    b = ct.reshape(t, (16, 16))
    ct.store(y, index=(0, 0), tile=a + b)


def test_reshape_infers_minus_one():
    c = tilescope.compile(reshapes, "f32[256], f32[16,16]")
    shapes = [op.result.type.shape for op in ops_named(c, "reshape")]
    assert shapes == [(16, 16), (16, 16)]
    assert c.stored_types() == ["Tile[float32,(16,16)]"]


@ct.kernel
def reshape_bad(x, y):
    t = ct.load(x, index=(0,), shape=(256,))
    ct.store(y, index=(0, 0), tile=t.reshape(SHAPE))


SHAPE = (16, 8)


@pytest.mark.parametrize("shape,msg", [((16, 8), r"Cannot reshape \(256,\) to \(16, 8\)"),
                                       ((-1, -1), "Only one dimension can be -1"),
                                       ((-2, 128), "Dimension can only be -1"),
                                       (16, "Expected a tuple")])
def test_reshape_errors(shape, msg, monkeypatch):
    monkeypatch.setitem(globals(), "SHAPE", shape)     # the kernel reads the module global
    with pytest.raises(TileTypeError, match=msg):
        tilescope.compile(reshape_bad, "f32[256], f32[16,16]")


@ct.kernel
def perms(x, y, z):
    t = ct.load(x, index=(0, 0, 0), shape=(2, 4, 8))
    ct.store(y, index=(0, 0, 0), tile=ct.permute(t, (2, 0, 1)))
    ct.store(z, index=(0, 0, 0), tile=t.transpose(0, -1))


def test_permute_and_transpose():
    c = tilescope.compile(perms, "f32[2,4,8], f32[8,2,4], f32[8,4,2]")
    assert [op.attrs["axes"] for op in ops_named(c, "permute")] == [(2, 0, 1), (2, 1, 0)]
    assert c.stored_types() == ["Tile[float32,(8,2,4)]", "Tile[float32,(8,4,2)]"]


@ct.kernel
def transpose_3d_default(x, y):
    t = ct.load(x, index=(0, 0, 0), shape=(2, 4, 8))
    ct.store(y, index=(0, 0, 0), tile=ct.transpose(t))


@ct.kernel
def permute_repeated(x, y):
    t = ct.load(x, index=(0, 0), shape=(4, 8))
    ct.store(y, index=(0, 0), tile=ct.permute(t, (1, 1)))


def test_transpose_and_permute_errors():
    with pytest.raises(TileTypeError, match="must be specified for tile with more than 2"):
        tilescope.compile(transpose_3d_default, "f32[2,4,8], f32[8,4,2]")
    with pytest.raises(TileTypeError, match="Repeated axis #1: 1"):
        tilescope.compile(permute_repeated, "f32[4,8], f32[8,4]")


@ct.kernel
def new_axes(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(y, index=(0, 0), tile=ct.broadcast_to(ct.expand_dims(t, 0), (16, 16)) + t[:, None] + t[None])


def test_expand_dims_getitem_and_broadcast():
    c = tilescope.compile(new_axes, "f32[16], f32[16,16]")
    assert (1, 16) in [op.result.type.shape for op in ops_named(c, "reshape")]
    assert (16, 1) in [op.result.type.shape for op in ops_named(c, "reshape")]
    assert c.stored_types() == ["Tile[float32,(16,16)]"]


@ct.kernel
def index_a_tile(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(y, index=(0,), tile=t[0])


def test_indexing_a_tile_is_rejected():
    with pytest.raises(TileTypeError, match="Directly indexing a tile is not supported"):
        tilescope.compile(index_a_tile, "f32[16], f32[16]")


@ct.kernel
def cats(x, y, z):
    t = ct.load(x, index=(0, 0), shape=(8, 16))
    ct.store(y, index=(0, 0), tile=ct.cat((t, t), axis=-1))
    ct.store(z, index=(0, 0), tile=ct.cat((t, t), 0))


@ct.kernel
def cat_three(x, y):
    t = ct.load(x, index=(0, 0), shape=(8, 16))
    ct.store(y, index=(0, 0), tile=ct.cat((t, t, t), 0))


def test_cat():
    c = tilescope.compile(cats, "f32[8,16], f32[8,32], f32[16,16]")
    assert [op.attrs["axis"] for op in ops_named(c, "cat")] == [1, 0]
    assert c.stored_types() == ["Tile[float32,(8,32)]", "Tile[float32,(16,16)]"]
    with pytest.raises(TileTypeError, match="at most 2 tiles, got 3"):
        tilescope.compile(cat_three, "f32[8,16], f32[24,16]")


@ct.kernel
def extracts(x, y):
    t = ct.load(x, index=(0,), shape=(32,))
    ct.store(y, index=(0,), tile=ct.extract(t, (1,), shape=(8,)) + t.extract(3, 8))


@ct.kernel
def extract_out_of_range(x, y):
    t = ct.load(x, index=(0,), shape=(32,))
    ct.store(y, index=(0,), tile=ct.extract(t, (4,), shape=(8,)))


def test_extract():
    c = tilescope.compile(extracts, "i32[32], i32[8]")
    ops = ops_named(c, "extract")
    assert [op.attrs["shape"] for op in ops] == [(8,), (8,)]
    assert [op.operands[1].const for op in ops] == [1, 3]
    with pytest.raises(TileTypeError, match=r"Index 4 out of bounds at dimension #0: valid range is \[0, 4\)"):
        tilescope.compile(extract_out_of_range, "i32[32], i32[8]")


@ct.kernel
def inserts(x):
    t = ct.load(x, index=(0, 0), shape=(4, 4))
    ct.store(x, index=(0, 0), tile=t.insert((1, 2), ct.full((), 3.0, dtype=ct.float32)))


def test_insert_follows_the_target_version(monkeypatch):
    # upstream's text and class when the target is too old; the default target is the newest known
    with pytest.raises(TileUnsupportedFeatureError,
                       match=r":148:\d+: insert requires tileiras 13.4 or later. Current version is 13.3.$"):
        tilescope.compile(inserts, "f32[4,4]", tileiras_version="13.3")
    assert tilescope.compile(inserts, "f32[4,4]").target == (13, 4)
    monkeypatch.setenv("TILESCOPE_TILEIRAS_VERSION", "13.3")
    with pytest.raises(TileUnsupportedFeatureError, match="Current version is 13.3"):
        tilescope.compile(inserts, "f32[4,4]")
    assert tilescope.compile(inserts, "f32[4,4]", tileiras_version="13.4").target == (13, 4)
    with pytest.raises(ValueError, match="not one tilescope knows"):
        tilescope.compile(inserts, "f32[4,4]", tileiras_version="12.9")


@ct.kernel
def bytes_roundtrip(x, y, z):
    t = ct.load(x, index=(0, 0), shape=(4, 8))
    b = ct.pack_to_bytes(t)
    ct.store(y, index=(0,), tile=b)
    ct.store(z, index=(0,), tile=ct.unpack_from_bytes(b, ct.float16))


def test_pack_unpack_bytes():
    c = tilescope.compile(bytes_roundtrip, "f32[4,8], u8[128], f16[64]")
    assert c.stored_types() == ["Tile[uint8,(128)]", "Tile[float16,(64)]"]
    assert [op.name for op in c.final.walk() if op.name in ("pack_bytes", "unpack_bytes")] == \
        ["pack_bytes", "unpack_bytes"]


@ct.kernel
def unpack_not_bytes(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(y, index=(0,), tile=ct.unpack_from_bytes(t, ct.int32))


def test_unpack_requires_uint8():
    with pytest.raises(TileTypeError, match="requires uint8 tile, got float32"):
        tilescope.compile(unpack_not_bytes, "f32[16], i32[16]")


@ct.kernel
def attrs_and_item(x, y):
    t = ct.load(x, index=(0, 0), shape=(1, 1))
    ct.static_assert(t.shape == (1, 1) and t.ndim == 2 and t.dtype == ct.float32)
    v = t.item()
    ct.store(y, index=(0,), tile=ct.full(t.shape[1:], v, dtype=t.dtype))


@ct.kernel
def item_of_many(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(y, index=(0,), tile=t.item())


@ct.kernel
def tile_T(x, y):
    t = ct.load(x, index=(0, 0), shape=(4, 8))
    ct.store(y, index=(0, 0), tile=t.T)


def test_tile_attributes_and_item():
    c = tilescope.compile(attrs_and_item, "f32[1,1], f32[1]")
    assert c.stored_types() == ["Tile[float32,(1)]"]
    with pytest.raises(TileTypeError, match=r"Cannot reshape \(16,\) to \(\)"):
        tilescope.compile(item_of_many, "f32[16], f32[16]")
    with pytest.raises(TileTypeError, match="'T'"):
        tilescope.compile(tile_T, "f32[4,8], f32[8,4]")
