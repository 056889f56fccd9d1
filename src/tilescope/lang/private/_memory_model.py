"""`cuda.tile._memory_model`: memory order and scope of atomics."""
from ...enums import MemoryOrder, MemoryScope  # noqa: F401
