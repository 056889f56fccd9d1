"""Kernels for the debugger tests (breakpoint() inside kernels, block selection)."""
import tilescope.lang as ct


@ct.kernel
def break_after_load(x, y, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    tile = ct.load(x, index=(bid,), shape=(TILE,))
    doubled = tile * 2
    total = bid + 100
    unused = tile + 5.0          # dead code: removed by the compiler, so not visible in the debugger
    breakpoint()
    ct.store(y, index=(bid,), tile=doubled * total)   # (a `+` would be contracted into an fma)


@ct.kernel
def break_in_loop(x, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    acc = ct.zeros((TILE,), dtype=ct.float32)
    for i in range(3):
        acc = acc + 1.0
        breakpoint()
    ct.store(x, index=(bid,), tile=acc)


@ct.kernel
def break_in_branch(x, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    tile = ct.load(x, index=(bid,), shape=(TILE,))
    if bid % 2 == 1:
        odd = tile + 1.0
        breakpoint()
        ct.store(x, index=(bid,), tile=odd)


@ct.kernel
def mark_blocks(x):
    bid = ct.bid(0)
    ct.store(x, index=(bid,), tile=bid + 1)


@ct.kernel
def mark_blocks_2d(x):
    ct.store(x, index=(ct.bid(0), ct.bid(1)), tile=ct.bid(0) * 10 + ct.bid(1))
