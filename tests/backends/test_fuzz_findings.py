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
