"""The TileIR bytecode versions tilescope writes, and the one kernels are checked for by default.

A leaf module: the front end's feature gates (ops) and the TileIR backend both read it.
"""
from __future__ import annotations

KNOWN_TARGETS = ((13, 1), (13, 2), (13, 3), (13, 4))     # the bytecode versions tilescope writes
NEWEST_TARGET = KNOWN_TARGETS[-1]

# The version kernels are checked for, unless `tilescope.compile(..., tileiras_version=)` or
# TILESCOPE_TILEIRAS_VERSION says otherwise: the newest tilescope knows, so a type check or a
# CPU run refuses nothing a GPU build might accept. Upstream gates some features on the
# target's version (`compile` and GPU launches pass the installed tileiras's).
DEFAULT_TARGET = NEWEST_TARGET
