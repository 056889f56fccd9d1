"""TileIR backend: lower tilescope's typed IR to the `cuda_tile` dialect (text and bytecode)."""
from .lower import lower_function, mangle
from .text import normalize_names, print_module

__all__ = ["lower_function", "mangle", "print_module", "normalize_names"]
