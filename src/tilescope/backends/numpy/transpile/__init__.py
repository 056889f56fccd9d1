"""`tilescope transpile`: a kernel's typed IR as a readable, standalone NumPy module."""
from .codegen import prelude_source, transpile, transpile_kernel

__all__ = ["transpile", "transpile_kernel", "prelude_source"]
