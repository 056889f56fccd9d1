"""`cupy` itself: the device array and NumPy's namespace returning it."""
from __future__ import annotations

import functools
import sys
import types

import numpy as np

from ..errors import NotOnCpu
from .cuda import Device, MemoryPointer, MemoryPool


class ndarray(np.ndarray):
    """A CuPy array: NumPy memory that reads as device memory."""

    __tilescope_emulated__ = True

    def __new__(cls, shape, dtype=float, memptr=None, strides=None, order="C"):
        if memptr is not None:
            raise NotOnCpu("cupy.ndarray(memptr=...)", "raw device memory")
        return np.ndarray.__new__(cls, shape, dtype, strides=strides, order=order)

    def get(self, stream=None, order="C", out=None, blocking=True):
        host = np.array(self.view(np.ndarray), order=order, copy=True)
        if out is not None:
            out[...] = host
            return out
        return host

    def set(self, arr, stream=None):
        self[...] = np.asarray(arr)

    @property
    def device(self):
        return Device(0)

    @property
    def data(self):
        return MemoryPointer(self)

    def toDlpack(self):
        return self.__dlpack__()

    @property
    def __cuda_array_interface__(self):
        raise NotOnCpu("cupy.ndarray.__cuda_array_interface__", "the array lives in host memory")

    def __array_wrap__(self, obj, context=None, return_scalar=False):
        # CuPy's reductions return 0-d arrays, never NumPy scalars.
        if return_scalar and isinstance(obj, np.ndarray) and obj.ndim == 0:
            return obj.view(type(self))
        return super().__array_wrap__(obj, context, return_scalar)


def to_device(x):
    """Results of NumPy calls as device arrays (arrays, and arrays inside tuples/lists)."""
    if type(x) is np.ndarray:
        return x.view(ndarray)
    if isinstance(x, np.generic):
        return np.asarray(x).view(ndarray)
    if isinstance(x, tuple):
        return tuple(to_device(v) for v in x)
    if isinstance(x, list) and x and isinstance(x[0], np.ndarray):
        return [to_device(v) for v in x]
    return x


def _host(x):
    """What NumPy should see for an argument: device tensors of the torch layer are host memory."""
    if getattr(type(x), "__tilescope_emulated__", False) and type(x).__module__.startswith("tilescope.devices.torch"):
        from ..torch_tensor import host_view     # optional dependency: torch
        return host_view(x).numpy()
    return x


def device_function(fn):
    @functools.wraps(fn)
    def call(*args, **kwargs):
        return to_device(fn(*[_host(a) for a in args], **kwargs))
    return call


def asarray(a, dtype=None, order=None, *, blocking=False):
    a = _host(a)
    if isinstance(a, ndarray) and (dtype is None or np.dtype(dtype) == a.dtype):
        return a
    return np.array(a, dtype=dtype, order=order or "K", copy=True).view(ndarray)


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0, *, blocking=False):
    return np.array(_host(obj), dtype=dtype, copy=True, order=order, ndmin=ndmin).view(ndarray)


def asnumpy(a, stream=None, order="C", out=None, *, blocking=True):
    host = np.array(_host(a).view(np.ndarray) if isinstance(a, np.ndarray) else a, order=order, copy=True)
    if out is not None:
        out[...] = host
        return out
    return host


def from_dlpack(x):
    return asarray(x) if getattr(type(x), "__tilescope_emulated__", False) else np.from_dlpack(x).view(ndarray)


def get_array_module(*args):
    return sys.modules["cupy"]


def get_default_memory_pool():
    return MemoryPool()


get_default_pinned_memory_pool = get_default_memory_pool


def _refuse(name):
    def refused(*args, **kwargs):
        raise NotOnCpu(f"cupy.{name}", "CUDA source code cannot run on the CPU")
    return refused


_OWN = {"ndarray": ndarray, "asarray": asarray, "array": array, "asnumpy": asnumpy, "from_dlpack": from_dlpack,
        "fromDlpack": from_dlpack, "get_array_module": get_array_module,
        "get_default_memory_pool": get_default_memory_pool,
        "get_default_pinned_memory_pool": get_default_pinned_memory_pool, "ascontiguousarray": None,
        "RawKernel": _refuse("RawKernel"), "RawModule": _refuse("RawModule"),
        "ElementwiseKernel": _refuse("ElementwiseKernel"), "ReductionKernel": _refuse("ReductionKernel"),
        "fuse": _refuse("fuse"), "memoize": lambda *a, **k: (lambda f: f)}


class _CupyModule(types.ModuleType):
    """NumPy's names as device functions; what NumPy lacks is reported as not available."""

    __tilescope_stub__ = True

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        value = getattr(np, name, None)
        if value is None:
            raise NotOnCpu(f"cupy.{name}", "not in tilescope's NumPy-backed CuPy stand-in")
        if isinstance(value, (type, np.dtype)) or not callable(value):
            result = value                       # dtypes, constants (cupy.float32, cupy.pi, cupy.newaxis)
        else:
            result = device_function(value)      # ufuncs and functions
            if isinstance(value, np.ufunc):
                result = _Ufunc(value)
        setattr(self, name, result)
        return result


class _Ufunc:
    """A NumPy ufunc whose results are device arrays (keeps .reduce/.outer/.at/...)."""

    def __init__(self, ufunc):
        self._ufunc = ufunc
        self.__name__ = ufunc.__name__

    def __call__(self, *args, **kwargs):
        return to_device(self._ufunc(*[_host(a) for a in args], **kwargs))

    def __getattr__(self, name):
        attr = getattr(self._ufunc, name)
        return device_function(attr) if callable(attr) else attr


_MODULE = None


def module() -> types.ModuleType:
    global _MODULE
    if _MODULE is None:
        m = _CupyModule("cupy", __doc__)
        for name, value in _OWN.items():
            if value is not None:
                setattr(m, name, value)
        m.ascontiguousarray = lambda a, dtype=None: asarray(np.ascontiguousarray(_host(a), dtype=dtype))
        m.__version__ = "14.0.0"
        m.__path__ = []
        _MODULE = m
    return _MODULE
