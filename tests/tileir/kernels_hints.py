"""Kernels with compiler hints (tests/tileir/test_hints.py); plain cuTile, also loaded by upstream."""
import cuda.tile as ct


@ct.kernel(occupancy=4, num_ctas=ct.ByTarget(sm_100=2, default=1))
def ctas_by_target(a, b, T: ct.Constant[int]):
    t = ct.load(a, index=(ct.bid(0),), shape=(T,))
    ct.store(b, index=(ct.bid(0),), tile=t * 2)


@ct.kernel(num_worker_warps=8, opt_level=ct.ByTarget(sm_90=1))
def warps_and_level(a, b, T: ct.Constant[int]):
    t = ct.load(a, index=(ct.bid(0),), shape=(T,))
    ct.store(b, index=(ct.bid(0),), tile=t + 1)


@ct.kernel(occupancy=ct.ByTarget(sm_90=2, sm_100=3))
def occupancy_by_target(a, b, T: ct.Constant[int]):
    t = ct.load(a, index=(ct.bid(0),), shape=(T,))
    ct.store(b, index=(ct.bid(0),), tile=t)


@ct.kernel(num_worker_warps=16)
def many_warps(a, b, T: ct.Constant[int]):
    ct.store(b, index=(ct.bid(0),), tile=ct.load(a, index=(ct.bid(0),), shape=(T,)))
