import cuda.tile as ct


# tilescope: args f32[1024], f32[1024], 128
# expect: ok
# tilescope: args f16[4096], f16[4096], 256
# expect: ok
# tilescope: args i8[?], i8[?], 64
# expect: ok
@ct.kernel
def copy_1d(src, dst, TILE: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(src, index=(i,), shape=(TILE,))
    ct.store(dst, index=(i,), tile=t)


# tilescope: args f32[256,256], f32[256,256], 32, 64
# expect: ok
@ct.kernel
def copy_2d(src, dst, TM: ct.Constant[int], TN: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    t = ct.load(src, index=(bm, bn), shape=(TM, TN))
    ct.store(dst, index=(bm, bn), tile=t)


# tilescope: args f32[64,128], f32[128,64]
# expect: ok
@ct.kernel
def load_order_f(src, dst):
    # order="F" maps tile axes to array axes in reverse
    t = ct.load(src, index=(0, 0), shape=(32, 16), order="F")
    ct.store(dst, index=(0, 0), tile=t)


# tilescope: args f32[8,16,32], f32[32,8,16]
# expect: ok
@ct.kernel
def load_order_tuple(src, dst):
    t = ct.load(src, index=(0, 0, 0), shape=(8, 4, 4), order=(2, 0, 1))
    ct.store(dst, index=(0, 0, 0), tile=t)


# tilescope: args f32[100], f32[100]
# expect: ok
@ct.kernel
def load_padding_modes(src, dst):
    a = ct.load(src, index=(0,), shape=(128,), padding_mode=ct.PaddingMode.ZERO)
    b = ct.load(src, index=(0,), shape=(128,), padding_mode=ct.PaddingMode.NEG_INF)
    c = ct.load(src, index=(0,), shape=(128,), padding_mode=ct.PaddingMode.NAN)
    ct.store(dst, index=(0,), tile=a + b + c)


# tilescope: args f32[1024], f32[1024]
# expect: ok
@ct.kernel
def load_hints(src, dst):
    i = ct.bid(0)
    t = ct.load(src, index=(i,), shape=(64,), latency=3, allow_tma=False)
    ct.store(dst, index=(i,), tile=t, latency=2, allow_tma=True)


# tilescope: args i32[1024], i32[1024]
# expect: ok
@ct.kernel
def load_memory_order(src, dst):
    i = ct.bid(0)
    t = ct.load(src, index=(i,), shape=(32,), memory_order=ct.MemoryOrder.ACQUIRE,
                memory_scope=ct.MemoryScope.DEVICE)
    ct.store(dst, index=(i,), tile=t, memory_order=ct.MemoryOrder.RELEASE,
             memory_scope=ct.MemoryScope.DEVICE)


# tilescope: args f32[64], f32[64]
# expect: ok
@ct.kernel
def store_scalar_broadcast(src, dst):
    # storing a 0-d tile / scalar into a 1-element tile slot
    x = ct.load(src, index=(0,), shape=())
    ct.store(dst, index=(1,), tile=x * 2.0)


# tilescope: args f32[?,?], f32[?]
# expect: ok
@ct.kernel
def array_attrs(src, dst):
    n = src.shape[0]
    m = src.shape[1]
    s = src.strides[0]
    ct.static_assert(src.ndim == 2)
    ct.static_assert(src.dtype == ct.float32)
    t = ct.full((16,), n + m + s, dtype=dst.dtype)
    ct.store(dst, index=(0,), tile=t)


# tilescope: args f32[4096], f32[4096], 128
# expect: ok
@ct.kernel
def grid_stride_loop(src, dst, TILE: ct.Constant[int]):
    ntiles = ct.num_tiles(src, 0, shape=(TILE,))
    for i in range(ct.bid(0), ntiles, ct.num_blocks(0)):
        t = ct.load(src, index=(i,), shape=(TILE,))
        ct.store(dst, index=(i,), tile=t + 1)


# tilescope: args f32[1024], f32[1024]
# expect: TileUnsupportedFeatureError @ 113
# expect-match: check_bounds=False.*13\.4
@ct.kernel
def load_unchecked_needs_13_4(src, dst):
    # check_bounds=False needs a newer bytecode than the oracle's 13.3
    i = ct.bid(0)
    t = ct.load(src, index=(i,), shape=(64,), check_bounds=False)
    ct.store(dst, index=(i,), tile=t)
