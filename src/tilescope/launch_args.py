"""What every launch is given and checks first: the grid, and the caller's arrays as NumPy
views (NumPy, torch CPU tensors, the device layer's tensors, array interface, DLPack)."""
from __future__ import annotations

from typing import Any, Tuple

import numpy as np

from .devices import host_array


class LaunchError(ValueError):
    """Bad launch arguments (grid, array types); nothing is written to the caller's arrays."""


# CUDA's maximum grid size (x, y, z).
_GRID_LIMITS = (2 ** 31 - 1, 65535, 65535)
_GRID_24BIT_LIMIT = 2 ** 24 - 1


def normalize_grid(grid) -> Tuple[int, int, int]:
    if isinstance(grid, (int, np.integer)):
        grid = (int(grid),)
    try:
        dims = tuple(grid)
    except TypeError:
        raise LaunchError(f"grid must be a tuple of 1 to 3 positive ints, got {grid!r}") from None
    if len(dims) > 3:
        raise LaunchError(f"Grid dimensions must be at most 3, got length {len(dims)}")
    out = []
    for d in dims:
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d <= 0:
            raise LaunchError(f"grid dimensions must be positive ints, got {grid!r}")
        out.append(int(d))
    out += [1] * (3 - len(out))         # as upstream: missing dimensions (even all three) are 1
    for i, d in enumerate(out):
        # Upstream's own limit (kept below 2**24 on every axis), then the device's.
        if d > _GRID_24BIT_LIMIT:
            raise LaunchError(f"Grid[{i}] exceeds 24-bit limit: max={_GRID_24BIT_LIMIT}, got={d}. "
                              f"Use multiple kernel launches for larger workloads.")
        if d > _GRID_LIMITS[i]:
            raise LaunchError(f"Grid[{i}] is too big: max={_GRID_LIMITS[i]}, got={d}")
    return tuple(out)


_ML_DTYPES_OF_TORCH = {"bfloat16": "bfloat16", "float8_e4m3fn": "float8_e4m3fn", "float8_e5m2": "float8_e5m2",
                       "float8_e8m0fnu": "float8_e8m0fnu", "float4_e2m1fn_x2": None}


def as_host_array(x: Any, name: str) -> np.ndarray:
    """A NumPy view sharing memory with the caller's array (NumPy, torch CPU, array interface, DLPack)."""
    if isinstance(x, np.ndarray):
        return x
    if getattr(type(x), "__tilescope_emulated__", False):
        # "On the GPU" through tilescope's device layer: host memory, used in place.
        x = host_array(x)
    mod = type(x).__module__
    if mod.startswith("torch"):
        if getattr(x, "device", None) is not None and x.device.type != "cpu":
            raise LaunchError(f"argument '{name}' is a torch tensor on {x.device}; the CPU executor needs "
                              f"CPU tensors")
        try:
            return x.detach().numpy()
        except TypeError:
            # Types NumPy lacks (bfloat16, float8...): share the bytes and view them as ml_dtypes.
            target = _ML_DTYPES_OF_TORCH.get(str(x.dtype).replace("torch.", ""))
            if target is None:
                raise LaunchError(f"argument '{name}' has torch dtype {x.dtype}, which tilescope cannot use") from None
            import ml_dtypes
            import torch
            raw = {1: torch.uint8, 2: torch.int16}[x.element_size()]
            return x.detach().view(raw).numpy().view(getattr(ml_dtypes, target))
    if hasattr(x, "__array_interface__"):
        return np.asarray(x)
    if hasattr(x, "__dlpack__"):
        return np.from_dlpack(x)
    raise LaunchError(f"argument '{name}' of type {type(x).__name__} is not an array the CPU executor can use")
