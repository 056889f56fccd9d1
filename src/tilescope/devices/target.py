"""The GPU that GPU-targeted host code sees under tilescope's CPU device layer.

`torch.cuda.*` and CuPy's `cuda.runtime` answer as this one device. The default is the
H200 (sm_90) whose numerics the CPU executor follows; `TILESCOPE_GPU` picks another from
the table (`H100`, `B200`, `sm_80`, ...). The figures are the vendors' published ones.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Dict, Tuple

ENV_GPU = "TILESCOPE_GPU"

GiB = 2 ** 30
MiB = 2 ** 20


@dataclass(frozen=True)
class GpuTarget:
    name: str
    capability: Tuple[int, int]
    multi_processor_count: int
    total_memory: int               # bytes
    l2_cache_size: int              # bytes
    max_threads_per_multi_processor: int = 2048
    shared_memory_per_block_optin: int = 227 * 1024
    regs_per_multiprocessor: int = 65536
    warp_size: int = 32
    clock_rate_khz: int = 1_980_000
    memory_bus_width: int = 5120

    @property
    def sm_arch(self) -> str:
        return f"sm_{self.capability[0]}{self.capability[1]}"

    @property
    def compute_capability(self) -> str:
        """As CuPy spells it: "90"."""
        return f"{self.capability[0]}{self.capability[1]}"


TARGETS: Dict[str, GpuTarget] = {
    "h200": GpuTarget("NVIDIA H200", (9, 0), 132, 141 * GiB, 50 * MiB),
    "h100": GpuTarget("NVIDIA H100 80GB HBM3", (9, 0), 132, 80 * GiB, 50 * MiB),
    "b200": GpuTarget("NVIDIA B200", (10, 0), 148, 180 * GiB, 126 * MiB),
    "a100": GpuTarget("NVIDIA A100-SXM4-80GB", (8, 0), 108, 80 * GiB, 40 * MiB,
                      shared_memory_per_block_optin=163 * 1024, clock_rate_khz=1_410_000),
    "rtx4090": GpuTarget("NVIDIA GeForce RTX 4090", (8, 9), 128, 24 * GiB, 72 * MiB,
                         max_threads_per_multi_processor=1536, shared_memory_per_block_optin=99 * 1024,
                         clock_rate_khz=2_520_000, memory_bus_width=384),
    "rtx5090": GpuTarget("NVIDIA GeForce RTX 5090", (12, 0), 170, 32 * GiB, 96 * MiB,
                         max_threads_per_multi_processor=1536, shared_memory_per_block_optin=99 * 1024,
                         clock_rate_khz=2_410_000, memory_bus_width=512),
}
for _t in list(TARGETS.values()):            # sm_XY names the first GPU of each architecture
    TARGETS.setdefault(_t.sm_arch, _t)

DEFAULT = "h200"


class UnknownGpu(ValueError):
    pass


def lookup(name: str) -> GpuTarget:
    key = name.strip().lower().replace("nvidia ", "")
    if key in TARGETS:
        return TARGETS[key]
    known = ", ".join(sorted(TARGETS))
    raise UnknownGpu(f"{ENV_GPU}={name!r} names no GPU tilescope knows (known: {known})")


def current() -> GpuTarget:
    """The target named by TILESCOPE_GPU (default: the H200)."""
    return lookup(os.environ.get(ENV_GPU) or DEFAULT)
