"""Kernels for reductions and scans on the CPU executor (one (P, M, N) tile per block)."""
import tilescope.lang as ct


def _axes(AXIS):
    # Kernel constants cannot be tuples, so axes travel as text.
    if AXIS == "none":
        return None
    elif AXIS == "0,1":
        return (0, 1)
    elif AXIS == "1,2":
        return (1, 2)
    elif AXIS == "0,2":
        return (0, 2)
    elif AXIS == "2,-3":
        return (2, -3)
    elif AXIS == "0,1,2":
        return (0, 1, 2)
    elif AXIS == "0":
        return 0
    elif AXIS == "1":
        return 1
    elif AXIS == "2":
        return 2
    else:
        return -1


def _reduce(FN, t, AXIS, KEEP, PNAN):
    if FN == "sum":
        return ct.sum(t, axis=AXIS, keepdims=KEEP)
    elif FN == "prod":
        return ct.prod(t, axis=AXIS, keepdims=KEEP)
    elif FN == "max":
        return ct.max(t, axis=AXIS, keepdims=KEEP, propagate_nan=PNAN)
    elif FN == "min":
        return ct.min(t, axis=AXIS, keepdims=KEEP, propagate_nan=PNAN)
    elif FN == "argmax":
        return ct.argmax(t, axis=AXIS, keepdims=KEEP, propagate_nan=PNAN)
    else:
        return ct.argmin(t, axis=AXIS, keepdims=KEEP, propagate_nan=PNAN)


@ct.kernel
def reduce3d(x, out, FN: ct.Constant[str], AXIS: ct.Constant[str], KEEP: ct.Constant[bool],
             PNAN: ct.Constant[bool], P: ct.Constant[int], M: ct.Constant[int], N: ct.Constant[int],
             R: ct.Constant[int]):
    """Block b reduces x[b*P:(b+1)*P] and stores the R result elements as row b of out."""
    b = ct.bid(0)
    t = ct.load(x, index=(b, 0, 0), shape=(P, M, N))
    r = _reduce(FN, t, _axes(AXIS), KEEP, PNAN)
    ct.store(out, index=(b, 0), tile=ct.reshape(r, (1, R)))


@ct.kernel
def sum_keepdims(x, out, M: ct.Constant[int], N: ct.Constant[int]):
    """keepdims=True keeps a size-1 axis: the (1, N) result stores straight into a (G, N) array."""
    b = ct.bid(0)
    t = ct.load(x, index=(b, 0), shape=(M, N))
    ct.store(out, index=(b, 0), tile=ct.sum(t, axis=0, keepdims=True))


@ct.kernel
def max_all_scalar(x, out, M: ct.Constant[int], N: ct.Constant[int]):
    """axis=None gives a 0-d tile, stored as one element per block."""
    b = ct.bid(0)
    t = ct.load(x, index=(b, 0), shape=(M, N))
    ct.store(out, index=(b,), tile=ct.max(t))


@ct.kernel
def rounded_sum(x, out, MODE: ct.Constant, M: ct.Constant[int], N: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b, 0), shape=(M, N))
    ct.store(out, index=(b,), tile=ct.sum(t, axis=1, rounding_mode=MODE))


@ct.kernel
def ftz_sum(x, out, M: ct.Constant[int], N: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b, 0), shape=(M, N))
    ct.store(out, index=(b,), tile=ct.sum(t, axis=1, flush_to_zero=True))


@ct.kernel
def scan3d(x, out, FN: ct.Constant[str], AXIS: ct.Constant[int], REV: ct.Constant[bool],
           P: ct.Constant[int], M: ct.Constant[int], N: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b, 0, 0), shape=(P, M, N))
    if FN == "sum":
        r = ct.cumsum(t, axis=AXIS, reverse=REV)
    else:
        r = ct.cumprod(t, axis=AXIS, reverse=REV)
    ct.store(out, index=(b, 0, 0), tile=r)


# ---- user combiners ------------------------------------------------------------------

def _max_with_index_arith(a, ia, b, ib):
    # The larger value; on ties the smaller index (no select op needed).
    gt = (a > b).astype(ct.int32)
    eq = (a == b).astype(ct.int32)
    lt = (ia < ib).astype(ct.int32)
    take = gt + eq * lt
    return ct.maximum(a, b), ia * take + ib * (1 - take)


def _max_with_index_where(a, ia, b, ib):
    take = ct.where(a == b, ia < ib, a > b)
    return ct.where(take, a, b), ct.where(take, ia, ib)


@ct.kernel
def argmax_pair(x, idx, out_v, out_i, M: ct.Constant[int], N: ct.Constant[int], WHERE: ct.Constant[bool]):
    """A (value, index) pair reduction along axis 1; idx holds 0..N-1 as a (1, N) row."""
    b = ct.bid(0)
    t = ct.load(x, index=(b, 0), shape=(M, N))
    i = ct.load(idx, index=(0, 0), shape=(1, N))
    if WHERE:
        v, k = ct.reduce((t, i), axis=1, func=_max_with_index_where, identity=(-1e30, 0))
    else:
        v, k = ct.reduce((t, i), axis=1, func=_max_with_index_arith, identity=(-1e30, 0))
    ct.store(out_v, index=(b,), tile=v)
    ct.store(out_i, index=(b,), tile=k)


@ct.kernel
def custom_sum(x, out, M: ct.Constant[int], N: ct.Constant[int], AXIS: ct.Constant[int],
               KEEP: ct.Constant[bool], R: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b, 0), shape=(M, N))
    r = ct.reduce(t, axis=AXIS, func=lambda p, q: p + q, identity=0, keepdims=KEEP)
    ct.store(out, index=(b, 0), tile=ct.reshape(r, (1, R)))


def _compose(a1, b1, a2, b2):
    # h -> a2 * (a1 * h + b1) + b2: associative, not commutative.
    return a1 * a2, b1 * a2 + b2


@ct.kernel
def affine_reduce(a, bb, out_a, out_b, M: ct.Constant[int], N: ct.Constant[int]):
    b = ct.bid(0)
    ta = ct.load(a, index=(b, 0), shape=(M, N))
    tb = ct.load(bb, index=(b, 0), shape=(M, N))
    ra, rb = ct.reduce((ta, tb), axis=1, func=_compose, identity=(1, 0))
    ct.store(out_a, index=(b,), tile=ra)
    ct.store(out_b, index=(b,), tile=rb)


@ct.kernel
def affine_scan(a, bb, out_a, out_b, M: ct.Constant[int], N: ct.Constant[int], REV: ct.Constant[bool]):
    b = ct.bid(0)
    ta = ct.load(a, index=(b, 0), shape=(M, N))
    tb = ct.load(bb, index=(b, 0), shape=(M, N))
    ra, rb = ct.scan((ta, tb), axis=1, func=_compose, identity=(1, 0), reverse=REV)
    ct.store(out_a, index=(b, 0), tile=ra)
    ct.store(out_b, index=(b, 0), tile=rb)


@ct.kernel
def running_max(x, out, M: ct.Constant[int], N: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b, 0), shape=(M, N))
    ct.store(out, index=(b, 0), tile=ct.scan(t, axis=0, func=ct.maximum, identity=-1e30))
