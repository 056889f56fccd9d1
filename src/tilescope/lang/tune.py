"""`cuda.tile.tune`: autotuning, on the CPU a correctness sweep with a deterministic pick.

CPU timings say nothing about which configuration is fastest on a GPU, so
`exhaustive_search` does what can be done without one: it runs every configuration with
tilescope's checks (bounds, races), records the ones that fail or whose results disagree
with the first configuration that ran, and picks the first configuration (in search-space
order) that ran cleanly. It says so unless `quiet=True`. The `mean_us` figures are the CPU
executor's times, reported for information only.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Generic, List, Optional, Sequence, Tuple, TypeVar

import numpy as np
from ..backends.numpy.launcher import run_kernel
from ..devices import host_array
from ..launch_args import as_host_array
from .kernel import kernel as TileKernel

T = TypeVar("T")


@dataclass(frozen=True, kw_only=True)
class Measurement(Generic[T]):
    """A configuration and its time (on the CPU: the executor's, not a GPU's)."""
    config: T
    mean_us: float
    num_samples: int
    error_margin_us: float


@dataclass(frozen=True, kw_only=True)
class TuningResult(Generic[T]):
    """The configuration picked, every clean configuration, and the failures."""
    best: Measurement
    successes: Sequence[Measurement]
    failures: Sequence[Tuple[T, type, str]]

    def summary(self, *, top_k: int = 10, bottom_k: int = 2) -> str:
        lines = [f"{len(self.successes)} succeeded, {len(self.failures)} failed "
                 f"(tilescope CPU executor: correctness checked, first clean configuration picked)"]
        for m in list(self.successes)[:top_k]:
            mark = "*" if m == self.best else " "
            lines.append(f"{mark} {m.config}: {m.mean_us:.1f} us on the CPU")
        if len(self.successes) > top_k:
            lines.append(f"    ... {len(self.successes) - top_k} more not shown")
        if self.failures:
            lines.append(f"  {len(self.failures)} failed:")
            for cfg, err_type, msg in list(self.failures)[:top_k]:
                first = msg.split("\n", 1)[0]
                lines.append(f"    {cfg}: {err_type.__name__}: {first[:57] + '...' if len(first) > 60 else first}")
        return "\n".join(lines)

    def __str__(self):
        return self.summary()


class ResultsDisagree(AssertionError):
    """A configuration's results differ from those of the first configuration that ran."""


class CheckFailed(AssertionError):
    """tilescope's run-time checks reported a configuration (out-of-bounds access, race, ...)."""


def _host_arrays(args) -> List[Optional[np.ndarray]]:
    """Copies of the array arguments' contents after a launch (None for non-arrays)."""
    out = []
    for i, a in enumerate(args):
        if isinstance(a, (bool, int, float, str)) or a is None:
            out.append(None)
            continue
        try:
            out.append(np.array(as_host_array(host_array(a), f"#{i}"), copy=True))
        except Exception:
            out.append(None)
    return out


def _tolerance(dtype: np.dtype) -> Tuple[float, float]:
    if dtype.kind in "iub":
        return 0.0, 0.0
    if dtype.itemsize <= 2:
        return 2e-2, 2e-2
    if dtype.itemsize == 4:
        return 1e-4, 1e-5
    return 1e-10, 1e-12


def _disagreement(reference, results) -> Optional[str]:
    for i, (r, x) in enumerate(zip(reference, results)):
        if r is None or x is None or r.shape != x.shape or r.dtype != x.dtype:
            continue
        rtol, atol = _tolerance(r.dtype)
        rf, xf = r.astype(np.float64), x.astype(np.float64)
        close = np.isclose(xf, rf, rtol=rtol, atol=atol, equal_nan=True)
        if not close.all():
            where = tuple(int(k) for k in np.argwhere(~close)[0])
            return (f"argument #{i} differs from the first configuration's at {where}: "
                    f"{x[where]!r} vs {r[where]!r} ({int((~close).sum())} elements)")
    return None


def exhaustive_search(search_space: Sequence[T], stream, grid_fn: Callable[[T], tuple], kernel,
                      args_fn: Callable[[T], tuple], hints_fn: Optional[Callable[[T], dict]] = None, *,
                      quiet: bool = False, single_run_timeout_sec: Optional[float] = None,
                      flush_l2: bool = True) -> TuningResult[T]:
    """Run every configuration once with the CPU executor's checks; pick the first clean one
    (no exception, no check report, results agreeing with the first clean configuration's)."""
    configs = list(search_space)
    if not configs:
        raise ValueError("Search space is empty.")
    successes: List[Measurement] = []
    failures: List[Tuple[Any, type, str]] = []
    reference = None
    for cfg in configs:
        try:
            k = kernel if isinstance(kernel, TileKernel) or not callable(kernel) or hasattr(kernel, "_pyfunc") \
                else kernel(cfg)
            hints = hints_fn(cfg) if hints_fn is not None else {}
            if hints:
                k = k.replace_hints(**hints)
            args = tuple(args_fn(cfg))
            start = time.perf_counter()
            checks = run_kernel(tuple(grid_fn(cfg)), k, args)
            elapsed_us = (time.perf_counter() - start) * 1e6
            if checks.reports:               # out of bounds, races...: not a correct configuration
                raise CheckFailed(f"tilescope's checks: {checks.reports[0]}")
            results = _host_arrays(args)
            if reference is None:
                reference = results
            else:
                problem = _disagreement(reference, results)
                if problem is not None:
                    raise ResultsDisagree(problem)
        except Exception as e:          # a failing configuration is a result, as upstream reports it
            failures.append((cfg, type(e), str(e)))
            continue
        successes.append(Measurement(config=cfg, mean_us=elapsed_us, num_samples=1, error_margin_us=0.0))
    if not successes:
        raise ValueError(f"No valid config: all {len(configs)} configurations failed; the first: "
                         f"{failures[0][1].__name__}: {failures[0][2]}")
    result = TuningResult(best=successes[0], successes=successes, failures=failures)
    if not quiet:
        print(f"cuda.tile.tune on tilescope's CPU executor: {len(successes)} of {len(configs)} configurations "
              f"ran cleanly and agree; picked the first, {successes[0].config} (CPU times do not rank GPU "
              f"configurations)")
        for cfg, err_type, msg in failures:
            print(f"  {cfg}: {err_type.__name__}: {msg.splitlines()[0] if msg else ''}")
    return result


__all__ = ["exhaustive_search", "TuningResult", "Measurement"]
