"""`cupy.testing`: NumPy's assertions on host copies."""
import numpy as np

from ._core import asnumpy


def _hosted(fn):
    def check(actual, desired, *args, **kwargs):
        return fn(asnumpy(actual), asnumpy(desired), *args, **kwargs)
    check.__name__ = fn.__name__
    return check


assert_allclose = _hosted(np.testing.assert_allclose)
assert_array_equal = _hosted(np.testing.assert_array_equal)
assert_array_almost_equal = _hosted(np.testing.assert_array_almost_equal)
assert_array_less = _hosted(np.testing.assert_array_less)
