"""NaNs produced by arithmetic become the GPU's canonical NaN (positive, all-ones payload) in every
float format; infinities, signed zeros and ordinary values keep their bits."""
import ml_dtypes
import numpy as np
import pytest

from tilescope.semantics.numerics import canonical_nans

FORMATS = {"float16": (np.float16, np.uint16, 0x7FFF), "bfloat16": (ml_dtypes.bfloat16, np.uint16, 0x7FFF),
           "float32": (np.float32, np.uint32, 0x7FFFFFFF)}


@pytest.mark.parametrize("name", FORMATS)
def test_every_nan_becomes_the_canonical_one(name):
    dtype, bits, canon = FORMATS[name]
    width = np.dtype(bits).itemsize * 8
    exp_all = {16: 0x7C00 if name == "float16" else 0x7F80, 32: 0x7F800000}[width]
    x = np.arange(-6, 6, dtype=np.float32).astype(dtype).repeat(3)
    raw = x.view(bits)
    raw[1] = exp_all | 1                                  # signalling-looking NaN, small payload
    raw[4] = (1 << (width - 1)) | exp_all | 3             # negative NaN
    raw[7] = exp_all                                      # +inf stays
    raw[8] = (1 << (width - 1)) | exp_all                 # -inf stays
    raw[10] = 1 << (width - 1)                            # -0 stays
    before = raw.copy()
    out = canonical_nans(x[::1]).view(bits)
    assert out[1] == canon and out[4] == canon
    keep = np.ones(len(x), bool)
    keep[[1, 4]] = False
    assert np.array_equal(out[keep], before[keep])


@pytest.mark.parametrize("name", FORMATS)
def test_arrays_without_nans_are_returned_as_they_are(name):
    dtype = FORMATS[name][0]
    x = np.linspace(-3, 3, 4001, dtype=np.float32).astype(dtype)[::2]     # a strided view too
    assert canonical_nans(x) is x
