"""One entry per cuTile operation, grouped by family; importing this registers them all."""
from . import (atomics, creation, debug, elementwise, gather, math, matmul, memory, reduce,  # noqa: F401
               shape, static_forms, static_ops, views)

FAMILIES = ("memory", "elementwise", "math", "creation", "reduce", "matmul", "shape", "atomics",
            "gather", "views", "debug", "static_ops", "static_forms")
