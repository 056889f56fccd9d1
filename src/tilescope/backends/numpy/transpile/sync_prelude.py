"""Fill the shared sections of `prelude.py` from their sources of truth.

A generated module must be standalone, so it carries the executor's numerics
(`semantics/numerics.py`), which needs tilescope's dtype table, unlike the other semantics
modules (carried whole). `prelude.py` marks
where they go with `# BEGIN name` / `# END name`; `synced` copies them in when a module
is generated, so the repository keeps a single copy.
"""
from __future__ import annotations

import os

HERE = os.path.dirname(os.path.abspath(__file__))
PRELUDE = os.path.join(HERE, "prelude.py")
NUMERICS = os.path.join(HERE, "..", "..", "..", "semantics", "numerics.py")


def _read(path: str) -> str:
    with open(path) as f:
        return f.read()


def sections() -> dict:
    """The text each marked section of the prelude must hold."""
    numerics = _read(NUMERICS)
    numerics = numerics[numerics.index("# RoundingMode member names"):]
    return {"numerics": numerics.rstrip("\n") + "\n"}


def synced(prelude: str) -> str:
    for name, body in sections().items():
        begin, end = f"# BEGIN {name}\n", f"# END {name}"
        i = prelude.index(begin) + len(begin)
        prelude = prelude[:i] + body + prelude[prelude.index(end, i):]
    return prelude
