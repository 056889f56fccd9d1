import cuda.tile as ct


# tilescope: args f32[256,256], f32[256,256]
# expect: ok
@ct.kernel
def tiled_view_copy(src, dst):
    tv = src.tiled_view((32, 32), padding_mode=ct.PaddingMode.ZERO)
    out = dst.tiled_view((32, 32))
    n0 = tv.num_tiles(0)
    for i in range(n0):
        t = tv.load((i, ct.bid(0)))
        out.store((i, ct.bid(0)), t)


# tilescope: args f32[64,64], f32[64,64]
# expect: ok
@ct.kernel
def tiled_view_traversal(src, dst):
    tv = src.tiled_view((4, 16), traversal_steps=(2, 16))
    t = tv.load((1, 0))
    ct.store(dst, index=(0, 0), tile=t)


# tilescope: args f32[1024], f32[64], i32, i32
# expect: ok
@ct.kernel
def slice_dynamic(src, dst, start, length):
    sub = src.slice(axis=0, start=start, stop=start + length)
    t = ct.load(sub, index=(0,), shape=(64,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(dst, index=(0,), tile=t)


# tilescope: args f16[128,64], f16[32,64]
# expect: ok
@ct.kernel
def slice_negative_axis(src, dst):
    sub = src.slice(axis=-2, start=32, stop=64)
    t = ct.load(sub, index=(0, 0), shape=(32, 64))
    ct.store(dst, index=(0, 0), tile=t)


# tilescope: args f32[1024], f32[1024]
# expect: ok
@ct.kernel
def raw_memory_offsets(src, dst):
    base = ct.bid(0) * 64
    offs = ct.arange(64, dtype=ct.int32) + base
    rs = src.get_raw_memory()
    rd = dst.get_raw_memory()
    t = rs.load_offset(offs, mask=offs < 1000, padding_value=0.0)
    rd.store_offset(offs, t * 3.0)


# tilescope: args i32[1024]
# expect: ok
@ct.kernel
def raw_memory_atomics(cnt):
    rm = cnt.get_raw_memory()
    offs = ct.arange(16, dtype=ct.int32)
    old = rm.atomic_add_offset(offs, 1)
    rm.atomic_max_offset(offs, old)
    rm.atomic_cas_offset(0, 0, 1)


# tilescope: args f32[64,64], f32[64,64]
# expect: TileTypeError @ 72
# upstream-note: TiledView.tile_shape is documented as a property but referencing it inside static_assert is rejected ("Objects of type TiledView... are not supported at compile time")
@ct.kernel
def tiled_view_in_static_assert(src, dst):
    tv = src.tiled_view((4, 16))
    ct.static_assert(tv.tile_shape == (4, 16))
    ct.store(dst, index=(0, 0), tile=tv.load((0, 0)))
