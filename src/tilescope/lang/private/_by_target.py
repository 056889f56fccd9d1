"""`cuda.tile._by_target`."""
from ..kernel import ByTarget  # noqa: F401
