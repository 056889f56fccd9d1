"""tilescope's implementation of the public `cuda.tile` API.

`import tilescope.lang as ct` gives the same names and signatures as
`import cuda.tile as ct` (1.7.0). Inside tilescope's tools, `cuda.tile` itself
resolves to this module (see `tilescope.lang.shim`).
"""

from ..annotations import (Array, ArrayAnnotation, Constant, ConstantAnnotation, IndexedWithInt64, ListAnnotation,
                           Scalar, ScalarAnnotation, ScalarInt64, Slice, Tile, TiledView)
from ..dtypes import (DType, bfloat16, bool_, float4_e2m1fn, float8_e4m3fn, float8_e5m2, float8_e5m3fnu,
                      float8_e8m0fnu, float16, float32, float64, int8, int16, int32, int64, tfloat32, uint8,
                      uint16, uint32, uint64)
from ..enums import MemoryOrder, MemoryScope, PaddingMode, RoundingMode
from ..errors import (StaticException, TileCompilerExecutionError, TileCompilerTimeoutError, TileError,
                      TileInternalError, TileRecursionError, TileStaticAssertionError, TileStaticEvalError,
                      TileSyntaxError, TileTypeError, TileUnsupportedFeatureError, TileValueError)
from ..ops import load_all, registry
from .kernel import ByTarget, compiler_timeout, function, kernel, launch

__tilescope__ = True
__version__ = "1.7.0"       # the cuda.tile release whose surface this implements

# Submodules upstream's package imports eagerly; here on first use (start-up time).
_SUBMODULES = ("tune", "compilation")

# Every public name of cuda.tile 1.7.0 that kernel code can call (each has an entry in the
# registry: tested); the module's attributes are the registry's, so a new op needs no entry here.
OPERATION_NAMES = (
    "abs add arange argmax argmin assert_ assume_divisible_by astile astype atan2 atomic_add atomic_and "
    "atomic_cas atomic_max atomic_min atomic_or atomic_xchg atomic_xor bid bitcast bitwise_and "
    "bitwise_lshift bitwise_not bitwise_or bitwise_rshift bitwise_xor broadcast_to cat cdiv ceil cos cosh "
    "cumprod cumsum divmod ensure_constant equal exp exp2 expand_dims extract floor floordiv full gather "
    "greater greater_equal grid_dependency_control_launch_dependents grid_dependency_control_wait insert "
    "isnan less less_equal load load_advanced_indexing log log2 matmul max maximum min minimum mma "
    "mma_scaled mod mul negative not_equal num_blocks num_tiles ones pack_to_bytes permute pow print printf "
    "prod reduce reshape rsqrt scan scatter sin sinh sqrt static_assert static_eval static_exception "
    "static_iter store store_advanced_indexing sub sum tan tanh transpose truediv unpack_from_bytes where "
    "zeros").split()


def _load_ops() -> dict:
    """The registry's surface functions (the op families are loaded lazily: they import this
    package's submodules, enums and annotations, while they are being registered)."""
    load_all()
    return registry.SURFACE


def __getattr__(name: str):
    if name in _SUBMODULES:
        import importlib
        return importlib.import_module(f"{__name__}.{name}")
    if not name.startswith("_") and "." not in name:
        fn = _load_ops().get(name)
        if fn is not None:
            globals()[name] = fn
            return fn
    raise AttributeError(f"module 'cuda.tile' has no attribute '{name}'")


def __dir__():
    return sorted(set(globals()) | {n for n in _load_ops() if "." not in n} | set(_SUBMODULES))


def foreign_pointer_dtype(pointee_dtype):
    """The dtype of a pointer to `pointee_dtype` from another library (not supported by tilescope)."""
    raise NotImplementedError("foreign pointers are not supported by tilescope")
