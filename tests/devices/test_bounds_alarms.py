"""The default bounds check reports undefined behaviour only: a ragged or masked gather/scatter
tail with check_bounds=True is defined (padding read, stores dropped) and stays silent."""
import numpy as np
import pytest

from tilescope.backends.numpy.launcher import run_kernel
from tilescope.lang.shim import load_file

import os

K = load_file(os.path.join(os.path.dirname(__file__), "kernels_tail.py"), "_tilescope_test_kernels_tail")

N, T = 10, 4          # three blocks; the last has two lanes past the end


def _run(kernel, sequential):
    x = np.arange(N, dtype=np.float32)
    y = np.zeros(N, np.float32)
    checks = run_kernel((3,), kernel, (x, y, N, T), sequential=sequential)
    return y, checks.reports


@pytest.mark.parametrize("sequential", [False, True])
@pytest.mark.parametrize("name", ["tail_copy", "masked_tail_copy"])
def test_defined_tails_are_not_reported(name, sequential):
    y, reports = _run(getattr(K, name), sequential)
    assert np.array_equal(y, np.arange(N, dtype=np.float32) + 1)
    assert reports == []


@pytest.mark.parametrize("sequential", [False, True])
def test_broken_check_bounds_promise_is_reported(sequential):
    y, reports = _run(K.unchecked_tail_copy, sequential)
    assert np.array_equal(y, np.arange(N, dtype=np.float32) + 1)      # still nothing outside the array
    text = "\n".join(reports)
    assert "gather with check_bounds=False out of bounds" in text and "element (10,)" in text, text
    assert "scatter with check_bounds=False out of bounds" in text and "undefined behaviour" in text, text
