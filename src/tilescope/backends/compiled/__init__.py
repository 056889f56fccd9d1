"""Compiled CPU backend: the final typed IR turned into C per kernel signature, built by the
system's C compiler, cached on disk and run on every core, bit-identical to the NumPy
executor (backends/numpy) with its default numerics. Kernels it cannot compile yet run on
the NumPy executor (`TILESCOPE_ENGINE=compiled` makes that an error instead)."""
