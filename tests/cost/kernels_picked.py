"""Gathers at positions loaded data picks (version 94): anywhere in the array, or within the block's
own window (a relative-position table's index offset by the block's row)."""
import cuda.tile as ct


@ct.kernel
def pick_two(x, y, idx, out, TILE: ct.Constant[int]):
    """out[i] = x[idx[i]] + y[idx[i]]: the index a loaded tile, cast."""
    picks = ct.astype(ct.load(idx, index=(ct.bid(0),), shape=(TILE,)), ct.int32)
    ct.store(out, index=(ct.bid(0),), tile=ct.gather(x, picks) + ct.gather(y, picks))


@ct.kernel
def pick_in_window(x, rel, out, TILE: ct.Constant[int]):
    """out[b, i] = x[b * TILE + rel[i]]: a loaded index offset by the block's position."""
    picks = ct.load(rel, index=(0,), shape=(TILE,)) + ct.bid(0) * TILE
    ct.store(out, index=(ct.bid(0),), tile=ct.gather(x, picks))
