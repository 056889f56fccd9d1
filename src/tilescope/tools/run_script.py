"""`tilescope run SCRIPT`: run an unmodified cuTile script with kernels executing on the CPU."""
from __future__ import annotations

import importlib.util
import os
import runpy
import sys
import traceback
from typing import List, Optional

from .. import trace as _trace
from ..backends.numpy import debugger
from ..backends.numpy.launcher import ENV_NUMERICS, parse_checks
from ..devices import ENV_CPU, activate
from ..devices.target import UnknownGpu
from ..errors import TileError
from ..lang.shim import install
from ..run import LaunchError
from ..signatures import ACTIVE, Recorder

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _print_user_traceback(e: BaseException) -> None:
    frames = [f for f in traceback.extract_tb(e.__traceback__)
              if not os.path.abspath(f.filename).startswith(_PACKAGE_DIR) and "<frozen" not in f.filename
              and not f.filename.endswith("runpy.py")]
    if frames:
        print("Traceback (most recent call last):", file=sys.stderr)
        print("".join(traceback.format_list(frames)), end="", file=sys.stderr)


def run_script(script: str, argv: List[str], *, record: bool = False, block: Optional[str] = None,
               pdb: bool = False, check: Optional[str] = None, numerics: Optional[str] = None,
               trace: Optional[str] = None, module: bool = False, devices: bool = True) -> int:
    """Run `script` (a file, or with `module=True` a module name as `python -m` takes it).
    `block="x,y,z"` runs only that block of each launch; `pdb` stops at each launch's kernel entry;
    `check` selects the run-time checks (as the TILESCOPE_CHECKS environment variable); `numerics`
    'exact' or 'fast' (as TILESCOPE_NUMERICS); `devices` turns on the CPU device layer (CUDA
    tensors, torch.cuda, CuPy on the CPU; see tilescope.devices)."""
    settings = {}
    if check is not None:
        try:
            parse_checks(check)
        except LaunchError as e:
            print(f"tilescope run: error: --check: {e}", file=sys.stderr)
            return 2
        settings["TILESCOPE_CHECKS"] = check
    if numerics is not None:
        settings[ENV_NUMERICS] = numerics
    if block is not None:
        try:
            settings[debugger.ENV_BLOCK] = ",".join(map(str, debugger.parse_block(block)))
        except ValueError as e:
            print(f"tilescope run: error: --block: {e}", file=sys.stderr)
            return 2
    if pdb:
        settings[debugger.ENV_PDB] = "1"
    if devices:
        # Child processes the script starts (pytest-xdist workers, subprocess.run(python ...))
        # get the layer too, through the start-up hook an installed tilescope provides.
        settings[ENV_CPU] = "1"
    saved_env = {k: os.environ.get(k) for k in settings}
    os.environ.update(settings)
    if trace is not None:
        _trace.start_run(trace)
    try:
        return _run_script(script, argv, record=record, module=module, devices=devices)
    finally:
        if trace is not None:
            note = _trace.stop_run()
            if note:
                print(f"tilescope run: --trace: {note}", file=sys.stderr)
        for k, v in saved_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _run_script(script: str, argv: List[str], *, record: bool = False, module: bool = False,
                devices: bool = True) -> int:
    if record:
        ACTIVE.append(Recorder())
    if not module and not os.path.exists(script):
        print(f"tilescope run: error: {script}: no such file", file=sys.stderr)
        return 2
    if devices:
        try:
            activate()
        except UnknownGpu as e:
            print(f"tilescope run: error: {e}", file=sys.stderr)
            return 2
    else:
        install()                  # `import cuda.tile` is tilescope from here on, upstream or not
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [script] + list(argv)
    # As python does: a script's directory, or for -m the current directory, comes first.
    sys.path.insert(0, os.getcwd() if module else os.path.dirname(os.path.abspath(script)))
    try:
        if module:
            try:
                spec = importlib.util.find_spec(script)
            except (ImportError, ValueError):
                spec = None
            if spec is None:
                print(f"tilescope run: error: No module named {script}", file=sys.stderr)
                return 2
            runpy.run_module(script, run_name="__main__", alter_sys=True)
        else:
            runpy.run_path(script, run_name="__main__")
    except (TileError, LaunchError) as e:
        # A kernel problem: show where the script launched it, then the located error.
        _print_user_traceback(e)
        print(e.format() if isinstance(e, TileError) else f"tilescope: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
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
