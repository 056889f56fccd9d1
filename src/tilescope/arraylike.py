"""What can be read off a concrete array without its data: shape, dtype and element strides of
NumPy/CuPy/torch/JAX/CUDA-array-interface/DLPack objects, a GPU array's device address, and the facts a
launch derives from an array (the specialisation upstream's launch applies)."""

from __future__ import annotations

import sys

import numpy as np

from .dtypes import dtype_from_numpy, int32, int64


def c_strides(shape: tuple) -> tuple:
    strides, acc = [], 1
    for dim in reversed(shape):
        strides.append(acc)
        acc = None if acc is None or dim is None else acc * dim
    return tuple(reversed(strides))


def bytes_to_elems(strides_b, itemsize, what):
    out = []
    for s in strides_b:
        if s % itemsize:
            raise ValueError(f"{what} has a byte stride {s} that is not a multiple of the "
                             f"element size {itemsize}")
        out.append(s // itemsize)
    return tuple(out)


# What upstream's launch derives from an array (cuda.tile 1.7.0; checked against its own launch
# in tests/gpu/test_specialize.py): for arrays of rank <= 5, per axis, a stride of 1 is the
# constant 1, a stride of a multiple of 16 bytes is divisible by 16 bytes' worth of elements, an
# extent that is a multiple of 16 is divisible by 16; a base address that is a multiple of 16
# bytes is divisible by 16; strides are assumed non-negative; and whether two in-bounds indices
# can reach one element (a zero stride, overlapping axes) is `may_alias_internally`.
TMA_MAX_RANK = 5


def launch_facts(ptr: int, shape, strides, dtype) -> dict:
    """MetaTensor keyword arguments for the facts a launch derives from an array at `ptr`."""
    ndim = len(shape)
    strides = tuple(strides) if strides is not None else c_strides(tuple(shape))
    bits = dtype.bitwidth
    per_16 = 128 // bits if 128 % bits == 0 else 1
    unit, stride_div, shape_div = [False] * ndim, [1] * ndim, [1] * ndim
    if ndim <= TMA_MAX_RANK:
        for i, (d, s) in enumerate(zip(shape, strides)):
            unit[i] = s == 1
            # C's truncating % as upstream computes it: a negative stride is never divisible
            if s * bits % 8 == 0 and _c_mod(s * bits // 8, 16) == 0 and not unit[i]:
                stride_div[i] = per_16
            if d * bits % 8 == 0 and d % 16 == 0:
                shape_div[i] = 16
    return {"static_strides": tuple(unit), "stride_divisible_by": tuple(stride_div),
            "shape_divisible_by": tuple(shape_div), "base_addr_divisible_by": 16 if ptr % 16 == 0 else 1,
            "may_alias_internally": not _disjoint(shape, strides),
            "index_dtype": int64 if any(abs(v) > int32.max for v in tuple(shape) + strides) else int32}


def _c_mod(a: int, b: int) -> int:
    return a - b * int(a / b) if a >= 0 else -((-a) % b)


def _disjoint(shape, strides) -> bool:
    """Whether distinct in-bounds indices always reach distinct elements (upstream's test: sorted
    by stride, every stride positive and at least the previous stride times its extent)."""
    if not shape:
        return True
    pairs = sorted(zip(strides, shape))
    if pairs[0][0] <= 0:
        return False
    return all(cur >= prev * n and cur > 0 for (prev, n), (cur, _) in zip(pairs, pairs[1:]))


def device_pointer(x):
    """The device address of a GPU array (CUDA array interface, torch CUDA tensor), else None."""
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(x, torch.Tensor):
        return x.data_ptr() if x.device.type == "cuda" else None
    if isinstance(x, np.ndarray):   # host memory, also the CPU device layer's stand-ins for GPU arrays
        return None
    cai = getattr(x, "__cuda_array_interface__", None)
    if isinstance(cai, dict) and isinstance(cai.get("data"), tuple):
        return int(cai["data"][0])
    return None


def describe_array(x):
    """(shape, dtype, strides-in-elements) of an array-like, or TypeError."""
    if isinstance(x, np.ndarray):
        dt = dtype_from_numpy(x.dtype)
        return x.shape, dt, bytes_to_elems(x.strides, x.itemsize, "array")

    torch = sys.modules.get("torch")
    if torch is not None and isinstance(x, torch.Tensor):
        # Works for device="meta" too: only metadata is read.
        return tuple(x.shape), dtype_from_numpy(x.dtype), tuple(x.stride())

    jax = sys.modules.get("jax")
    jax_types = tuple(t for t in (getattr(jax, "ShapeDtypeStruct", None),
                                  getattr(jax, "Array", None)) if isinstance(t, type))
    if jax_types and isinstance(x, jax_types):
        return tuple(x.shape), dtype_from_numpy(np.dtype(x.dtype)), None

    cai = getattr(x, "__cuda_array_interface__", None)
    if isinstance(cai, dict):
        try:
            np_dt = np.dtype(cai["typestr"])
        except TypeError:
            raise TypeError(f"unsupported __cuda_array_interface__ typestr "
                            f"{cai.get('typestr')!r}") from None
        if hasattr(x, "dtype"):  # CuPy etc. give a richer dtype (e.g. bfloat16)
            try:
                np_dt = np.dtype(x.dtype)
            except TypeError:
                pass
        shape = tuple(cai["shape"])
        strides = cai.get("strides")
        if strides is not None:
            strides = bytes_to_elems(strides, np_dt.itemsize, "__cuda_array_interface__")
        return shape, dtype_from_numpy(np_dt), strides

    if hasattr(x, "__dlpack__"):
        try:
            arr = np.from_dlpack(x)
        except Exception as e:  # noqa: BLE001 - any failure means "not consumable"
            raise TypeError(f"cannot describe {type(x).__name__}: NumPy cannot import it "
                            f"through __dlpack__ ({e})") from None
        return describe_array(arr)

    raise TypeError(f"cannot describe an object of type {type(x).__name__} as an array "
                    f"(expected a NumPy/CuPy/torch/jax array or __cuda_array_interface__)")
