"""Kernels for the shape-op executor tests (permute, cat, extract/insert, bitcast, bytes, assume)."""
import tilescope.lang as ct


@ct.kernel
def permute_3d(x, y):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid, 0, 0), shape=(2, 4, 8))
    ct.store(y, index=(bid, 0, 0), tile=ct.permute(t, (2, 0, 1)))


@ct.kernel
def transpose_2d(x, y, TM: ct.Constant[int], TN: ct.Constant[int]):
    i, j = ct.bid(0), ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(TM, TN))
    ct.store(y, index=(j, i), tile=ct.transpose(t))


@ct.kernel
def cat_axis(x, y, z, AXIS: ct.Constant[int]):
    bid = ct.bid(0)
    a = ct.load(x, index=(bid, 0), shape=(4, 8))
    b = ct.load(y, index=(bid, 0), shape=(4, 8))
    c = ct.cat((a, b), AXIS)
    ct.store(z, index=(bid, 0), tile=c)


@ct.kernel
def cat_uniform_with_block_values(x, z):
    bid = ct.bid(0)
    a = ct.full((4,), 7, dtype=ct.int32)          # the same in every block
    b = ct.load(x, index=(bid,), shape=(4,))
    ct.store(z, index=(bid,), tile=ct.cat((a, b), 0))


@ct.kernel
def extract_per_block(x, y, TILE: ct.Constant[int], SUB: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,))
    k = bid % (TILE // SUB)
    ct.store(y, index=(bid,), tile=ct.extract(t, (k,), shape=(SUB,)))


@ct.kernel
def extract_2d(x, y):
    bid = ct.bid(0)
    t = ct.load(x, index=(0, 0), shape=(4, 8))
    sub = ct.extract(t, (bid // 4, bid % 4), shape=(2, 2))
    ct.store(y, index=(bid // 4, bid % 4), tile=sub)


@ct.kernel
def extract_scalar(x, y):
    bid = ct.bid(0)
    t = ct.load(x, index=(0,), shape=(8,))
    ct.store(y, index=(bid,), tile=ct.extract(t, bid, shape=()))


@ct.kernel
def extract_out_of_range(x, y):
    bid = ct.bid(0)
    t = ct.load(x, index=(0,), shape=(8,))
    ct.store(y, index=(bid,), tile=ct.extract(t, (bid,), shape=(4,)))


@ct.kernel
def insert_per_block(x, y, TILE: ct.Constant[int], SUB: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,))
    k = bid % (TILE // SUB)
    v = (ct.full((SUB,), -1, dtype=ct.int32) * (bid + 1)).astype(x.dtype)
    ct.store(y, index=(bid,), tile=ct.insert(t, (k,), v))


@ct.kernel
def insert_2d_scalar(x, y):
    bid = ct.bid(0)
    t = ct.load(x, index=(0, 0), shape=(4, 4))
    v = ct.full((), 100, dtype=ct.int32) + bid
    ct.store(y, index=(bid, 0), tile=ct.insert(t, (bid, bid), v))


@ct.kernel
def bitcast_to(x, y, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,))
    ct.store(y, index=(bid,), tile=ct.bitcast(t, y.dtype))


@ct.kernel
def pack_bytes(x, y, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,))
    ct.store(y, index=(bid,), tile=ct.pack_to_bytes(t))


@ct.kernel
def pack_bytes_2d(x, y):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid, 0), shape=(2, 4))
    ct.store(y, index=(bid,), tile=ct.pack_to_bytes(t))


@ct.kernel
def unpack_bytes(x, y, NBYTES: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(NBYTES,))
    ct.store(y, index=(bid,), tile=ct.unpack_from_bytes(t, y.dtype))


@ct.kernel
def fp4_roundtrip(x, y, z, NBYTES: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(NBYTES,))
    f4 = ct.unpack_from_bytes(t, ct.float4_e2m1fn)
    ct.store(z, index=(bid,), tile=f4.astype(ct.float32))
    ct.store(y, index=(bid,), tile=ct.pack_to_bytes(f4))


@ct.kernel
def fp4_from_floats(x, y, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,)).astype(ct.float4_e2m1fn)
    ct.store(y, index=(bid,), tile=ct.pack_to_bytes(t))


@ct.kernel
def assume_multiple(x, n):
    m = ct.assume_divisible_by(n, 4)
    ct.store(x, index=(ct.bid(0),), tile=m + ct.bid(0))
