"""Install the CPU device layer into an imported torch (see torch_tensor.py, torch_cuda.py).

Patched, for the whole process: the `torch.cuda` namespace, `Tensor.to/cuda/cpu/type/pin_memory`,
`nn.Module.to/cuda/cpu`, `torch.Generator`, the default-device context, `torch.load`, the legacy
`torch.cuda.FloatTensor`-style types, and every factory function taking `device=` (`torch.zeros`,
`torch.empty_like`, `Tensor.new_zeros`, ...), and ATen's overloads called with such a `device=`
(`torch.ops.aten.full.default`). Nothing is written to disk.
"""
from __future__ import annotations

import contextlib
import functools
import os
import sys

import torch
from torch._ops import OpOverload, OpOverloadPacket

from . import torch_cuda
from .errors import NotOnCpu
from .torch_tensor import (CPU, CUDA0, CudaTensor, as_device, call_on_device, constructors, device_factory,
                           is_emulated, names_cuda, to_device)

_installed = False
_PLAIN = torch.Tensor


# ---- torch.cuda --------------------------------------------------------------------------

def _patch_torch_cuda() -> None:
    cuda = torch.cuda
    for name, value in torch_cuda.ANSWERS.items():
        setattr(cuda, name, value)
        for sub in ("memory", "random", "streams", "graphs"):
            module = getattr(cuda, sub, None)
            if module is not None and hasattr(module, name):
                setattr(module, name, value)
    for name in ("range_push", "range_pop", "mark", "range_start", "range_end"):
        if hasattr(cuda.nvtx, name):
            setattr(cuda.nvtx, name, lambda *a, **k: 0)
    cuda.nvtx.range = lambda *a, **k: contextlib.nullcontext()
    cuda.profiler.start = cuda.profiler.stop = lambda: None
    cuda.profiler.profile = lambda: contextlib.nullcontext()
    cuda._lazy_init = _lazy_init_refused
    if not hasattr(torch._C, "_cuda_clearCublasWorkspaces"):     # benchmark helpers (TileGym's) call it
        torch._C._cuda_clearCublasWorkspaces = lambda: None      # before timing: no cuBLAS, nothing to clear
    for dtype_name, dtype in _LEGACY_TYPES.items():
        setattr(cuda, dtype_name, _legacy_type(dtype_name, dtype))
    _refuse_cuda_profiling()


def _refuse_cuda_profiling() -> None:
    """`torch.profiler.profile(activities=[ProfilerActivity.CUDA])` measures GPU kernels (CUPTI): refused
    by name, where torch's CPU build fails with "Legacy CUDA profiling requires use_cpu=True"."""
    base = torch.profiler.profile
    cuda_activity = torch.profiler.ProfilerActivity.CUDA

    class profile(base):
        def __init__(self, *args, activities=None, **kwargs):
            if activities is not None and cuda_activity in activities:
                raise NotOnCpu("torch.profiler.profile(activities=[ProfilerActivity.CUDA])",
                               "GPU kernel times exist only on a GPU; torch.cuda.Event(enable_timing=True) "
                               "times the CPU work")
            super().__init__(*args, activities=activities, **kwargs)

    profile.__qualname__ = profile.__name__ = base.__name__
    profile.__module__ = base.__module__
    torch.profiler.profile = profile


def _lazy_init_refused():
    # Reached only by torch.cuda functions the layer does not answer: name the outermost one.
    cuda_dir = os.path.dirname(torch.cuda.__file__)
    frame, name = sys._getframe(1), None
    while frame is not None:
        if os.path.dirname(frame.f_code.co_filename).startswith(cuda_dir):
            if not frame.f_code.co_name.startswith("_"):
                name = frame.f_code.co_name
        elif name is not None:
            break
        frame = frame.f_back
    raise NotOnCpu(f"torch.cuda.{name}" if name else "this torch.cuda call", "not emulated by the CPU device layer")


_LEGACY_TYPES = {"FloatTensor": torch.float32, "DoubleTensor": torch.float64, "HalfTensor": torch.float16,
                 "BFloat16Tensor": torch.bfloat16, "IntTensor": torch.int32, "LongTensor": torch.int64,
                 "ShortTensor": torch.int16, "CharTensor": torch.int8, "ByteTensor": torch.uint8,
                 "BoolTensor": torch.bool}


class _LegacyMeta(type):
    def __instancecheck__(cls, obj):
        return is_emulated(obj) and obj.dtype == cls.dtype

    def __call__(cls, *args, **kwargs):
        if len(args) == 1 and not isinstance(args[0], int) and not isinstance(args[0], torch.Size):
            return torch.tensor(args[0], dtype=cls.dtype, device=CUDA0)
        return torch.empty(*args, dtype=cls.dtype, device=CUDA0)


def _legacy_type(name: str, dtype):
    return _LegacyMeta(name, (), {"dtype": dtype, "__module__": "torch.cuda", "is_cuda": True})


# ---- Tensor methods ------------------------------------------------------------------------

def _split_device(args, kwargs):
    """(device named or None, args and kwargs with the device replaced by the CPU)."""
    device = None
    if args and isinstance(args[0], (str, torch.device, int)) and not isinstance(args[0], bool):
        device, args = args[0], (CPU,) + tuple(args[1:])
    elif "device" in kwargs and kwargs["device"] is not None:
        device, kwargs = kwargs["device"], dict(kwargs, device=CPU)
    return device, args, kwargs


def _patch_tensor_methods() -> None:
    to, type_ = _PLAIN.to, _PLAIN.type

    def tensor_to(self, *args, **kwargs):
        if (args and isinstance(args[0], _PLAIN)) or "other" in kwargs:
            # to(other, non_blocking, copy): other's device and dtype
            kwargs = dict(kwargs)
            other = args[0] if args else kwargs.pop("other")
            device = CUDA0 if is_emulated(other) else CPU
            args = (CPU, other.dtype) + tuple(args[1:])
        else:
            device, args, kwargs = _split_device(args, kwargs)
        if device is None:
            return to(self, *args, **kwargs)
        if names_cuda(device):
            if is_emulated(self):
                return to(self, *args, **kwargs)
            out = to(self, *args, **kwargs)
            # A device copy never aliases the host tensor.
            return to_device(out) if out.data_ptr() == self.data_ptr() else as_device(out, leaf=False)
        if is_emulated(self):
            return to(self.cpu(), *args, **kwargs)
        return to(self, *args, **kwargs)

    def tensor_cuda(self, device=None, non_blocking=False, memory_format=torch.preserve_format):
        if device is not None:
            names_cuda(device if not isinstance(device, int) else torch.device("cuda", device))
        return to_device(self)

    def tensor_type(self, dtype=None, non_blocking=False, **kwargs):
        if dtype is None:
            name = type_(self.as_subclass(_PLAIN)) if is_emulated(self) else type_(self)
            return name.replace("torch.", "torch.cuda.", 1) if is_emulated(self) else name
        text = dtype if isinstance(dtype, str) else f"{getattr(dtype, '__module__', '')}.{dtype.__name__}" \
            if isinstance(dtype, _LegacyMeta) else None
        if text is not None and text.startswith("torch.cuda."):
            host = self.cpu() if is_emulated(self) else self
            return to_device(type_(host, text.replace("torch.cuda.", "torch.", 1)))
        return type_(self, dtype, non_blocking, **kwargs)

    _PLAIN.to = tensor_to
    _PLAIN.cuda = tensor_cuda
    _PLAIN.type = tensor_type
    _PLAIN.pin_memory = lambda self, device=None: self       # host memory is host memory here
    CudaTensor.to, CudaTensor.cuda, CudaTensor.type = tensor_to, tensor_cuda, tensor_type


# ---- modules: parameters move as torch moves tensor-subclass parameters -------------------

def _patch_modules() -> None:
    Module = torch.nn.Module
    original = {name: getattr(Module, name) for name in ("to", "cuda", "cpu")}

    def moving(name):
        method = original[name]

        @functools.wraps(method)
        def move(self, *args, **kwargs):
            # Replacing the Parameter objects (instead of `param.data = ...`) lets parameters
            # become device tensors that still pass isinstance(p, nn.Parameter).
            before = torch.__future__.get_overwrite_module_params_on_conversion()
            torch.__future__.set_overwrite_module_params_on_conversion(True)
            try:
                return method(self, *args, **kwargs)
            finally:
                torch.__future__.set_overwrite_module_params_on_conversion(before)
        return move

    for name in original:
        setattr(Module, name, moving(name))


# ---- generators, default device, loading ---------------------------------------------------

def _patch_generator() -> None:
    Generator = torch.Generator

    class _GeneratorMeta(type(Generator)):
        def __instancecheck__(cls, obj):
            return isinstance(obj, Generator)

        def __subclasscheck__(cls, sub):
            return issubclass(sub, Generator)

    class DeviceGenerator(Generator, metaclass=_GeneratorMeta):
        """torch.Generator(device="cuda"): a CPU generator (CUDA's random streams cannot be reproduced)."""

        def __new__(cls, device="cpu"):
            return Generator(CPU if names_cuda(device) else device)

    DeviceGenerator.__name__ = DeviceGenerator.__qualname__ = "Generator"
    DeviceGenerator.__module__ = "torch"
    torch.Generator = DeviceGenerator


def _patch_default_device() -> None:
    # torch.set_default_device("cuda") and `with torch.device("cuda"):` push a DeviceContext.
    from torch.utils._device import DeviceContext
    original = DeviceContext.__torch_function__

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if self.device.type == "cuda" and not isinstance(self.device, str):
            device = kwargs.get("device")
            if device is None and func in constructors():
                device = CUDA0
            if device is not None and names_cuda(device):
                return call_on_device(func, args, kwargs)
        return original(self, func, types, args, kwargs)

    DeviceContext.__torch_function__ = __torch_function__


def _patch_load() -> None:
    load = torch.load

    @functools.wraps(load)
    def device_load(f, map_location=None, *args, **kwargs):
        # Tensors saved on a GPU restore to the CPU; `map_location="cuda"` gives device tensors.
        to_cuda = map_location is not None and not callable(map_location) and not isinstance(map_location, dict) \
            and names_cuda(map_location)
        result = load(f, CPU if (map_location is None or to_cuda) else map_location, *args, **kwargs)
        return _map_tensors(result, to_device) if to_cuda else result
    torch.load = device_load


def _map_tensors(obj, fn):
    if isinstance(obj, _PLAIN):
        return fn(obj)
    if isinstance(obj, dict):
        return type(obj)((k, _map_tensors(v, fn)) for k, v in obj.items())
    if isinstance(obj, (list, tuple)) and not hasattr(obj, "_fields"):
        return type(obj)(_map_tensors(v, fn) for v in obj)
    return obj


def _patch_dlpack() -> None:
    from_dlpack = torch.from_dlpack

    @functools.wraps(from_dlpack)
    def device_from_dlpack(ext_tensor, *args, **kwargs):
        # CuPy's stand-in arrays live "on the device": so do tensors made from them.
        out = from_dlpack(ext_tensor, *args, **kwargs)
        return as_device(out) if getattr(type(ext_tensor), "__tilescope_emulated__", False) else out
    torch.from_dlpack = device_from_dlpack
    torch.utils.dlpack.from_dlpack = device_from_dlpack


# ---- factories: device= arguments -----------------------------------------------------------

_LIKE = ("empty_like", "zeros_like", "ones_like", "full_like", "rand_like", "randn_like", "randint_like")
_NEW = ("new_empty", "new_zeros", "new_ones", "new_full", "new_tensor", "new_empty_strided")


def _patch_factories() -> None:
    # Module attributes, not a torch-function mode: modes are per thread and autograd runs a
    # custom Function's backward without them, while these names are global.
    names = {getattr(f, "__name__", None) for f in constructors()} | set(_LIKE)
    for name in sorted(n for n in names if n and hasattr(torch, n)):
        original = getattr(torch, name)
        if not getattr(original, "__tilescope_device_factory__", False):
            setattr(torch, name, device_factory(original))
    for name in ("fftfreq", "rfftfreq"):
        setattr(torch.fft, name, device_factory(getattr(torch.fft, name)))
    for name in _NEW:
        setattr(_PLAIN, name, device_factory(getattr(_PLAIN, name)))


def _patch_aten_overloads() -> None:
    # FX graphs and Inductor's repros call ATen's overloads directly (`torch.ops.aten.full.default(...,
    # device=device(type='cuda', index=0))`): the factory names above never see those calls, and the CPU
    # build has no CUDA kernel for them. A `device=` naming the GPU makes a device tensor here too.
    for cls in (OpOverload, OpOverloadPacket):
        call = cls.__call__

        def device_call(self, /, *args, _call=call, **kwargs):
            device = kwargs.get("device")
            if device is not None and names_cuda(device):
                return call_on_device(self, args, kwargs)    # which calls back here naming the CPU
            return _call(self, *args, **kwargs)
        cls.__call__ = device_call


def install(module=None) -> None:
    """Put the device layer into torch (idempotent; `module` is torch, from the import hook)."""
    global _installed
    if _installed:
        return
    _installed = True
    _patch_torch_cuda()
    _patch_tensor_methods()
    _patch_modules()
    _patch_generator()
    _patch_default_device()
    _patch_load()
    _patch_dlpack()
    _patch_factories()
    _patch_aten_overloads()
