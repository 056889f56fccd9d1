"""`cuda.tile._execution`: the kernel and function decorators."""
from ..kernel import function, kernel  # noqa: F401
