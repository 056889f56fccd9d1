"""Launching kernels on the CPU: `tilescope.launch(grid, kernel, args)` and `ct.launch` under tilescope."""
from __future__ import annotations

from typing import Any, Optional, Sequence

from .backends.numpy.launcher import run_kernel
from .launch_args import LaunchError, as_host_array, normalize_grid  # noqa: F401  (public here too)


def launch(grid, kernel, args: Sequence[Any], *, checks: Optional[dict] = None, stream=None,
           numerics: Optional[str] = None, trace: Optional[str] = None, engine: Optional[str] = None,
           threads: Optional[int] = None) -> None:
    """Run `kernel` over `grid` on the CPU with real arguments; arrays are updated in place.
    `numerics`: 'exact' (the GPU's rounding, default) or 'fast' (NumPy's float32 arithmetic
    where exact rounding is slow). `trace=DIR`: write a page of the launch's memory accesses
    to DIR (docs/trace.md). `engine`: 'auto' (default: compiled where possible), 'compiled' or
    'numpy'; `threads`: the compiled backend's thread count (default: every core)."""
    run_kernel(grid, kernel, args, checks=checks, numerics=numerics, trace=trace, engine=engine, threads=threads)
