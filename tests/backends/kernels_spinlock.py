"""Kernels for test_spinlock_exec.py: accumulation across blocks under spin locks (as in
upstream's samples/LayerNorm.py backward, which sums partial dW/dB rows per group)."""
import tilescope.lang as ct

PAD_ZERO = ct.PaddingMode.ZERO


@ct.kernel
def grouped_accumulate(X, Acc, Count, Locks, TILE_N: ct.Constant[int]):
    """Block m adds row m of X into row m % G of Acc, tile by tile, each tile under the
    group's lock (acquire by CAS, release by exchange); Count counts the additions."""
    bid = ct.bid(0)
    G = Acc.shape[0]
    g = bid % G
    for j in range(ct.num_tiles(X, axis=1, shape=(1, TILE_N))):
        part = ct.load(X, index=(bid, j), shape=(1, TILE_N), padding_mode=PAD_ZERO) * 2.0
        while ct.atomic_cas(Locks, g, 0, 1, memory_order=ct.MemoryOrder.ACQUIRE) == 1:
            pass
        # Read-modify-write of the shared row: must see every earlier holder's store.
        part += ct.load(Acc, index=(g, j), shape=(1, TILE_N), padding_mode=PAD_ZERO)
        ct.store(Acc, index=(g, j), tile=part)
        n = ct.load(Count, index=(g,), shape=(1,))
        ct.store(Count, index=(g,), tile=n + 1)
        ct.atomic_xchg(Locks, g, 0, memory_order=ct.MemoryOrder.RELEASE)


@ct.kernel
def reduce_rows(Acc, Out, TILE_M: ct.Constant[int], TILE_N: ct.Constant[int]):
    """Sum of Acc's rows, TILE_M rows at a time (the sample's second kernel)."""
    bid = ct.bid(0)
    total = ct.zeros((TILE_M, TILE_N), dtype=ct.float32)
    for i in range(ct.num_tiles(Acc, axis=0, shape=(TILE_M, TILE_N))):
        total += ct.load(Acc, index=(i, bid), shape=(TILE_M, TILE_N), padding_mode=PAD_ZERO)
    ct.store(Out, index=(bid,), tile=ct.sum(total, axis=0).astype(Out.dtype))
