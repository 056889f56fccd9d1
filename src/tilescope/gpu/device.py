"""Device arrays as the launcher sees them (CuPy, torch CUDA tensors, __cuda_array_interface__).

Nothing here imports CuPy or torch: a library is consulted only when the argument comes from it.
"""
from __future__ import annotations

import sys
from typing import Any, Optional, Sequence

import numpy as np

from ..arraylike import launch_facts
from ..dtypes import as_dtype, dtype_from_numpy
from ..meta import MetaTensor
from .abi import ABIError, DeviceArrayInfo


class DeviceArray:
    """A device buffer given by hand, or a device array re-typed (CuPy has no bfloat16: pass a
    uint16 array as `DeviceArray(x, dtype="bfloat16")`)."""

    def __init__(self, base: Any = None, dtype: Optional[str] = None, *, ptr: Optional[int] = None,
                 shape: Optional[Sequence[int]] = None, strides: Optional[Sequence[int]] = None):
        if base is not None:
            info = describe(base)
            ptr = info.ptr if ptr is None else ptr
            shape = info.shape if shape is None else shape
            strides = info.strides if strides is None else strides
            dtype = dtype or info.dtype
        if ptr is None or shape is None or dtype is None:
            raise ValueError("DeviceArray needs a base array, or ptr, shape and dtype")
        self.base = base
        self.dtype = as_dtype(dtype)
        self.shape = tuple(int(d) for d in shape)
        if strides is None:
            strides, acc = [], 1
            for d in reversed(self.shape):
                strides.insert(0, acc)
                acc *= d
        self.strides = tuple(int(s) for s in strides)
        self.ptr = int(ptr)

    def meta(self):
        """The array's description with the facts a launch derives from it (see arraylike.launch_facts)."""
        return MetaTensor(self.shape, self.dtype, self.strides,
                          **launch_facts(self.ptr, self.shape, self.strides, self.dtype))

    @property
    def __cuda_array_interface__(self):
        typestr = f"|u{self.dtype.bitwidth // 8 or 1}"
        return {"data": (self.ptr, False), "shape": self.shape, "version": 3, "typestr": typestr,
                "strides": tuple(s * (self.dtype.bitwidth // 8 or 1) for s in self.strides)}

    def info(self) -> DeviceArrayInfo:
        return DeviceArrayInfo(self.ptr, self.shape, self.strides, self.dtype.name, self.dtype.bitwidth // 8 or 1)


def is_array_like(x: Any) -> bool:
    return isinstance(x, (np.ndarray, DeviceArray)) or hasattr(x, "__cuda_array_interface__") or \
        _is_torch_tensor(x)


def _is_torch_tensor(x) -> bool:
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(x, torch.Tensor)


def _dtype_name(np_dtype) -> str:
    try:
        return dtype_from_numpy(np_dtype).name
    except (TypeError, ValueError):
        return np.dtype(np_dtype).name


def describe(x: Any) -> DeviceArrayInfo:
    """Address, shape, strides (elements) and dtype of a device array; ABIError for host data."""
    if isinstance(x, DeviceArray):
        return x.info()
    if _is_torch_tensor(x):
        if x.device.type != "cuda":
            raise ABIError(f"a torch tensor on {x.device} cannot be passed to a GPU kernel")
        return DeviceArrayInfo(int(x.data_ptr()), tuple(x.shape), tuple(x.stride()), _dtype_name(x.dtype),
                               x.element_size())
    cai = getattr(x, "__cuda_array_interface__", None)
    if isinstance(cai, dict):
        np_dt = np.dtype(cai["typestr"])
        if hasattr(x, "dtype"):
            try:
                np_dt = np.dtype(x.dtype)
            except TypeError:
                pass
        shape = tuple(int(d) for d in cai["shape"])
        strides_b = cai.get("strides")
        if strides_b is None:
            strides, acc = [], 1
            for d in reversed(shape):
                strides.insert(0, acc)
                acc *= d
        else:
            if any(s % np_dt.itemsize for s in strides_b):
                raise ABIError(f"byte strides {strides_b} are not multiples of the element size {np_dt.itemsize}")
            strides = [s // np_dt.itemsize for s in strides_b]
        return DeviceArrayInfo(int(cai["data"][0]), shape, tuple(strides), _dtype_name(np_dt), np_dt.itemsize)
    if isinstance(x, np.ndarray):
        raise ABIError("a NumPy array lives in host memory; launch copies it only with host_arrays=True")
    raise ABIError(f"cannot pass an object of type {type(x).__name__} as a device array")
