"""`cupy.fft`: NumPy's, results on the device."""
import numpy as np

from ._core import device_function


def __getattr__(name):
    return device_function(getattr(np.fft, name))
