"""One entry per cuTile operation, grouped by family; importing this registers them all."""
import importlib

FAMILIES = ("memory", "elementwise", "math", "creation", "reduce", "matmul", "shape", "atomics",
            "gather", "views", "debug", "static_ops")

for _name in FAMILIES:
    try:
        importlib.import_module(f"{__name__}.{_name}")
    except ModuleNotFoundError as _e:  # a family not written yet
        if _e.name != f"{__name__}.{_name}":
            raise
