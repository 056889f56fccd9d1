import cuda.tile as ct


# tilescope: args f32[64,64], f32[64]
# expect: TileTypeError @ 8
@ct.kernel
def load_index_rank_mismatch(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=t)


# tilescope: args f32[64], f32[64]
# expect: TileTypeError @ 16
@ct.kernel
def load_shape_rank_mismatch(x, y):
    t = ct.load(x, index=(0,), shape=(8, 8))
    ct.store(y, index=(0,), tile=t)


# tilescope: args f32[64], f32[16,16]
# expect: ok
# upstream-note: store() of a rank-1 tile into a rank-2 array is accepted by the front end (stored operand stays Tile[float32,(64)]); docs require the tile rank to match the array
@ct.kernel
def store_tile_rank_mismatch(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0, 0), tile=t)


# tilescope: args f32[64], f32[64], i32
# expect: TileTypeError @ 33
@ct.kernel
def load_dynamic_shape(x, y, n):
    t = ct.load(x, index=(0,), shape=(n,))
    ct.store(y, index=(0,), tile=t)


# tilescope: args f32[64], f32[64]
# expect: TileTypeError @ 41
@ct.kernel
def load_float_index(x, y):
    t = ct.load(x, index=(0.5,), shape=(64,))
    ct.store(y, index=(0,), tile=t)


# tilescope: args f32[64], f32[64]
# expect: TileTypeError @ 49
@ct.kernel
def unknown_keyword(x, y):
    t = ct.load(x, index=(0,), shape=(64,), bogus=1)
    ct.store(y, index=(0,), tile=t)


# tilescope: args f32[64], f32[64]
# expect: TileTypeError @ 58
@ct.kernel
def call_numpy_like_function(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.softmax(t))


# tilescope: args f32[64], f32[64]
# expect: TileTypeError @ 66
@ct.kernel
def store_to_non_array(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(t, index=(0,), tile=t)


# tilescope: args f32[64], f32[64]
# expect: TileTypeError @ 73
@ct.kernel
def bid_bad_axis(x, y):
    t = ct.load(x, index=(ct.bid(3),), shape=(64,))
    ct.store(y, index=(0,), tile=t)


# tilescope: args f32[64], f32[64]
# expect: TileTypeError @ 82
@ct.kernel
def full_non_constant_dtype(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=ct.full((64,), 1.0, dtype=t))


# tilescope: args f32[64], f32[64]
# expect: TileSyntaxError @ 90
# expect-match: Undefined variable
@ct.kernel
def undefined_name(x, y):
    ct.store(y, index=(0,), tile=undefined_tile_name)  # noqa: F821


# tilescope: args f32[64], f32[64]
# expect: ok
# upstream-note: store() of an (8,8) tile into a rank-1 array is accepted by the front end (no rank check)
@ct.kernel
def tile_shape_mismatch_store(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=t.reshape((8, 8)))


# tilescope: args f32[64], bool
# expect: TileTypeError @ 107
@ct.kernel
def bool_scalar_arith_then_shape(x, flag):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(x, index=(0,), tile=ct.arange(flag, dtype=ct.int32))


# tilescope: args f32[64], f32[64]
# expect: TileTypeError @ 115
@ct.kernel
def astype_non_dtype(x, y):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(y, index=(0,), tile=t.astype("float16"))


# tilescope: args f32[64], f32[64]
# expect: TileTypeError @ 123
@ct.kernel
def mma_on_float64_acc(x, y):
    a = ct.zeros((16, 16), dtype=ct.float16)
    acc = ct.mma(a, a, ct.zeros((16, 16), dtype=ct.int32))
    ct.store(y, index=(0,), tile=acc.reshape((256,)).astype(ct.float32))
