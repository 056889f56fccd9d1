"""TileIR bytecode versions: the ones tilescope writes, and the newest an installed tileiras reads.

Upstream gates some features on its target's version (the installed tileiras's newest, found
by assembling an empty module at each version from the newest down); `installed_version` does
the same, once per toolchain directory.
"""
from __future__ import annotations

import functools
from typing import Optional, Tuple

from ...targets import KNOWN_TARGETS as KNOWN
from .bytecode import write_bytecode
from .ir import TModule
from .toolchain import AssemblerError, Toolchain, find_toolchain


def text(v: Tuple[int, int]) -> str:
    return f"{v[0]}.{v[1]}"


@functools.lru_cache(maxsize=None)
def _probe(bin_dir: str) -> Optional[Tuple[int, int]]:
    tc = Toolchain(bin_dir)
    for v in reversed(KNOWN):
        try:
            tc.assemble(write_bytecode(TModule("probe", []), v), "sm_120")
        except AssemblerError:
            continue
        return v
    return None


def installed_version(toolchain=None) -> Optional[str]:
    """The newest bytecode version the installed tileiras (or `toolchain`) accepts, as "13.4";
    None when there is no toolchain or it accepts none of the known versions."""
    tc = toolchain or find_toolchain(required=False)
    if tc is None:
        return None
    v = _probe(tc.bin_dir)
    return text(v) if v is not None else None
