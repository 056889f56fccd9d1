"""`cupy.random`: NumPy's generator, results on the device."""
import numpy as np

from ._core import device_function, to_device

_state = np.random.RandomState()


def seed(seed=None):
    _state.seed(seed)


def _from_state(name):
    return device_function(getattr(_state, name))


def __getattr__(name):
    if name in ("RandomState", "Generator"):
        return getattr(np.random, name)
    if name == "default_rng":
        return _DeviceRng
    if hasattr(_state, name):
        return _from_state(name)
    if name == "random":
        return _from_state("random_sample")
    raise AttributeError(f"module 'cupy.random' has no attribute '{name}'")


class _DeviceRng:
    """cupy.random.default_rng(): NumPy's Generator whose draws are device arrays."""

    def __init__(self, seed=None):
        self._rng = np.random.default_rng(seed)

    def __getattr__(self, name):
        attr = getattr(self._rng, name)
        return (lambda *a, **k: to_device(attr(*a, **k))) if callable(attr) else attr
