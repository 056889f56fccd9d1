"""Upstream cuTile's own launch path, run here without a GPU (tests/gpu/fakecuda.c stands in for
libcuda): the signature upstream derives from real arguments, and the cubin its launch builds.

    lib = build_fakecuda(tmp_dir)                    # None without a C compiler
    run_upstream(lib, script_text, out_dir)          # runs `script_text` in a fresh interpreter

The script imports cuda.tile as usual; arrays are objects with a `__cuda_array_interface__`.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Optional

HERE = Path(__file__).resolve().parent


def build_fakecuda(out_dir: str) -> Optional[str]:
    """Compile fakecuda.c into `<out_dir>/libcuda.so.1`; None when no C compiler is found."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        return None
    lib = os.path.join(out_dir, "libcuda.so.1")
    if not os.path.exists(lib):
        subprocess.run([cc, "-shared", "-fPIC", "-O1", "-o", lib, str(HERE / "fakecuda.c")], check=True)
    return lib


def run_upstream(lib: str, script: str, out_dir: str, timeout: float = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.dirname(lib), FAKECUDA_OUT=out_dir, PYTHONHASHSEED="0")
    env.pop("CUDA_TILE_LOGS", None)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,
                          timeout=timeout, cwd=out_dir)


FAKE_ARRAY = '''
class FakeArray:
    """A device array as the CUDA array interface describes it (no memory behind it)."""
    def __init__(self, ptr, shape, strides=None, typestr="<f4"):
        self.__cuda_array_interface__ = {"data": (ptr, False), "shape": tuple(shape), "strides": strides,
                                         "typestr": typestr, "version": 3}
'''
