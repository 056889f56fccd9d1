"""Kernels for the cost model's version 17 rules (scalar atomics after a tile sum, 2-D tile copies)
and version 58's (a loop the accelerator feeds before an atomic)."""
import cuda.tile as ct


@ct.kernel
def sum_into_one(x, total, T: ct.Constant[int]):
    """Every block sums a tile and adds it to the same element (acquire-release, the default)."""
    ct.atomic_add(total, (0,), ct.sum(ct.load(x, index=(ct.bid(0),), shape=(T,))))


@ct.kernel
def sum_into_one_relaxed(x, total, T: ct.Constant[int]):
    """sum_into_one in relaxed order."""
    ct.atomic_add(total, (0,), ct.sum(ct.load(x, index=(ct.bid(0),), shape=(T,))),
                  memory_order=ct.MemoryOrder.RELAXED)


@ct.kernel
def sum_into_groups(x, totals, T: ct.Constant[int], G: ct.Constant[int]):
    """Each block adds its tile's sum to element bid % G."""
    ct.atomic_add(totals, (ct.bid(0) % G,), ct.sum(ct.load(x, index=(ct.bid(0),), shape=(T,))))


@ct.kernel
def copy_tiles(x, y, TM: ct.Constant[int], TN: ct.Constant[int]):
    """A 2-D tile in, the same tile out."""
    i, j = ct.bid(0), ct.bid(1)
    ct.store(y, index=(i, j), tile=ct.load(x, index=(i, j), shape=(TM, TN)))


@ct.kernel
def copy_tiles_3d(x, y, TB: ct.Constant[int], TM: ct.Constant[int], TN: ct.Constant[int]):
    """A 3-D tile in, the same tile out."""
    i, j = ct.bid(0), ct.bid(1)
    ct.store(y, index=(i, j, 0), tile=ct.load(x, index=(i, j, 0), shape=(TB, TM, TN)))


@ct.kernel
def histogram(data, hist, T: ct.Constant[int]):
    """One atomic add a lane into the bin its byte names."""
    bins = ct.load(data, index=(ct.bid(0),), shape=(T,)).astype(ct.int32)
    ct.atomic_add(hist, bins, ct.ones((T,), dtype=ct.int32), memory_order=ct.MemoryOrder.RELAXED)


@ct.kernel
def rows_into_one(x, total, T: ct.Constant[int], RELAXED: ct.Constant[bool]):
    """Each block sums its row T elements a step and adds the sum to one element: a loop the
    accelerator feeds in a kernel with an atomic (version 58's advice)."""
    acc = ct.full((1, T), 0.0, ct.float32)
    for k in range(ct.num_tiles(x, axis=1, shape=(1, T))):
        acc = acc + ct.load(x, index=(ct.bid(0), k), shape=(1, T))
    if RELAXED:
        ct.atomic_add(total, (0,), ct.sum(acc), memory_order=ct.MemoryOrder.RELAXED)
    else:
        ct.atomic_add(total, (0,), ct.sum(acc))
