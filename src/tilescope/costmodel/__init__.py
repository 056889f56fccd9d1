"""Static cost model: bytes, FLOPs, occupancy and a predicted time for a kernel launch on a
given GPU, from the final typed IR and argument metadata only (see docs/cost-model.md).

    report = tilescope.cost(kernel, "f16[4096,4096], f16[4096,4096], f32[4096,4096], 64, 64, 32",
                            grid=(64, 64), gpu="h200")
    report.predicted_us, report.bound, report.to_json(), print(report.text())
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

from ..compiler import compile as ts_compile
from ..errors import TileError
from ..launch_args import normalize_grid
from ..meta import MetaTensor, parse_args
from .advice import advise
from .calibration import H200, Calibration
from .counts import count
from .gpus import GPUS, GPU, gpu_named
from .grid import infer_grid
from .model import predict
from .report import CostReport

__all__ = ["cost", "cost_of_compiled", "CostReport", "GPUS", "GPU", "gpu_named", "Calibration", "H200"]


def cost(kernel: Any, args: Any, grid: Any, gpu: str = "h200", *, aligned: Optional[bool] = None) -> CostReport:
    """The cost report of launching `kernel` over `grid` with arguments described by `args`
    (a spec string such as "f32[1024], f32[1024], 256", or a list of MetaTensors/values).

    `aligned=True` states that arrays are 16-byte aligned with a unit last stride (what
    upstream's launch specialises for ordinary allocations, letting tileiras use TMA loads);
    by default it follows the metadata (`MetaTensor(base_addr_divisible_by=16, ...)`)."""
    specs = parse_args(args) if isinstance(args, str) else list(args)
    compiled = ts_compile(kernel, specs)
    return cost_of_compiled(compiled, grid, gpu, aligned=aligned)


def cost_of_compiled(compiled, grid: Any, gpu: str = "h200", *, aligned: Optional[bool] = None) -> CostReport:
    target = gpu if isinstance(gpu, GPU) else gpu_named(gpu)
    grid3 = normalize_grid(grid)
    if aligned is None:
        aligned = _aligned_by_metadata(compiled.args)
    counts = count(compiled.final, grid3)
    prediction = predict(counts, target, tma=aligned)
    return CostReport(compiled.final.name, grid3, counts, prediction, advise(counts, prediction, aligned))


def _aligned_by_metadata(specs: Sequence[Any]) -> bool:
    """Every array 16-byte aligned with a static unit last stride (and at least one array)."""
    arrays = [s for s in specs if isinstance(s, MetaTensor)]
    return bool(arrays) and all(s.base_addr_divisible_by % 16 == 0 and s.ndim and s.static_strides[-1]
                                and s.strides[-1] == 1 for s in arrays)


def kernel_hover(kernel, specs, gpu: str = "h200") -> Optional[str]:
    """Markdown for an editor hover on a kernel's name: the cost of one launch over the grid its
    tiling implies (None when the grid cannot be told or the kernel does not compile)."""
    try:
        compiled = ts_compile(kernel, specs)
    except (TileError, ValueError, TypeError):
        return None
    grid = infer_grid(compiled.final)
    if grid is None:
        return None
    return cost_of_compiled(compiled, grid, gpu).hover() + " — grid inferred from the tiles indexed by `ct.bid`"
