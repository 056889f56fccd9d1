"""Kernels the long fuzzing profile (bench/fuzz.py) found running differently vectorised and
one block at a time, kept as regressions."""
import numpy as np

import tilescope.lang as ct
from tilescope.backends.numpy.launcher import run_kernel


@ct.kernel
def _uniform_fma_stored(out0):
    pid = ct.bid(0)
    v = ct.zeros((8, 4), dtype=ct.float32)
    ct.store(out0, index=(pid, 0), tile=v * 2.0 + v)        # a fused multiply-add of block-uniform tiles


def test_uniform_fma_forwarded_into_every_blocks_tile():
    # (seed 0 example 53843: the fma computed in place into the output wrote only the first block's tile)
    for sequential in (False, True):
        out = np.full((32, 4), -3.25, np.float32)
        run_kernel((4,), _uniform_fma_stored, (out,), sequential=sequential)
        assert (out == 0).all()


@ct.kernel
def _square_root_by_power(x, out):
    pid = ct.bid(0)
    ct.store(out, index=(pid,), tile=ct.load(x, index=(pid,), shape=(1,)) ** 0.5)


def test_power_of_one_half_is_pow_not_sqrt_in_every_run():
    # (seed 0 example 79986: NumPy takes sqrt for a broadcast exponent of 0.5, so the whole-grid
    # run gave NaN for -inf where one block at a time gave pow's +inf; pow(-0, 0.5) is +0, too)
    x = np.array([-np.inf, -0.0, 4.0, 2.25, np.inf, -1.0, np.nan, 0.0], np.float32)
    expected = [np.inf, 0.0, 2.0, 1.5, np.inf, np.nan, np.nan, 0.0]
    for how in (dict(engine="numpy"), dict(sequential=True), dict(engine="auto")):
        out = np.full(8, 7.0, np.float32)
        run_kernel((8,), _square_root_by_power, (x, out), **how)
        np.testing.assert_array_equal(out, np.array(expected, np.float32), err_msg=str(how))
        assert not np.signbit(out[1]), how
