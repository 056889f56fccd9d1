"""`torch.cuda.*` answering as one emulated GPU (see target.py) whose work runs on the CPU.

Work is synchronous, so streams and events order nothing; events still time the CPU work
(`elapsed_time` in milliseconds). Memory statistics count the live device tensors.
"""
from __future__ import annotations

import contextlib
import gc
import itertools
import threading
import time
from typing import Optional

import torch

from . import target as _target
from . import torch_random
from .errors import NotOnCpu
from .streams import SyncStream
from .torch_tensor import CudaTensor, names_cuda

_stream_handles = itertools.count(1)


def _device_arg(device) -> None:
    if device is None or (isinstance(device, int) and device == 0):
        return
    if isinstance(device, (str, torch.device)):
        names_cuda(device)
        return
    if isinstance(device, int):
        names_cuda(device)                  # raises for ordinals other than 0


class Stream(SyncStream):
    """A CUDA stream: work is synchronous on the CPU, so waits and queries are immediate."""
    _current = threading.local()
    _handle_name = "cuda_stream"

    def __new__(cls, device=None, priority=0, **kwargs):
        _device_arg(device)
        self = object.__new__(cls)
        self.priority = priority
        self.cuda_stream = kwargs.get("stream_ptr", next(_stream_handles))
        self.device_index = 0
        return self

    @property
    def device(self):
        return torch.device("cuda", 0)

    def wait_stream(self, stream):
        pass

    def record_event(self, event=None):
        event = event if event is not None else Event()
        event.record(self)
        return event

    def __repr__(self):
        return f"<torch.cuda.Stream device=cuda:0 cuda_stream={self.cuda_stream:#x}>"


class ExternalStream(Stream):
    def __new__(cls, stream_ptr, device=None, **kwargs):
        return Stream.__new__(cls, device, stream_ptr=stream_ptr)


_DEFAULT = Stream.__new__(Stream, stream_ptr=0)


def current_stream(device=None):
    return Stream.current(_DEFAULT)


def default_stream(device=None):
    return _DEFAULT


def set_stream(stream):
    Stream._current.stream = stream


@contextlib.contextmanager
def stream(s=None):
    if s is None:
        yield
        return
    with s:
        yield


class Event:
    """A CUDA event: records the host clock (work before it has finished, being synchronous)."""

    def __init__(self, enable_timing=False, blocking=False, interprocess=False, external=False):
        if interprocess:
            raise NotOnCpu("torch.cuda.Event(interprocess=True)", "inter-process CUDA memory")
        self.enable_timing = enable_timing
        self._time: Optional[float] = None

    def record(self, stream=None):
        self._time = time.perf_counter()

    def wait(self, stream=None):
        pass

    def synchronize(self):
        pass

    def query(self):
        return True

    def elapsed_time(self, end_event) -> float:
        if not (self.enable_timing and end_event.enable_timing):
            raise RuntimeError("Both events must be created with argument 'enable_timing=True'.")
        if self._time is None or end_event._time is None:
            raise RuntimeError("Both events must be recorded before calculating elapsed time.")
        return (end_event._time - self._time) * 1000.0

    def ipc_handle(self):
        raise NotOnCpu("torch.cuda.Event.ipc_handle", "inter-process CUDA memory")

    def __repr__(self):
        return "<torch.cuda.Event (tilescope CPU device layer)>"


class DeviceProperties:
    """What `torch.cuda.get_device_properties` reports about the emulated GPU."""

    def __init__(self, t: _target.GpuTarget):
        self.name = t.name
        self.major, self.minor = t.capability
        self.total_memory = t.total_memory
        self.multi_processor_count = t.multi_processor_count
        self.L2_cache_size = t.l2_cache_size
        self.max_threads_per_multi_processor = t.max_threads_per_multi_processor
        self.max_threads_per_block = 1024
        self.warp_size = t.warp_size
        self.regs_per_multiprocessor = t.regs_per_multiprocessor
        self.shared_memory_per_block = 48 * 1024
        self.shared_memory_per_block_optin = t.shared_memory_per_block_optin
        self.shared_memory_per_multiprocessor = t.shared_memory_per_block_optin + 1024
        self.clock_rate = t.clock_rate_khz
        self.memory_bus_width = t.memory_bus_width
        self.is_integrated = False
        self.is_multi_gpu_board = False
        self.uuid = "00000000-0000-0000-0000-000000000000"
        self.pci_bus_id, self.pci_device_id, self.pci_domain_id = 0, 0, 0

    def __repr__(self):
        return (f"_CudaDeviceProperties(name='{self.name}', major={self.major}, minor={self.minor}, "
                f"total_memory={self.total_memory // 2**20}MB, multi_processor_count={self.multi_processor_count}, "
                f"L2_cache_size={self.L2_cache_size // 2**20}MB)")


def get_device_properties(device=None):
    _device_arg(device)
    return DeviceProperties(_target.current())


def get_device_capability(device=None):
    _device_arg(device)
    return _target.current().capability


def get_device_name(device=None):
    _device_arg(device)
    return _target.current().name


def get_arch_list():
    return [_target.current().sm_arch]


@contextlib.contextmanager
def _device_context(device=None):
    _device_arg(device if not isinstance(device, int) or device >= 0 else None)
    yield


class device:
    """`with torch.cuda.device(0):` — there is one device, so it only checks the ordinal."""

    def __init__(self, device):
        if not (isinstance(device, int) and device < 0):
            _device_arg(device)
        self.idx = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


# ---- memory statistics: the live device tensors ------------------------------------------

_peak = 0


def memory_allocated(device=None) -> int:
    global _peak
    seen, total = set(), 0
    for obj in gc.get_objects():
        if type(obj) is CudaTensor:
            storage = obj.untyped_storage()
            key = storage.data_ptr()
            if key not in seen:
                seen.add(key)
                total += storage.nbytes()
    _peak = max(_peak, total)
    return total


def max_memory_allocated(device=None) -> int:
    memory_allocated()
    return _peak


def reset_peak_memory_stats(device=None) -> None:
    global _peak
    _peak = 0
    memory_allocated()


def mem_get_info(device=None):
    total = _target.current().total_memory
    return total - memory_allocated(), total


def memory_stats(device=None) -> dict:
    current = memory_allocated()
    return {"allocated_bytes.all.current": current, "allocated_bytes.all.peak": _peak,
            "reserved_bytes.all.current": current, "reserved_bytes.all.peak": _peak}


def memory_summary(device=None, abbreviated=False) -> str:
    return (f"tilescope CPU device layer: {memory_allocated() / 2**20:.1f} MiB in live device tensors "
            f"(peak seen {_peak / 2**20:.1f} MiB)")


# ---- random numbers ----------------------------------------------------------------------

def manual_seed(seed) -> None:
    torch_random.manual_seed(seed)


def seed() -> None:
    torch_random.seed()


def initial_seed() -> int:
    return torch_random.initial_seed()


def get_rng_state(device="cuda"):
    return torch_random.get_state()


def set_rng_state(new_state, device="cuda") -> None:
    torch_random.set_state(new_state)


# ---- what has no CPU meaning --------------------------------------------------------------

def refuse(call: str, why: str = ""):
    def refused(*args, **kwargs):
        raise NotOnCpu(call, why)
    refused.__name__ = call.rsplit(".", 1)[-1]
    return refused


class CUDAGraph:
    def __init__(self, *args, **kwargs):
        raise NotOnCpu("torch.cuda.CUDAGraph", "CUDA graph capture")


def _unit(value):
    return lambda *args, **kwargs: value


ANSWERS = {
    "is_available": _unit(True), "is_initialized": _unit(True), "init": _unit(None),
    "is_bf16_supported": lambda *a, **k: _target.current().capability >= (8, 0),
    "device_count": _unit(1), "current_device": _unit(0), "set_device": lambda d: _device_arg(d),
    "device": device, "device_of": lambda obj: device(0),
    "synchronize": lambda device=None: None, "empty_cache": _unit(None), "ipc_collect": _unit(None),
    "Stream": Stream, "ExternalStream": ExternalStream, "Event": Event,
    "current_stream": current_stream, "default_stream": default_stream, "set_stream": set_stream,
    "stream": stream,
    "get_device_properties": get_device_properties, "get_device_capability": get_device_capability,
    "get_device_name": get_device_name, "get_arch_list": get_arch_list,
    "get_gencode_flags": lambda: f"-gencode compute={_target.current().sm_arch.replace('sm', 'compute')},"
                                 f"code={_target.current().sm_arch}",
    "memory_allocated": memory_allocated, "max_memory_allocated": max_memory_allocated,
    "memory_reserved": memory_allocated, "max_memory_reserved": max_memory_allocated,
    "reset_peak_memory_stats": reset_peak_memory_stats, "reset_max_memory_allocated": reset_peak_memory_stats,
    "reset_accumulated_memory_stats": _unit(None), "mem_get_info": mem_get_info, "memory_stats": memory_stats,
    "memory_summary": memory_summary, "set_per_process_memory_fraction": _unit(None),
    "utilization": _unit(0),
    "manual_seed": manual_seed, "manual_seed_all": manual_seed, "seed": seed, "seed_all": seed,
    "initial_seed": initial_seed, "get_rng_state": get_rng_state, "set_rng_state": set_rng_state,
    "get_rng_state_all": lambda: [get_rng_state()], "set_rng_state_all": lambda states: set_rng_state(states[0]),
    "CUDAGraph": CUDAGraph,
    "graph": refuse("torch.cuda.graph", "CUDA graph capture"),
    "make_graphed_callables": refuse("torch.cuda.make_graphed_callables", "CUDA graph capture"),
    "graph_pool_handle": refuse("torch.cuda.graph_pool_handle", "CUDA graph capture"),
    "is_current_stream_capturing": _unit(False),
    "caching_allocator_alloc": refuse("torch.cuda.caching_allocator_alloc", "raw device allocations"),
    "caching_allocator_delete": refuse("torch.cuda.caching_allocator_delete", "raw device allocations"),
}
