"""`cuda.tile._context`."""
from ..kernel import compiler_timeout  # noqa: F401
