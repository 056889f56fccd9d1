"""`@ct.kernel`, `@ct.function`, `ct.ByTarget` and `ct.launch`."""
from __future__ import annotations

import contextlib
import functools
from typing import Any, Optional

from ..frontend.source import unwrap_tile_function
from ..kernel_hints import HINT_NAMES, UNSPECIFIED, ByTarget

# The values upstream accepts for each compiler hint (ValueError otherwise, when the kernel is made).
_HINT_RULES = {
    "num_ctas": (lambda v: 1 <= v <= 16 and v & (v - 1) == 0, "power of 2", "num_ctas should be power of 2, got {}",
                 "num_ctas should be [1, 16], got {}"),
    "occupancy": (lambda v: 1 <= v <= 32, None, None, "occupancy should be [1, 32], got {}"),
    "opt_level": (lambda v: 0 <= v <= 3, None, None, "opt_level should be [0, 3], got {}"),
    "num_worker_warps": (lambda v: v in (1, 2, 4, 8, 16, 32), None, None,
                         "num_worker_warps should be a power of 2 in [1, 32], got {}"),
}


def _validate_hint(name: str, value: Any) -> None:
    values = list(value.by_target.values()) if isinstance(value, ByTarget) else [value]
    if isinstance(value, ByTarget) and value.default is not UNSPECIFIED:
        values.append(value.default)
    ok, _, pow2_msg, range_msg = _HINT_RULES[name]
    for v in values:
        # (only integers are checked: tools may pass placeholders for hints they do not set)
        if isinstance(v, bool) or (isinstance(v, int) and not ok(v)):
            if name == "num_ctas" and 1 <= v <= 16:
                raise ValueError(pow2_msg.format(v))
            raise ValueError(range_msg.format(v))


class kernel:
    """Marks a function as a tile kernel, launched over a grid with `ct.launch`.

    Usable as `@ct.kernel` or `@ct.kernel(occupancy=2, ...)`. The hints are kept for
    the TileIR backend; the front end and the CPU executor ignore them.
    """

    def __init__(self, function=None, /, *, num_ctas: Optional[Any] = None, occupancy: Optional[Any] = None,
                 opt_level: Optional[Any] = 3, num_worker_warps: Optional[Any] = None):
        self.hints = {"num_ctas": num_ctas, "occupancy": occupancy, "opt_level": opt_level,
                      "num_worker_warps": num_worker_warps}
        for name, value in self.hints.items():
            _validate_hint(name, value)
        self._function = None
        if function is not None:
            self._set_function(function)

    def _set_function(self, function) -> None:
        inner = unwrap_tile_function(function)
        self._function = inner if inner is not None else function
        functools.update_wrapper(self, self._function)

    @property
    def _pyfunc(self):
        return self._function

    @property
    def pyfunc(self):
        return self._function

    def replace_hints(self, **hints) -> "kernel":
        unknown = set(hints) - set(HINT_NAMES)
        if unknown:
            raise TypeError(f"unknown kernel hint(s): {', '.join(sorted(unknown))}")
        new = kernel(self._function, **{**self.hints, **hints})
        return new

    def __call__(self, *args, **kwargs):
        if self._function is None:          # @ct.kernel(...) used as a decorator factory
            if len(args) == 1 and not kwargs and callable(args[0]):
                self._set_function(args[0])
                return self
        raise TypeError("Tile kernels cannot be called directly. Use cuda.tile.launch() instead.")

    def __repr__(self) -> str:
        name = getattr(self._function, "__qualname__", "?")
        return f"<cuda.tile kernel {name}>"


def function(func=None, /, *, host: bool = False, tile: bool = True):
    """Marks a function as usable from tile code (it is inlined where called).

    Plain Python functions called from tile code are inlined too; the decorator
    only documents intent and, with `host=True`, keeps the function callable
    from ordinary Python.
    """
    def decorate(f):
        if host:
            f._cutile_tile_function = tile
            return f

        @functools.wraps(f)
        def wrapped(*args, **kwargs):
            raise RuntimeError(f"Device functions can only be called from device code. "
                               f"{f.__qualname__}() is a tile function: call it from a kernel or "
                               f"another tile function")
        wrapped._cutile_tile_function = tile
        wrapped._cutile_function_wrapper = True
        return wrapped

    return decorate if func is None else decorate(func)


def launch(stream, grid, kernel, kernel_args, /, *, programmatic_dependent_launch: bool = False):
    """Launch `kernel` over `grid` with `kernel_args`.

    Under tilescope this runs the kernel on the CPU (NumPy); `stream` is ignored.
    """
    from ..run import launch as cpu_launch  # the CPU executor
    return cpu_launch(grid, kernel, kernel_args)


@contextlib.contextmanager
def compiler_timeout(timeout_sec: float):
    """`with ct.compiler_timeout(10):` as upstream; tilescope's front end has no external
    compiler to time out, so the block runs as is."""
    if timeout_sec is not None and timeout_sec <= 0:
        raise ValueError("timeout_sec must be positive")
    yield
