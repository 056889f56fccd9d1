"""Scatter lanes that write one element: the last lane in (block, row-major lane) order wins, as
when blocks run one after another; lanes that never collide keep every write."""
import numpy as np
import pytest

from tilescope.semantics.tilegeom import keep_last_writes


@pytest.mark.parametrize("order", ["increasing", "decreasing", "shuffled"])
def test_lanes_without_collisions_keep_every_write(order):
    lin = np.arange(1000)
    lin = {"increasing": lin, "decreasing": lin[::-1],
           "shuffled": np.random.default_rng(3).permutation(lin)}[order]
    coords = np.unravel_index(lin, (40, 25))
    values = np.arange(1000.0)
    kept, vals = keep_last_writes(coords, values, (40, 25))
    assert all(np.array_equal(k, c) for k, c in zip(kept, coords))
    assert np.array_equal(vals, values)


@pytest.mark.parametrize("lin", [[0, 1, 2, 2, 3], [5, 4, 3, 3, 1], [7, 3, 7, 1, 3, 7]],
                         ids=["rising", "falling", "scattered"])
def test_colliding_lanes_keep_only_the_last_write(lin):
    lin = np.asarray(lin)
    coords = (lin,)
    values = np.arange(len(lin), dtype=np.float32) * 10
    kept, vals = keep_last_writes(coords, values, (8,))
    out = dict(zip(kept[0].tolist(), vals.tolist()))
    want = {}
    for i, e in enumerate(lin.tolist()):
        want[e] = i * 10.0
    assert out == want and len(kept[0]) == len(set(lin.tolist()))
