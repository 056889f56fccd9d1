"""`cuda.tile._stub`: where upstream defines the tile operations and types; the same objects
as `cuda.tile`'s (some code imports operations from here, e.g. `mma_scaled`)."""
from .. import (Array, ArrayAnnotation, Constant, ConstantAnnotation, IndexedWithInt64,  # noqa: F401
                ListAnnotation, Scalar, ScalarInt64, Slice, Tile, TiledView)


def __getattr__(name: str):
    from .. import OPERATION_NAMES
    if name in OPERATION_NAMES:
        from .. import __getattr__ as operation
        return operation(name)
    raise AttributeError(f"module 'cuda.tile._stub' has no attribute '{name}'")
