"""Kernels for the print/printf/assert executor tests."""
import tilescope.lang as ct


@ct.kernel
def printf_tile(x, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    tx = ct.load(x, index=(bid,), shape=(TILE,))
    if x.dtype == ct.float64:
        ct.printf("tile[%d]:%.5lf\n", bid, tx)
    elif x.dtype == ct.float16 or x.dtype == ct.float32 or x.dtype == ct.bfloat16:
        ct.printf("tile[%d]:%.5f\n", bid, tx)
    elif x.dtype == ct.int64:
        ct.printf("tile[%d]:%lld\n", bid, tx)
    elif x.dtype == ct.uint64:
        ct.printf("tile[%d]:%llu\n", bid, tx)
    elif x.dtype == ct.uint8 or x.dtype == ct.uint16 or x.dtype == ct.uint32:
        ct.printf("tile[%d]:%u\n", bid, tx)
    else:
        ct.printf("tile[%d]:%d\n", bid, tx)


@ct.kernel
def print_tile(x, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    tx = ct.load(x, index=(bid,), shape=(TILE,))
    if x.dtype == ct.float16 or x.dtype == ct.float32 or x.dtype == ct.float64 or x.dtype == ct.bfloat16:
        ct.print(f"tile[{bid}]:{tx:.5f}")
    else:
        print(f"tile[{bid}]:{tx}")


@ct.kernel
def print_sep_end(x, TILE: ct.Constant[int]):
    tx = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.print("tile:", tx, sep='')
    ct.print(tx, end='')
    ct.print("|", tx, tx + tx, sep=' ~ ', end='$\n')


@ct.kernel
def print_two_fields(x, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    tx = ct.load(x, index=(bid,), shape=(TILE,))
    ct.print(f"tile[{bid}]: a={tx:.6f} b={tx + tx:10.4f}")


@ct.kernel
def print_2d(x, TM: ct.Constant[int], TN: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0), 0), shape=(TM, TN))
    print("2d:", t)
    print(f"{t:+.2e}")
    ct.printf("%5.1f|%-6g|%G\n", t, t, t)


@ct.kernel
def print_some_blocks(x, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    tx = ct.load(x, index=(bid,), shape=(TILE,))
    if bid % 3 != 1:
        print(f"block {bid} got {tx}")
    ct.printf("after %d\n", bid)


@ct.kernel
def print_in_loop(x, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    for i in range(bid + 1):
        ct.printf("b%d i%d\n", bid, i)


@ct.kernel
def print_bool_and_hex(x, TILE: ct.Constant[int]):
    tx = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    print(tx > 2)
    print(f"{tx:#x} {tx:#o} {tx:08X}")
    ct.printf("%#x %o %+d % d %5d|%-5d|%05d\n", tx, tx, tx, tx, tx, tx, tx)


@ct.kernel
def assert_positive(x, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    tx = ct.load(x, index=(bid,), shape=(TILE,))
    ct.printf("checking %d\n", bid)
    ct.assert_(tx > 0, "values must be positive")
    ct.printf("ok %d\n", bid)


@ct.kernel
def assert_no_message(x, TILE: ct.Constant[int]):
    tx = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.assert_(tx < 100)


@ct.kernel
def assert_in_branch(x, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    tx = ct.load(x, index=(bid,), shape=(TILE,))
    if bid != 2:
        # Block 2 holds negative values but never runs the assert.
        ct.assert_(tx >= 0, "negative value")
    ct.store(x, index=(bid,), tile=tx + 1)


@ct.kernel
def print_constants():
    t = ct.full((2, 2), 3, dtype=ct.int32)
    print(t)
    f = ct.full((), 1.5, dtype=ct.float32)
    print(f, f"{f}")
    nx = ct.num_blocks(0)
    print(f"nb: {(nx, nx)}")
