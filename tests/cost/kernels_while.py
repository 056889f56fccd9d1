"""Kernels whose `while` loops step a value to a bound (model version 75)."""
import cuda.tile as ct


@ct.kernel
def row_blocks_while(x, y, n: int, TILE: ct.Constant[int]):
    """Each block walks its row in TILE-wide blocks up to a runtime width `n`."""
    row = ct.bid(0)
    start = 0
    while start < n:
        cols = start + ct.arange(TILE, dtype=ct.int32)
        v = ct.gather(x, (row, cols), padding_value=0.0)
        ct.scatter(y, (row, cols), v * 2.0)
        start = start + TILE


@ct.kernel
def row_blocks_down(x, y, n: int, TILE: ct.Constant[int]):
    """The same walk from the row's end down to 0 (`>=`: the bound itself passes)."""
    row = ct.bid(0)
    end = n - TILE
    while end >= 0:
        cols = end + ct.arange(TILE, dtype=ct.int32)
        v = ct.gather(x, (row, cols), padding_value=0.0)
        ct.scatter(y, (row, cols), v * 2.0)
        end = end - TILE


@ct.kernel
def doubling_while(x, y, n: int, TILE: ct.Constant[int]):
    """A value doubled each pass: not a counted walk (its passes stay unknown)."""
    row = ct.bid(0)
    width = TILE
    while width < n:
        cols = ct.arange(TILE, dtype=ct.int32)
        v = ct.gather(x, (row, cols), padding_value=0.0)
        ct.scatter(y, (row, cols), v + 1.0)
        width = width * 2
