import cuda.tile as ct


# tilescope: args i32[64], i32[64]
# expect: ok
# tilescope: args u32[64], u32[64]
# expect: TileTypeError @ 16
# expect-match: cannot implicitly cast int32 to uint32
# tilescope: args i64[64], i64[64]
# expect: TileTypeError @ 19
# expect-match: require the update dtype \(int32\) to exactly match
# upstream-note: unlike binary arithmetic, a bare int literal passed as an atomic update is typed int32 and is not adapted to the array dtype (u32 rejected everywhere, i64 rejected for bitwise atomics)
@ct.kernel
def atomic_rmw_all(cnt, old_out):
    idx = ct.arange(64, dtype=ct.int32)
    o = ct.atomic_add(cnt, idx, 1)
    o = o + ct.atomic_max(cnt, idx, 5)
    o = o + ct.atomic_min(cnt, idx, 2)
    o = o + ct.atomic_and(cnt, idx, 7)
    o = o + ct.atomic_or(cnt, idx, 8)
    o = o + ct.atomic_xor(cnt, idx, 3)
    o = o + ct.atomic_xchg(cnt, idx, 0)
    ct.store(old_out, index=(0,), tile=o)


# tilescope: args f32[128]
# expect: ok
# tilescope: args f16[128]
# expect: ok
@ct.kernel
def atomic_add_float(acc):
    idx = ct.arange(128, dtype=ct.int32)
    ct.atomic_add(acc, idx, ct.full((128,), 0.5, dtype=acc.dtype))


# tilescope: args i32[1]
# expect: ok
@ct.kernel
def atomic_cas_scalar_lock(lock):
    # spin until we flip the lock from 0 to 1, then release it
    while ct.atomic_cas(lock, 0, 0, 1, memory_order=ct.MemoryOrder.ACQUIRE) == 1:
        pass
    ct.atomic_xchg(lock, 0, 0, memory_order=ct.MemoryOrder.RELEASE)


# tilescope: args i32[16,16]
# expect: ok
@ct.kernel
def atomic_2d_indices_orders(x):
    r = ct.arange(16, dtype=ct.int32)[:, None]
    c = ct.arange(16, dtype=ct.int32)[None, :]
    ct.atomic_add(x, (r, c), 1, memory_order=ct.MemoryOrder.RELAXED,
                  memory_scope=ct.MemoryScope.BLOCK)
    ct.atomic_max(x, (r, c), 3, check_bounds=False)


# tilescope: args f32[256]
# expect: ok
@ct.kernel
def atomic_cas_tile(x):
    idx = ct.arange(64, dtype=ct.int32)
    exp = ct.zeros((64,), dtype=ct.float32)
    ct.atomic_cas(x, idx, exp, exp + 1.0, memory_scope=ct.MemoryScope.BLOCK)


# tilescope: args f32[64,64], f32[16,16]
# expect: ok
@ct.kernel
def tiled_view_atomic_store(dst, src):
    t = ct.load(src, index=(0, 0), shape=(16, 16))
    tv = dst.tiled_view((16, 16))
    tv.atomic_store_add((ct.bid(0), 0), t)


# tilescope: args i32[64,64]
# expect: ok
@ct.kernel
def tiled_view_atomic_store_int(dst):
    t = ct.full((16, 16), 3, dtype=ct.int32)
    tv = dst.tiled_view((16, 16))
    tv.atomic_store_max((0, 0), t)
    tv.atomic_store_min((1, 0), t)
    tv.atomic_store_and((2, 0), t)
    tv.atomic_store_or((3, 0), t)
    tv.atomic_store_xor((0, 1), t)


# tilescope: args f32[64]
# expect: TileTypeError @ 93
@ct.kernel
def atomic_and_on_float(x):
    idx = ct.arange(64, dtype=ct.int32)
    ct.atomic_and(x, idx, 1.0)


# tilescope: args i32[64]
# expect: TileTypeError @ 102
# expect-match: Invalid memory order
@ct.kernel
def atomic_bad_memory_order(x):
    idx = ct.arange(64, dtype=ct.int32)
    ct.atomic_add(x, idx, 1, memory_order=ct.MemoryOrder.WEAK)


# tilescope: args i32[16,16]
# expect: TileTypeError @ 110
@ct.kernel
def atomic_wrong_index_rank(x):
    idx = ct.arange(16, dtype=ct.int32)
    ct.atomic_add(x, idx, 1)


# tilescope: args u32[64]
# expect: ok
@ct.kernel
def atomic_unsigned_typed_update(cnt):
    idx = ct.arange(64, dtype=ct.int32)
    one = ct.full((64,), 1, dtype=ct.uint32)
    ct.atomic_add(cnt, idx, one)
    ct.atomic_or(cnt, idx, one)
