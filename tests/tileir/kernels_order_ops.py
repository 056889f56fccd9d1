"""Kernels whose TileIR ops follow upstream's, though their constants may sit elsewhere
(tests/tileir/test_upstream_order.py); plain cuTile."""
import cuda.tile as ct


@ct.kernel
def tuple_compare(x):
    a = ct.bid(0)
    b = ct.bid(1)
    if ((a, 1), b) == ((0, 1), 0):
        ct.scatter(x, (a,), 1)
    if a in (0, (b, 1)[0], 5):
        ct.scatter(x, (a,), 2)


@ct.kernel
def mod_by_constant(x, GROUPS: ct.Constant[int]):
    g = ct.bid(0) % GROUPS
    ct.scatter(x, (g,), 1)
