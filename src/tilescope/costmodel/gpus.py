"""Published peak figures of the GPUs `tilescope cost` knows (dense rates, no sparsity).

Sources (docs/cost-model.md lists them with links): NVIDIA's H100 and H200 datasheets
(SXM parts), the A100 datasheet (SXM 80 GB), the L40S datasheet, the Ada (RTX 4090)
whitepaper, and NVIDIA's HGX B200 figures (1000 W); SM counts, clocks and L2 sizes where a
datasheet gives none come from the CUDA device properties NVIDIA documents for each chip.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Tuple


# the architecture the model's per-block mechanisms were measured on (H100, H200) and whose code it
# reads; for other GPUs it takes the schedule of this build and applies their own peaks and clocks
MEASURED_ARCH = "sm_90"


@dataclass(frozen=True)
class GPU:
    name: str
    arch: str                     # sm_XX
    sms: int
    clock_ghz: float              # boost clock
    dram_tbs: float               # TB/s
    l2_mb: float
    smem_per_sm_kb: int           # shared memory per SM usable by blocks
    regs_per_sm: int
    max_blocks_per_sm: int
    max_warps_per_sm: int
    fp32_tflops: float            # FMA counted as 2 FLOPs
    fp64_tflops: float
    tensor_tflops: Dict[str, float] = field(default_factory=dict)   # by operand dtype, dense
    sfu_per_sm_clk: int = 16      # special-function results per SM per clock
    tma: bool = False             # bulk tensor copies (Hopper and later; before, async copies do their work)
    l1_shared_kb: int = 0         # the SM's combined L1 data cache and shared memory (0: not known)
    # the shared-memory capacities the SM can be set to (KB; empty: any); the rest is L1
    carveouts_kb: Tuple[int, ...] = ()

    def l1_left_bytes(self, shared_bytes: float) -> float:
        """L1 an SM keeps beside `shared_bytes` of its blocks' shared memory: the shared part is the
        least capacity the SM can be set to that holds them."""
        shared_kb = shared_bytes / 1024
        shared_kb = min((c for c in self.carveouts_kb if c >= shared_kb), default=shared_kb)
        return max(0.0, (self.l1_shared_kb - shared_kb) * 1024)

    def tensor_rate(self, dtype: str) -> float:
        """Dense tensor-core FLOP/s for mma operands of `dtype` (0: none)."""
        key = {"bfloat16": "float16", "float8_e5m2": "float8", "float8_e4m3fn": "float8",
               "uint8": "int8"}.get(dtype, dtype)
        return self.tensor_tflops.get(key, 0.0) * 1e12


# CUDA C++ Programming Guide, compute capability 9.0 / 10.0: 0, 8, 16, 32, 64, 100, 132, 164, 196 or 228 KB
_HOPPER_CARVEOUTS = (0, 8, 16, 32, 64, 100, 132, 164, 196, 228)
_HOPPER_TC = {"float16": 989.5, "tfloat32": 494.7, "float8": 1979.0, "int8": 1979.0, "float64": 66.9}

GPUS: Dict[str, GPU] = {
    "h100": GPU("H100 SXM", "sm_90", 132, 1.98, 3.35, 50, 228, 65536, 32, 64, 66.9, 33.5, dict(_HOPPER_TC),
                tma=True, l1_shared_kb=256, carveouts_kb=_HOPPER_CARVEOUTS),
    "h200": GPU("H200 SXM", "sm_90", 132, 1.98, 4.8, 60, 228, 65536, 32, 64, 66.9, 33.5, dict(_HOPPER_TC),
                tma=True, l1_shared_kb=256, carveouts_kb=_HOPPER_CARVEOUTS),
    "b200": GPU("B200 (HGX, 1000 W)", "sm_100", 148, 1.965, 8.0, 126, 228, 65536, 32, 64, 80.0, 40.0,
                {"float16": 2250.0, "tfloat32": 1100.0, "float8": 4500.0, "int8": 4500.0, "float64": 40.0},
                tma=True, l1_shared_kb=256, carveouts_kb=_HOPPER_CARVEOUTS),
    "a100": GPU("A100 SXM 80 GB", "sm_80", 108, 1.41, 2.039, 40, 164, 65536, 32, 64, 19.5, 9.7,
                {"float16": 312.0, "tfloat32": 156.0, "int8": 624.0, "float64": 19.5}, l1_shared_kb=192),
    "l40s": GPU("L40S", "sm_89", 142, 2.52, 0.864, 96, 100, 65536, 24, 48, 91.6, 1.4,
                {"float16": 362.1, "tfloat32": 183.0, "float8": 733.0, "int8": 733.0}, l1_shared_kb=128),
    "rtx4090": GPU("GeForce RTX 4090", "sm_89", 128, 2.52, 1.008, 72, 100, 65536, 24, 48, 82.6, 1.3,
                   {"float16": 165.2, "tfloat32": 82.6, "float8": 330.3, "int8": 660.6}, l1_shared_kb=128),
}


def gpu_named(name: str) -> GPU:
    key = name.strip().lower().replace("-", "").replace(" ", "")
    try:
        return GPUS[key]
    except KeyError:
        raise ValueError(f"unknown GPU {name!r} (known: {', '.join(sorted(GPUS))})") from None
