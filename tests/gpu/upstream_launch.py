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


CAPTURE = FAKE_ARRAY + '''
import importlib.util, json, os, sys
import cuda.tile as ct

TYPESTR = {"float16": "<f2", "float32": "<f4", "float64": "<f8", "bfloat16": "<V2", "int8": "|i1", "int16": "<i2",
           "int32": "<i4", "int64": "<i8", "uint8": "|u1", "uint16": "<u2", "uint32": "<u4", "uint64": "<u8",
           "bool_": "|b1"}


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def arg(a):
    if isinstance(a, dict) and "array" in a:
        d = a["array"]
        return FakeArray(d["ptr"], d["shape"], None, TYPESTR[d["dtype"]])
    return a


out_dir = os.environ["FAKECUDA_OUT"]
log = os.path.join(out_dir, "log.txt")
results = []
modules = {}
for job in json.load(open(os.path.join(out_dir, "jobs.json"))):
    if job["file"] not in modules:
        modules[job["file"]] = load(job["file"], "captured_%d" % len(modules))
    kernel = getattr(modules[job["file"]], job["kernel"])
    before = open(log).read() if os.path.exists(log) else ""
    args = tuple(arg(a) for a in job["args"])
    try:
        from cuda.tile.compilation import CallingConvention, KernelSignature
        try:
            symbol = KernelSignature.from_kernel_args(kernel, args, CallingConvention.cutile_python_v1()).symbol
        except ValueError:
            symbol = KernelSignature.from_kernel_args(kernel, args, CallingConvention.cutile_python_v2()).symbol
        ct.launch(0, tuple(job["grid"]), kernel, args)
    except Exception as e:
        results.append({"error": "%s: %s" % (type(e).__name__, e)})
        continue
    new = open(log).read()[len(before):].split("\\n")
    loads = [l.split()[1] for l in new if l.startswith("load ")]
    results.append({"symbol": symbol, "cubin": loads[-1] if loads else None})
json.dump(results, open(os.path.join(out_dir, "results.json"), "w"))
'''


def capture_launches(lib: str, jobs: list, out_dir: str) -> list:
    """Run upstream's `ct.launch` for each job ({file, kernel, grid, args}; arrays as
    {"array": {ptr, shape, dtype}}) here, without a GPU; returns, per job, {symbol, cubin bytes}
    (or {error}). A launch whose kernel upstream had already compiled reuses that cubin."""
    import json
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "jobs.json"), "w") as f:
        json.dump(jobs, f)
    r = run_upstream(lib, CAPTURE, out_dir, timeout=3600)
    if r.returncode:
        raise RuntimeError(f"upstream launches failed:\n{r.stderr[-3000:]}")
    with open(os.path.join(out_dir, "results.json")) as f:
        results = json.load(f)
    by_symbol, out = {}, []
    for res in results:
        if "error" in res:
            out.append(res)
            continue
        if res["cubin"]:
            with open(res["cubin"], "rb") as f:
                by_symbol[res["symbol"]] = f.read()
        out.append({"symbol": res["symbol"], "cubin": by_symbol.get(res["symbol"])})
    return out
