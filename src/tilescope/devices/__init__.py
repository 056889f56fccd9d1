"""A CPU device layer for GPU-targeted host code.

`activate()` makes an unmodified script written for a GPU run on the CPU: `import cuda.tile`
is tilescope (kernels run on the CPU executor), torch's CUDA device is the CPU while tensors
still read as `cuda:0` (torch_tensor.py), `torch.cuda.*` answers as one emulated GPU
(target.py, torch_cuda.py), and `import cupy` gives a NumPy-backed stand-in when CuPy cannot
run (cupy_stub/). Nothing is imported until the script imports it: activation only installs
import hooks, so `TILESCOPE_CPU=1` costs a Python process nothing it does not use.

On under `tilescope run`, `TILESCOPE_CPU=1 python ...`, and pytest with `TILESCOPE_CPU=1`
(the plugin in pytest_plugin.py). docs/devices.md lists what is emulated and what is refused.
"""
from __future__ import annotations

import os

from . import cuda_tile, cupy_stub, hooks
from .errors import NotOnCpu
from .target import ENV_GPU, GpuTarget, current as current_target

ENV_CPU = "TILESCOPE_CPU"

_active = False


def requested(environ=None) -> bool:
    """True when TILESCOPE_CPU asks for the device layer."""
    return (environ if environ is not None else os.environ).get(ENV_CPU, "") not in ("", "0")


def is_active() -> bool:
    return _active


def activate(*, torch: bool = True, cupy: bool = True) -> None:
    """Install the device layer for the rest of the process (idempotent)."""
    global _active
    if _active:
        return
    current_target()                       # a bad TILESCOPE_GPU fails now, with the known names
    cuda_tile.install()
    if torch:
        hooks.when_imported("torch", _install_torch)
    if cupy:
        cupy_stub.install_if_needed()
    _active = True


def _install_torch(module) -> None:
    from . import torch_patch         # optional dependency: torch, once the script imports it
    torch_patch.install(module)


def is_emulated(x) -> bool:
    """True for an array that is "on the GPU" only through this layer (a device tensor or a
    CuPy stand-in array); its memory is host memory."""
    return getattr(type(x), "__tilescope_emulated__", False)


def host_array(x):
    """The host (NumPy or plain torch) view of an emulated device array, sharing its memory."""
    if not is_emulated(x):
        return x
    module = type(x).__module__
    if module.startswith("tilescope.devices.torch"):
        from .torch_tensor import host_view     # optional dependency: torch
        return host_view(x)
    import numpy as np
    return x.view(np.ndarray)


__all__ = ["activate", "is_active", "requested", "is_emulated", "host_array", "NotOnCpu", "GpuTarget",
           "current_target", "ENV_CPU", "ENV_GPU"]
