import cuda.tile as ct


# tilescope: args f32[16], f32[16,16]
# expect: ok
@ct.kernel
def getitem_new_axes(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(y, index=(0, 0), tile=t[None, :] + t[:, None] + t[..., None] + t[None])


# tilescope: args f32[4,8], f32[4,8,1]
# expect: ok
@ct.kernel
def getitem_ellipsis(x, y):
    t = ct.load(x, index=(0, 0), shape=(4, 8))
    ct.store(y, index=(0, 0, 0), tile=t[None, ..., None].reshape((4, 8, 1)))


# tilescope: args f32[4,8], f32[8,4]
# expect: TileTypeError @ 25
@ct.kernel
def transpose_one_axis(x, y):
    t = ct.load(x, index=(0, 0), shape=(4, 8))
    ct.store(y, index=(0, 0), tile=t.transpose(0))


# tilescope: args f32[4,8], f32[8,4]
# expect: TileTypeError @ 33
@ct.kernel
def permute_axis_out_of_range(x, y):
    t = ct.load(x, index=(0, 0), shape=(4, 8))
    ct.store(y, index=(0, 0), tile=t.permute((1, 2)))


# tilescope: args f32[4,8], f32[4,8]
# expect: ok
@ct.kernel
def cat_single_tile(x, y):
    t = ct.load(x, index=(0, 0), shape=(4, 8))
    ct.store(y, index=(0, 0), tile=ct.cat((t,), 0))


# tilescope: args f32[4,8], f32[8,8]
# expect: TileTypeError @ 49
@ct.kernel
def cat_dtype_mismatch(x, y):
    t = ct.load(x, index=(0, 0), shape=(4, 8))
    ct.store(y, index=(0, 0), tile=ct.cat((t, t.astype(ct.float16)), 0))


# tilescope: args f32[32], f32[8]
# expect: TileTypeError @ 57
@ct.kernel
def extract_index_out_of_range(x, y):
    t = ct.load(x, index=(0,), shape=(32,))
    ct.store(y, index=(0,), tile=ct.extract(t, 4, shape=8))


# tilescope: args f32[32], f32[1]
# expect: ok
@ct.kernel
def extract_scalar_dynamic_index(x, y):
    t = ct.load(x, index=(0,), shape=(32,))
    ct.store(y, index=(0,), tile=ct.extract(t, (ct.bid(0),), shape=()))


# tilescope: args f32[16], u8[2]
# expect: TileTypeError @ 73
@ct.kernel
def pack_bool_rejected(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(y, index=(0,), tile=ct.pack_to_bytes(t > 0))


# tilescope: args f32[4,8], f32[4,8]
# expect: TileTypeError @ 81
@ct.kernel
def reshape_two_inferred(x, y):
    t = ct.load(x, index=(0, 0), shape=(4, 8))
    ct.store(y, index=(0, 0), tile=t.reshape((-1, -1)))


# tilescope: args f32[16], f32[16]
# expect: TileTypeError @ 89
@ct.kernel
def index_tile_rejected(x, y):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(y, index=(0,), tile=t[0])
