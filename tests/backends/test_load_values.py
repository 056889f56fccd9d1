"""A loaded tile is a value: storing to the array afterwards does not change it (the executor
may hand out views of arrays no op of the launch writes, and copies the others)."""
import numpy as np

import cuda.tile as ct
from tests.backends.test_fusion import three_ways


@ct.kernel
def load_then_overwrite(x, y):
    i = ct.bid(0)
    t = ct.load(x, index=(i,), shape=(4,))
    ct.store(x, index=(i,), tile=ct.zeros((4,), dtype=ct.float32))
    ct.store(y, index=(i,), tile=t)


@ct.kernel
def load_then_overwrite_2d(x, y):
    i, j = ct.bid(0), ct.bid(1)
    t = ct.load(x, index=(i, j), shape=(4, 4))
    ct.store(x, index=(i, j), tile=ct.zeros((4, 4), dtype=ct.float32))
    ct.store(y, index=(j, i), tile=ct.transpose(t))


def test_tiles_loaded_before_a_store_keep_their_values(tmp_path):
    x = np.arange(16, dtype=np.float32)
    out = three_ways(tmp_path, (4,), load_then_overwrite, lambda: (x.copy(), np.zeros(16, np.float32)))
    assert np.array_equal(out[1], x) and not out[0].any()
    x2 = np.arange(64, dtype=np.float32).reshape(8, 8)
    out = three_ways(tmp_path, (2, 2), load_then_overwrite_2d, lambda: (x2.copy(), np.zeros((8, 8), np.float32)))
    assert np.array_equal(out[1], x2.T) and not out[0].any()



@ct.kernel
def load_then_overwrite_0d(x, y):
    t = ct.load(x, index=(), shape=())
    ct.store(x, index=(), tile=ct.zeros((), dtype=ct.float32))
    ct.store(y, index=(0,), tile=ct.reshape(t, (1,)))


def test_a_0d_load_keeps_its_value(tmp_path):
    out = three_ways(tmp_path, (1,), load_then_overwrite_0d,
                     lambda: (np.array(5.0, np.float32), np.zeros(1, np.float32)))
    assert out[1][0] == 5.0 and out[0] == 0.0
