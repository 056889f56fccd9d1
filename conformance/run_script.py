"""`python -m conformance.run_script SCRIPT [ARGS...]`: run an upstream sample unmodified on the CPU."""
from __future__ import annotations

import os
import runpy
import sys


def main() -> int:
    from . import boot
    boot.install()
    boot.assert_tilescope()
    script, args = sys.argv[1], sys.argv[2:]
    sys.argv = [script] + args
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            return e.code or 0
        print(e.code, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
