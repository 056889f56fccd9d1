"""tilescope: the cuTile toolchain in pure Python.

Describe kernel arguments by metadata (`MetaTensor`), compile cuTile kernels to a
typed IR you can read at every stage, run them on the CPU with NumPy, and lower
them to TileIR for the GPU.
"""
from .dtypes import DType
from .errors import TileError
from .meta import ConstantSpec, ListSpec, MetaTensor, ScalarSpec, TupleSpec, parse_args

__version__ = "0.1.0"


def compile(kernel, args, **kwargs):
    """Compile `kernel` for argument metadata `args`; see `tilescope.compiler.compile`."""
    from .compiler import compile as _compile
    return _compile(kernel, args, **kwargs)


def launch(grid, kernel, args, **kwargs):
    """Run `kernel` over `grid` on the CPU with real arguments (arrays updated in place);
    see `tilescope.run.launch`."""
    from .run import launch as _launch
    return _launch(grid, kernel, args, **kwargs)


def cost(kernel, args, grid, gpu="h200", **kwargs):
    """Predicted time, bytes, FLOPs and advice for launching `kernel` over `grid` on `gpu`,
    from argument metadata alone; see `tilescope.costmodel.cost`."""
    from .costmodel import cost as _cost
    return _cost(kernel, args, grid, gpu, **kwargs)


__all__ = ["DType", "TileError", "MetaTensor", "ScalarSpec", "ConstantSpec", "TupleSpec", "ListSpec",
           "parse_args", "compile", "launch", "cost", "__version__"]
