"""`cupy.cuda` (and `cupy.cuda.runtime`): streams, events and the device, as the emulated GPU."""
from __future__ import annotations

import itertools
import threading
import time
import types

from .. import target as _target
from ..errors import NotOnCpu
from ..streams import SyncStream

_handles = itertools.count(1)


class Stream(SyncStream):
    """Work runs synchronously on the CPU: synchronize and queries are immediate."""
    _current = threading.local()

    def __init__(self, null=False, non_blocking=False, ptds=False, priority=None):
        self.ptr = 0 if null else next(_handles)

    def use(self):
        self._make_current()
        return self

    def record(self, event=None):
        event = event if event is not None else Event()
        event.record(self)
        return event


class ExternalStream(Stream):
    def __init__(self, ptr, device_id=-1):
        self.ptr = ptr


Stream.null = Stream(null=True)


def get_current_stream(device_id=-1):
    return Stream.current(Stream.null)


class Event:
    """Records the host clock; `get_elapsed_time` gives milliseconds."""

    def __init__(self, block=False, disable_timing=False, interprocess=False):
        if interprocess:
            raise NotOnCpu("cupy.cuda.Event(interprocess=True)", "inter-process CUDA memory")
        self._time = None

    def record(self, stream=None):
        self._time = time.perf_counter()

    def synchronize(self):
        pass

    @property
    def done(self):
        return True


def get_elapsed_time(start_event, end_event) -> float:
    if start_event._time is None or end_event._time is None:
        raise RuntimeError("cudaErrorInvalidResourceHandle: both events must be recorded")
    return (end_event._time - start_event._time) * 1000.0


class Device:
    """The emulated GPU (there is one: device 0)."""

    def __init__(self, device=None):
        if device not in (None, 0):
            raise NotOnCpu(f"cupy.cuda.Device({device})", "the CPU device layer emulates one GPU, device 0")
        self.id = 0

    @property
    def compute_capability(self) -> str:
        return _target.current().compute_capability

    @property
    def attributes(self) -> dict:
        t = _target.current()
        return {"MultiProcessorCount": t.multi_processor_count, "WarpSize": t.warp_size,
                "MaxThreadsPerMultiProcessor": t.max_threads_per_multi_processor,
                "ComputeCapabilityMajor": t.capability[0], "ComputeCapabilityMinor": t.capability[1],
                "L2CacheSize": t.l2_cache_size, "MaxSharedMemoryPerBlockOptin": t.shared_memory_per_block_optin}

    @property
    def mem_info(self):
        return runtime.memGetInfo()

    def synchronize(self):
        pass

    def use(self):
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __eq__(self, other):
        return isinstance(other, Device)

    def __hash__(self):
        return 0

    def __repr__(self):
        return "<CUDA Device 0>"


class MemoryPointer:
    def __init__(self, array):
        self.ptr = array.ctypes.data
        self.device_id = 0


class MemoryPool:
    """Allocation statistics: the layer allocates host memory through NumPy, so the pool is empty."""

    def used_bytes(self):
        return 0

    def total_bytes(self):
        return 0

    def free_bytes(self):
        return 0

    def free_all_blocks(self, stream=None):
        pass

    def set_limit(self, size=None, fraction=None):
        pass

    def get_limit(self):
        return _target.current().total_memory


def is_available() -> bool:
    return True


def _properties(device=0) -> dict:
    t = _target.current()
    return {"name": t.name.encode(), "totalGlobalMem": t.total_memory, "multiProcessorCount": t.multi_processor_count,
            "major": t.capability[0], "minor": t.capability[1], "warpSize": t.warp_size,
            "l2CacheSize": t.l2_cache_size, "maxThreadsPerMultiProcessor": t.max_threads_per_multi_processor,
            "maxThreadsPerBlock": 1024, "sharedMemPerBlockOptin": t.shared_memory_per_block_optin,
            "clockRate": t.clock_rate_khz, "memoryBusWidth": t.memory_bus_width, "regsPerMultiprocessor":
            t.regs_per_multiprocessor}


_ATTRIBUTES = {16: "multiProcessorCount", 75: "major", 76: "minor", 10: "warpSize", 38: "l2CacheSize"}


def _runtime():
    m = types.ModuleType("cupy.cuda.runtime", "CUDA runtime calls answered by the emulated GPU.")

    def refuse(name):
        def refused(*args, **kwargs):
            raise NotOnCpu(f"cupy.cuda.runtime.{name}", "raw CUDA runtime calls")
        return refused
    m.getDeviceCount = lambda: 1
    m.getDevice = lambda: 0
    m.setDevice = lambda device: Device(device) and None
    m.getDeviceProperties = _properties
    m.deviceGetAttribute = lambda attr, device=0: _properties(device)[_ATTRIBUTES[attr]] \
        if attr in _ATTRIBUTES else refuse("deviceGetAttribute")()
    m.deviceSynchronize = lambda: None
    m.streamSynchronize = lambda stream: None
    m.runtimeGetVersion = lambda: 13000
    m.driverGetVersion = lambda: 13000
    m.memGetInfo = lambda: (_target.current().total_memory, _target.current().total_memory)
    m.is_hip = False
    for name in ("malloc", "free", "memcpy", "memcpyAsync", "memset", "hostAlloc", "ipcGetMemHandle",
                 "ipcOpenMemHandle", "graphLaunch", "streamBeginCapture"):
        setattr(m, name, refuse(name))
    return m


runtime = _runtime()
