"""Gathers of single elements at positions data picks (docs/cost-model.md history 160): sets AR's and
AY's batch-norm concatenations read two arrays at random element indices and took 2.1 to 7.6 times the
model's time. Each lane reads one element at the index a loaded tile gives, so each lane's sector is
its own; the arrays range from a few MB (L2 keeps them) to several times L2. One tile of TILE lanes a
block, the gathered tile stored contiguous; `gather_picked_two` reads two arrays at the same indices,
as those kernels do. Microbenchmarks of bench/cost_validate.py (`picked_*`)."""
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def gather_picked(x, idx, out, TILE: ConstInt):
    """out[i] = x[idx[i]]."""
    picks = ct.load(idx, index=(ct.bid(0),), shape=(TILE,))
    ct.store(out, index=(ct.bid(0),), tile=ct.gather(x, picks))


@ct.kernel
def gather_picked_two(x, y, idx, out, TILE: ConstInt):
    """out[i] = x[idx[i]] + y[idx[i]]."""
    picks = ct.load(idx, index=(ct.bid(0),), shape=(TILE,))
    ct.store(out, index=(ct.bid(0),), tile=ct.gather(x, picks) + ct.gather(y, picks))
