"""tilescope: the cuTile toolchain in pure Python.

Describe kernel arguments by metadata (`MetaTensor`), compile cuTile kernels to a
typed IR you can read at every stage, run them on the CPU with NumPy, and lower
them to TileIR for the GPU.
"""
__version__ = "0.1.0"

# Imported on first use, so that the start-up hook (`TILESCOPE_CPU=1`, tilescope.devices)
# costs a Python process no NumPy import.
_LAZY = {"DType": "dtypes", "TileError": "errors", "MetaTensor": "meta", "ScalarSpec": "meta",
         "ConstantSpec": "meta", "TupleSpec": "meta", "ListSpec": "meta", "parse_args": "meta"}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib
        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'tilescope' has no attribute '{name}'")


def compile(kernel, args, **kwargs):
    """Compile `kernel` for argument metadata `args`; see `tilescope.compiler.compile`."""
    from .compiler import compile as _compile      # start-up time (see _LAZY)
    return _compile(kernel, args, **kwargs)


def launch(grid, kernel, args, **kwargs):
    """Run `kernel` over `grid` on the CPU with real arguments (arrays updated in place);
    see `tilescope.run.launch`."""
    from .run import launch as _launch             # start-up time (see _LAZY)
    return _launch(grid, kernel, args, **kwargs)


def cost(kernel, args, grid, gpu="h200", **kwargs):
    """Predicted time, bytes, FLOPs and advice for launching `kernel` over `grid` on `gpu`,
    from argument metadata alone; see `tilescope.costmodel.cost`."""
    from .costmodel import cost as _cost           # start-up time (see _LAZY)
    return _cost(kernel, args, grid, gpu, **kwargs)


__all__ = ["DType", "TileError", "MetaTensor", "ScalarSpec", "ConstantSpec", "TupleSpec", "ListSpec",
           "parse_args", "compile", "launch", "cost", "__version__"]
