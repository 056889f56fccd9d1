"""`cuda.tile.jax`: call a cuTile kernel from JAX, on the CPU through `jax.pure_callback`.

Inputs arrive as NumPy arrays, `OutputPlaceholder`s become zero-filled arrays, `InputOutput`s
copies of their input; the kernel runs on tilescope's CPU executor and the outputs go back to
JAX. Works under `jax.jit` (the kernel runs when the computation does). Without JAX installed
the module imports and `cutile_call` says what is missing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Tuple
from ..run import launch

try:          # optional dependency
    import jax
    HAS_JAX = True
except ImportError:
    jax = None
    HAS_JAX = False


@dataclass
class OutputPlaceholder:
    """An output buffer of this shape and dtype, returned by cutile_call."""
    shape: Tuple[int, ...]
    dtype: Any


@dataclass
class InputOutput:
    """An input buffer updated in place by the kernel and returned by cutile_call."""
    array: Any


def _flatten(args) -> Tuple[List[Any], List[Any]]:
    """(jax arrays read by the kernel, output descriptions), in argument order."""
    inputs, outputs = [], []

    def visit(a):
        if isinstance(a, OutputPlaceholder):
            outputs.append(a)
        elif isinstance(a, InputOutput):
            inputs.append(a.array)
            outputs.append(a)
        elif isinstance(a, tuple):
            for item in a:
                visit(item)
        elif not isinstance(a, (bool, int, float)):
            inputs.append(a)
    for a in args:
        visit(a)
    return inputs, outputs


def cutile_call(grid: Tuple[int, ...], kernel, args: Tuple[Any, ...]):
    """Launch `kernel` over `grid` from JAX; returns the output array, or a tuple of them."""
    if not HAS_JAX:
        raise ImportError("cuda.tile.jax.cutile_call needs JAX, which is not installed (pip install jax)")
    import numpy as np
    inputs, outputs = _flatten(args)
    shapes = [jax.ShapeDtypeStruct(tuple(o.shape), o.dtype) if isinstance(o, OutputPlaceholder)
              else jax.ShapeDtypeStruct(o.array.shape, o.array.dtype) for o in outputs]

    def run_on_host(*host_inputs):
        feed, made = iter(host_inputs), []

        def build(a):
            if isinstance(a, OutputPlaceholder):
                made.append(np.zeros(tuple(a.shape), dtype=np.dtype(a.dtype)))
                return made[-1]
            if isinstance(a, InputOutput):
                made.append(np.array(next(feed), copy=True))
                return made[-1]
            if isinstance(a, tuple):
                return tuple(build(item) for item in a)
            if isinstance(a, (bool, int, float)):
                return a
            return np.array(next(feed), copy=True)
        launch(tuple(grid), kernel, tuple(build(a) for a in args))
        return tuple(made)

    results = jax.pure_callback(run_on_host, tuple(shapes), *inputs)
    return results[0] if len(results) == 1 else tuple(results)


def register_ffi():
    """Upstream registers its XLA FFI target here; the CPU path needs none."""


def register_primitive():
    """Upstream registers its JAX primitive here; the CPU path needs none."""


__all__ = ["cutile_call", "OutputPlaceholder", "InputOutput"]
