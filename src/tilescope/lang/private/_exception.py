"""`cuda.tile._exception`: the exception classes, under their public and internal names."""
from ...errors import (CompilerExecutionError, CompilerTimeoutError, InternalError, InvalidValueError,  # noqa: F401
                       Loc, RecursionLimitError, StaticAssertionError, StaticEvalError, StaticException,
                       TileError, TypeCheckingError, UnsupportedFeatureError, UnsupportedSyntaxError)
from .. import (TileCompilerExecutionError, TileCompilerTimeoutError, TileInternalError,  # noqa: F401
                TileRecursionError, TileStaticAssertionError, TileStaticEvalError, TileSyntaxError,
                TileTypeError, TileUnsupportedFeatureError, TileValueError)
