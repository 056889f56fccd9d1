import cuda.tile as ct


# tilescope: args f32[256], f32[16,16]
# expect: ok
@ct.kernel
def reshape_fn_and_method(x, y):
    t = ct.load(x, index=(0,), shape=(256,))
    a = ct.reshape(t, (16, 16))
    b = t.reshape((16, 16))
    ct.store(y, index=(0, 0), tile=a + b)


# tilescope: args f32[256], f32[16,16]
# expect: ok
@ct.kernel
def reshape_infer_dim(x, y):
    t = ct.load(x, index=(0,), shape=(256,))
    ct.store(y, index=(0, 0), tile=t.reshape((16, -1)))


# tilescope: args f32[4,8,16], f32[16,4,8]
# expect: ok
@ct.kernel
def permute_3d(x, y):
    t = ct.load(x, index=(0, 0, 0), shape=(4, 8, 16))
    ct.store(y, index=(0, 0, 0), tile=ct.permute(t, (2, 0, 1)) + t.permute((2, 0, 1)))


# tilescope: args f32[16,32], f32[32,16]
# expect: ok
@ct.kernel
def transpose_2d(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 32))
    ct.store(y, index=(0, 0), tile=ct.transpose(t) + t.transpose())


# tilescope: args f32[2,4,8], f32[8,4,2]
# expect: ok
@ct.kernel
def transpose_axes(x, y):
    t = ct.load(x, index=(0, 0, 0), shape=(2, 4, 8))
    ct.store(y, index=(0, 0, 0), tile=ct.transpose(t, 0, 2))


# tilescope: args f32[16], f32[16,16]
# expect: ok
@ct.kernel
def expand_and_broadcast(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    a = ct.expand_dims(t, axis=0)
    b = ct.broadcast_to(a, (16, 16))
    ct.store(y, index=(0, 0), tile=b + t[:, None] + t[None, :])


# tilescope: args f32[16], f32[32]
# expect: ok
@ct.kernel
def cat_1d(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(y, index=(0,), tile=ct.cat((t, t * 2), axis=0))


# tilescope: args f32[8,16], f32[8,32]
# expect: ok
@ct.kernel
def cat_axis1(x, y):
    t = ct.load(x, index=(0, 0), shape=(8, 16))
    ct.store(y, index=(0, 0), tile=ct.cat((t, t), axis=-1))


# tilescope: args i32[8]
# expect: ok
@ct.kernel
def extract_fn_and_method(y):
    t = ct.arange(32, dtype=ct.int32)
    sub = ct.extract(t, (1,), shape=(8,))
    v = t.extract((3,), (8,))
    ct.store(y, index=(0,), tile=sub + v)


# tilescope: args f32[4,4], f32[4,4]
# expect: TileUnsupportedFeatureError @ 89
# expect-match: insert requires tileiras 13\.4
# upstream-note: insert() cannot be accepted at all with the oracle's bytecode 13.3
@ct.kernel
def insert_2d_scalar(x, y):
    t = ct.load(x, index=(0, 0), shape=(4, 4))
    t2 = t.insert((1, 2), ct.full((), 3.0, dtype=ct.float32))
    ct.store(y, index=(0, 0), tile=t2)


# tilescope: args i32[16], u8[64]
# expect: ok
@ct.kernel
def pack_unpack_bytes(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    bytes_ = ct.pack_to_bytes(t)
    back = ct.unpack_from_bytes(bytes_, ct.int32)
    ct.store(y, index=(0,), tile=bytes_)
    ct.store(x, index=(0,), tile=back)


# tilescope: args f16[64], f32[32]
# expect: ok
@ct.kernel
def unpack_as_other_dtype(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.unpack_from_bytes(ct.pack_to_bytes(t), ct.float32))


# tilescope: args f32[16,16], f32[16]
# expect: ok
@ct.kernel
def getitem_index(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    row = t[0:16:1, 0] if False else ct.sum(t, axis=1)
    ct.store(y, index=(0,), tile=row)


# tilescope: args f32[1], f32[1]
# expect: ok
@ct.kernel
def item_of_single(x, y):
    t = ct.load(x, index=(0,), shape=(1,))
    v = t.item()
    ct.store(y, index=(0,), tile=ct.full((1,), v + 1.0, dtype=ct.float32))


# tilescope: args f32[256], f32[16,8]
# expect: TileTypeError @ 135
@ct.kernel
def reshape_size_mismatch(x, y):
    t = ct.load(x, index=(0,), shape=(256,))
    ct.store(y, index=(0, 0), tile=t.reshape((16, 8)))


# tilescope: args f32[4,8], f32[8,4]
# expect: TileTypeError @ 143
@ct.kernel
def permute_bad_axes(x, y):
    t = ct.load(x, index=(0, 0), shape=(4, 8))
    ct.store(y, index=(0, 0), tile=ct.permute(t, (0, 0)))


# tilescope: args f32[16], f32[16,16]
# expect: TileTypeError @ 151
@ct.kernel
def broadcast_incompatible(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(y, index=(0, 0), tile=ct.broadcast_to(t, (16, 8)))


# tilescope: args f32[16], f32[48]
# expect: TileTypeError @ 160
# expect-match: at most 2 tiles
@ct.kernel
def cat_three_tiles(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(y, index=(0,), tile=ct.cat((t, t, t), axis=0))


# tilescope: args i32[8]
# expect: TileTypeError @ 168
@ct.kernel
def extract_shape_not_dividing(y):
    t = ct.arange(32, dtype=ct.int32)
    ct.store(y, index=(0,), tile=ct.extract(t, (0,), shape=(6,)))


# tilescope: args f32[16,16], f32[16]
# expect: TileTypeError @ 176
@ct.kernel
def item_of_multi_element(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    ct.store(y, index=(0,), tile=ct.full((16,), t.item(), dtype=ct.float32))


# tilescope: args i32[8]
# expect: TileUnsupportedFeatureError @ 184
@ct.kernel
def insert_fn_1d(y):
    t = ct.arange(32, dtype=ct.int32)
    u = ct.insert(t, (2,), ct.full((8,), 5, dtype=ct.int32))
    ct.store(y, index=(0,), tile=u.extract((2,), shape=(8,)))


# tilescope: args f32[16,32], f32[32,16]
# expect: TileTypeError @ 194
# expect-match: No such attribute 'T'
@ct.kernel
def tile_dot_T_unsupported(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 32))
    ct.store(y, index=(0, 0), tile=t.T)
