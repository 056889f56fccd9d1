"""`tilescope run SCRIPT`: run an unmodified cuTile script with kernels executing on the CPU."""
from __future__ import annotations

import os
import runpy
import sys
from typing import List


def run_script(script: str, argv: List[str], *, record: bool = False) -> int:
    from ..lang.shim import install
    from ..signatures import ACTIVE, Recorder
    if record:
        ACTIVE.append(Recorder())
    if not os.path.exists(script):
        print(f"tilescope run: error: {script}: no such file", file=sys.stderr)
        return 2
    install()                      # `import cuda.tile` is tilescope from here on, upstream or not
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [script] + list(argv)
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        code = e.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code, file=sys.stderr)
        return 1
    finally:
        sys.argv = saved_argv
        sys.path[:] = saved_path
    return 0
