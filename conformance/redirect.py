"""Run CUDA-targeting torch code on the CPU: `device="cuda"` becomes the CPU, `torch.cuda.*` answers as one H200.

Installed once per process (inside the harness's child processes only). Nothing here
touches files on disk; it only patches the torch module objects of this process.
"""
from __future__ import annotations

import contextlib
import time
import types

_installed = False

# What `torch.cuda` reports about the pretend device (the GPU tilescope's numerics follow).
CAPABILITY = (9, 0)
DEVICE_NAME = "NVIDIA H200 (tilescope CPU executor)"


class GpuOnlyFeature(RuntimeError):
    """A CUDA-only facility (graphs, real streams) that has no CPU meaning; the harness reports it as skipped."""


def _is_cuda_device(d) -> bool:
    import torch
    if isinstance(d, torch.device):
        return d.type == "cuda"
    if isinstance(d, str):
        return d == "cuda" or d.startswith("cuda:")
    return False


def _cpu_device(d):
    """The CPU in place of a CUDA device spec; anything else unchanged. Bare ints mean a CUDA ordinal."""
    if _is_cuda_device(d) or (isinstance(d, int) and not isinstance(d, bool)):
        return "cpu"
    return d


class _Stream:
    """Stand-in for torch.cuda.Stream: work runs synchronously on the CPU, so every wait is a no-op."""

    def __init__(self, device=None, priority=0, **kwargs):
        self.device = "cpu"
        self.priority = priority
        self.cuda_stream = 0

    def synchronize(self):
        pass

    def wait_stream(self, other):
        pass

    def wait_event(self, event):
        pass

    def record_event(self, event=None):
        event = event or _Event()
        event.record(self)
        return event

    def query(self):
        return True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __eq__(self, other):
        return isinstance(other, _Stream)

    def __hash__(self):
        return 0


_DEFAULT_STREAM = _Stream()


class _Event:
    """Stand-in for torch.cuda.Event: timestamps from the host clock."""

    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        self._t = None

    def record(self, stream=None):
        self._t = time.perf_counter()

    def synchronize(self):
        pass

    def wait(self, stream=None):
        pass

    def query(self):
        return True

    def elapsed_time(self, end):
        if self._t is None or end._t is None:
            raise RuntimeError("Event was not recorded")
        return (end._t - self._t) * 1000.0


def _gpu_only(what):
    def fail(*args, **kwargs):
        raise GpuOnlyFeature(f"{what} is GPU-only (no CPU meaning under tilescope's executor)")
    return fail


class _GpuOnlyClass:
    def __init__(self, *args, **kwargs):
        raise GpuOnlyFeature(f"{type(self).__name__} is GPU-only (no CPU meaning under tilescope's executor)")


class CUDAGraph(_GpuOnlyClass):
    pass


def _properties(device=None):
    return types.SimpleNamespace(name=DEVICE_NAME, major=CAPABILITY[0], minor=CAPABILITY[1],
                                 multi_processor_count=132, total_memory=141 * 2**30,
                                 L2_cache_size=60 * 2**20, warp_size=32, max_threads_per_multi_processor=2048,
                                 regs_per_multiprocessor=65536, is_integrated=False, is_multi_gpu_board=False,
                                 uuid="tilescope-cpu")


def _patch_torch_cuda(torch) -> None:
    cuda = torch.cuda
    values = {
        "is_available": lambda: True,
        "is_initialized": lambda: True,
        "init": lambda: None,
        "synchronize": lambda device=None: None,
        "current_stream": lambda device=None: _DEFAULT_STREAM,
        "default_stream": lambda device=None: _DEFAULT_STREAM,
        "set_stream": lambda stream: None,
        "stream": lambda stream=None: contextlib.nullcontext(stream),
        "Stream": _Stream,
        "ExternalStream": _Stream,
        "Event": _Event,
        "device_count": lambda: 1,
        "current_device": lambda: 0,
        "set_device": lambda device: None,
        "device": lambda device=None: contextlib.nullcontext(),
        "get_device_capability": lambda device=None: CAPABILITY,
        "get_device_name": lambda device=None: DEVICE_NAME,
        "get_device_properties": _properties,
        "get_arch_list": lambda: ["sm_90"],
        "empty_cache": lambda: None,
        # torch.manual_seed() itself calls torch.cuda.manual_seed_all(): seed only the CPU generator here.
        "manual_seed": lambda seed: torch.random.default_generator.manual_seed(seed),
        "manual_seed_all": lambda seed: torch.random.default_generator.manual_seed(seed),
        "seed": lambda: torch.random.default_generator.seed(),
        "memory_allocated": lambda device=None: 0,
        "max_memory_allocated": lambda device=None: 0,
        "memory_reserved": lambda device=None: 0,
        "reset_peak_memory_stats": lambda device=None: None,
        "mem_get_info": lambda device=None: (141 * 2**30, 141 * 2**30),
        "CUDAGraph": CUDAGraph,
        "graph": _gpu_only("torch.cuda.graph (CUDA graph capture)"),
        "make_graphed_callables": _gpu_only("torch.cuda.make_graphed_callables"),
    }
    for name, value in values.items():
        setattr(cuda, name, value)


def _patch_tensor_methods(torch) -> None:
    Tensor = torch.Tensor
    original_to = Tensor.to

    def to(self, *args, **kwargs):
        args = tuple(_cpu_device(a) if (i == 0 and not isinstance(a, (torch.dtype, torch.Tensor))) else a
                     for i, a in enumerate(args))
        if "device" in kwargs:
            kwargs["device"] = _cpu_device(kwargs["device"])
        return original_to(self, *args, **kwargs)

    def cuda(self, device=None, non_blocking=False, memory_format=torch.preserve_format):
        return self

    Tensor.to = to
    Tensor.cuda = cuda
    Tensor.is_cuda = property(lambda self: True)     # the samples check their inputs "are on the GPU"


def _make_mode(torch):
    from torch.overrides import TorchFunctionMode

    class CudaToCpu(TorchFunctionMode):
        """Rewrites `device=` of every torch call (factories, `*_like`, `.new_*`) from CUDA to the CPU."""

        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            if "device" in kwargs and kwargs["device"] is not None:
                kwargs = dict(kwargs, device=_cpu_device(kwargs["device"]))
            return func(*args, **kwargs)

    return CudaToCpu()


_mode = None


def install() -> None:
    """Redirect CUDA to the CPU for the rest of this process (idempotent)."""
    global _installed, _mode
    if _installed:
        return
    import torch
    _patch_torch_cuda(torch)
    _patch_tensor_methods(torch)
    _mode = _make_mode(torch)
    _mode.__enter__()          # stays pushed for the life of the process
    _installed = True
