import cuda.tile as ct


# tilescope: args u32[64]
# expect: TileTypeError @ 10
# upstream-note: even with a scalar index, a bare int literal update is int32: fine for add (converted), rejected by bitwise atomics on u32
@ct.kernel
def atomic_scalar_index_literal_unsigned(cnt):
    ct.atomic_add(cnt, 3, 1)
    ct.atomic_or(cnt, 4, 1)


# tilescope: args i64[64]
# expect: TileTypeError @ 17
@ct.kernel
def atomic_scalar_index_literal_bitwise_i64(cnt):
    ct.atomic_xor(cnt, 3, 1)


# tilescope: args i32[64], i32[64]
# expect: TileTypeError @ 25
@ct.kernel
def atomic_update_not_broadcastable(cnt, src):
    idx = ct.load(src, index=(0,), shape=(32,))
    ct.atomic_add(cnt, idx, ct.load(src, index=(0,), shape=(64,)))


# tilescope: args f16[64], i32[64]
# expect: TileTypeError @ 33
@ct.kernel
def atomic_max_f16(x, src):
    idx = ct.load(src, index=(0,), shape=(64,))
    ct.atomic_max(x, idx, 1.0)


# tilescope: args bf16[64], i32[64]
# expect: TileTypeError @ 42
# upstream-note: a float literal update of a tile index is broadcast to a float32 tile first, which does not convert implicitly to bfloat16
@ct.kernel
def atomic_add_bf16_literal(x, src):
    idx = ct.load(src, index=(0,), shape=(64,))
    ct.atomic_add(x, idx, 1.0)


# tilescope: args i16[64], i32[64]
# expect: TileTypeError @ 50
@ct.kernel
def atomic_xchg_i16(x, src):
    idx = ct.load(src, index=(0,), shape=(64,))
    ct.atomic_xchg(x, idx, 1)


# tilescope: args f64[64], i32[64]
# expect: ok
@ct.kernel
def atomic_cas_f64_loose(x, src):
    idx = ct.load(src, index=(0,), shape=(64,))
    old = ct.atomic_cas(x, idx, 0, 1.5, memory_order=ct.MemoryOrder.RELAXED)
    ct.atomic_xchg(x, idx, old)


# tilescope: args i32[64]
# expect: TileTypeError @ 66
@ct.kernel
def atomic_no_scope(x):
    ct.atomic_add(x, 0, 1, memory_scope=ct.MemoryScope.NONE)


# tilescope: args f32[64,64], f32[64,64]
# expect: TileTypeError @ 74
@ct.kernel
def tiled_view_atomic_and_float(dst, src):
    tv = dst.tiled_view((16, 16))
    tv.atomic_store_and((0, 0), ct.load(src, index=(0, 0), shape=(16, 16)))


# tilescope: args i64[64,64]
# expect: TileTypeError @ 82
@ct.kernel
def tiled_view_atomic_or_literal_i64(dst):
    tv = dst.tiled_view((16, 16))
    tv.atomic_store_or((0, 0), 1)


# tilescope: args i64[64,64]
# expect: ok
@ct.kernel
def tiled_view_atomic_add_literal_i64(dst):
    tv = dst.tiled_view((16, 16))
    tv.atomic_store_add((0, 0), 1)


# tilescope: args i32[1024], i32[64]
# expect: ok
@ct.kernel
def raw_atomic_masked(cnt, src):
    rm = cnt.get_raw_memory()
    offs = ct.load(src, index=(0,), shape=(64,))
    old = rm.atomic_xor_offset(offs, offs, mask=offs > 3, memory_order=ct.MemoryOrder.RELAXED)
    rm.atomic_cas_offset(offs, old, 0, mask=offs < 100)
