"""Run tilescope-built cubins on an NVIDIA GPU (CuPy), and carry cubins to machines without tileiras.

    import tilescope.gpu as tg
    tg.launch((n // 1024,), vector_add, (a, b, c, 1024))          # a, b, c: CuPy/torch CUDA arrays
    tg.launch(grid, vector_add, args, bundle="bundle_dir")         # cubins built elsewhere

See docs/gpu-validation.md.
"""
from .abi import ABIError, ArgSlot, ParamLayout, layout_of, pack
from .artifact import Artifact, artifact_key, build, cache_dir, key_for, lookup
from .cubin import CubinError, KernelInfo, kernel_info, kernel_names
from .device import DeviceArray, describe
from .launcher import GPUError, device_arch, launch, load_function, resolve

__all__ = ["launch", "resolve", "load_function", "device_arch", "Artifact", "build", "lookup", "key_for",
           "artifact_key", "cache_dir", "DeviceArray", "describe", "ParamLayout", "ArgSlot", "layout_of",
           "pack", "kernel_info", "kernel_names", "KernelInfo", "ABIError", "CubinError", "GPUError"]
