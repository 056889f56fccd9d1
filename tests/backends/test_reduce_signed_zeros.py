"""max/min reductions sign a zero result as the element-wise max/min does (-0 < +0), whatever
the order of the elements or the grouping of blocks (NumPy alone leaves it to its code path)."""
import numpy as np

import cuda.tile as ct
from tests.backends.test_fusion import three_ways


@ct.kernel
def row_max_min(x, mx, mn, T: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, index=(i, 0), shape=(1, T))
    ct.store(mx, index=(i,), tile=ct.max(t, axis=1))
    ct.store(mn, index=(i,), tile=ct.min(t, axis=1))


def test_zero_signs_and_nans(tmp_path):
    rng = np.random.default_rng(0)
    pool = np.array([0.0, -0.0, np.nan], np.float32)
    x = rng.choice(pool, size=(64, 32)).astype(np.float32)
    x[0] = -0.0
    x[1] = np.nan
    x[2, :5] = [-1.0, 0.0, -0.0, np.nan, 3.0]
    mx, mn = three_ways(tmp_path, (64,), row_max_min,
                        lambda: (x, np.zeros(64, np.float32), np.zeros(64, np.float32), 32))[1:3]
    for r in range(64):
        vals = x[r][~np.isnan(x[r])]
        if not len(vals):
            assert np.isnan(mx[r]) and np.isnan(mn[r])
            continue
        pos_zero, neg_zero = ((vals == 0) & ~np.signbit(vals)).any(), ((vals == 0) & np.signbit(vals)).any()
        if vals.max() == 0:
            assert np.signbit(mx[r]) == (not pos_zero)
        if vals.min() == 0:
            assert np.signbit(mn[r]) == neg_zero
    assert mx[2] == 3.0 and mn[2] == -1.0 and np.signbit(mx[0]) and np.signbit(mn[0])
