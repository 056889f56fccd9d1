"""A kernel whose loop over slots does its work only for the slots a count read from memory says
(model version 76)."""
import cuda.tile as ct


@ct.kernel
def routed_rows(x, counts, y, SLOTS: ct.Constant[int], TILE: ct.Constant[int]):
    """Each block copies its row to the first `n_used` of SLOTS output rows (a token to its experts)."""
    row = ct.bid(0)
    n_used = ct.gather(counts, row)
    v = ct.load(x, index=(row, 0), shape=(1, TILE))
    for s in range(SLOTS):
        if s < n_used:
            ct.store(y, index=(row * SLOTS + s, 0), tile=v)
