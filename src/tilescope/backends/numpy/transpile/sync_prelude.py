"""Fill the shared sections of `prelude.py` from their sources of truth.

A generated module must be standalone, so it carries the executor's numerics
(`backends/numpy/numerics.py`), tile geometry (`backends/numpy/tilegeom.py`) and printf
emulation (`ops/debug.py`). `prelude.py` marks
where they go with `# BEGIN name` / `# END name`; `synced` copies them in when a module
is generated, so the repository keeps a single copy.
"""
from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PRELUDE = os.path.join(HERE, "prelude.py")
NUMERICS = os.path.join(HERE, "..", "numerics.py")
GEOMETRY = os.path.join(HERE, "..", "tilegeom.py")
DEBUG = os.path.join(HERE, "..", "..", "..", "ops", "debug.py")


def _read(path: str) -> str:
    with open(path) as f:
        return f.read()


def _between(text: str, start: str, end: str) -> str:
    i = text.index(start)
    return text[i:text.index(end, i)]


def sections() -> dict:
    """The text each marked section of the prelude must hold."""
    numerics = _read(NUMERICS)
    numerics = numerics[numerics.index("# RoundingMode member names"):]
    debug = _read(DEBUG)
    printing = _between(debug, "_CONV_PARTS = re.compile", "@PRINT.numpy")
    geometry = _read(GEOMETRY)
    geometry = geometry[geometry.index("# ---- shared with transpiled modules from here on ----"):]
    return {"numerics": numerics.rstrip("\n") + "\n", "printing": printing.rstrip("\n") + "\n",
            "geometry": geometry.rstrip("\n") + "\n"}


def synced(prelude: str) -> str:
    for name, body in sections().items():
        begin, end = f"# BEGIN {name}\n", f"# END {name}"
        i = prelude.index(begin) + len(begin)
        prelude = prelude[:i] + body + prelude[prelude.index(end, i):]
    return prelude
