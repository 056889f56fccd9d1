"""Front-end speed: kernel source → final typed IR, tilescope vs upstream's export_kernel.

Prints one row per kernel: tilescope cold (fresh process) and warm times, upstream
cold and warm (bytecode export) when cuda-tile is installed, and the ratios.
Goal: tilescope ≤ 0.5× upstream.

    python bench/compile.py [--repeat 20]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "tests", "corpus", "realistic", "kernels.py")
KERNELS = [
    ("vector_add", "f32[?], f32[?], f32[?], 1024"),
    ("matmul_swizzled", "f16[?,?], f16[?,?], f16[?,?], 128, 128, 32, 8"),
    ("row_softmax", "f32[?,?], f32[?,?], 1024"),
    ("layernorm_fwd", "f32[?,?], f32[?], f32[?], f32[?,?], f32[?], f32[?], f32, 256"),
    ("attention_online_softmax", "f16[?,?,?,?], f16[?,?,?,?], f16[?,?,?,?], f16[?,?,?,?], f32, 64, 64, 64"),
]

TILESCOPE_SNIPPET = r"""
import sys, time, json
t0 = time.perf_counter()
sys.path.insert(0, {src!r})
import tilescope
from tilescope.lang.shim import load_file
mod = load_file({path!r})
kernel = getattr(mod, {name!r})
tilescope.compile(kernel, {args!r})
cold = time.perf_counter() - t0
times = []
for _ in range({repeat}):
    from tilescope.frontend import source
    source._hir_cache.clear()
    t = time.perf_counter(); tilescope.compile(kernel, {args!r}); times.append(time.perf_counter() - t)
print(json.dumps({{"cold": cold, "warm": min(times)}}))
"""

UPSTREAM_SNIPPET = r"""
import sys, time, json, os, tempfile
t0 = time.perf_counter()
sys.path.insert(0, {root!r}); sys.path.insert(0, {src!r})
import cuda.tile as ct
from cuda.tile.compilation import KernelSignature, CallingConvention, export_kernel
from tilescope.meta import parse_args
import importlib.util
spec = importlib.util.spec_from_file_location("bench_kernels", {path!r})
mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
kernel = getattr(mod, {name!r})
sig = KernelSignature([s.to_upstream() for s in parse_args({args!r})],
                      calling_convention=CallingConvention.cutile_python_v1())
out = os.path.join(tempfile.mkdtemp(), "k.tilebc")
export_kernel(kernel, [sig], out, output_format="tileir_bytecode", bytecode_version="13.3")
cold = time.perf_counter() - t0
times = []
for _ in range({repeat}):
    t = time.perf_counter()
    export_kernel(kernel, [sig], out, output_format="tileir_bytecode", bytecode_version="13.3")
    times.append(time.perf_counter() - t)
print(json.dumps({{"cold": cold, "warm": min(times)}}))
"""


def run(snippet: str, **kw) -> dict | None:
    code = snippet.format(src=os.path.join(ROOT, "src"), root=ROOT, path=CORPUS, **kw)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if p.returncode != 0:
        return None
    return json.loads(p.stdout.strip().splitlines()[-1])


def upstream_installed() -> bool:
    p = subprocess.run([sys.executable, "-c", "import cuda.tile.compilation"], capture_output=True)
    return p.returncode == 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=20)
    a = ap.parse_args()
    have_upstream = upstream_installed()
    print(f"{'kernel':28} {'ts cold':>9} {'ts warm':>9} {'up cold':>9} {'up warm':>9} {'warm ratio':>10} {'cold ratio':>10}")
    ratios = []
    for name, args in KERNELS:
        ts = run(TILESCOPE_SNIPPET, name=name, args=args, repeat=a.repeat)
        up = run(UPSTREAM_SNIPPET, name=name, args=args, repeat=a.repeat) if have_upstream else None
        if ts is None:
            print(f"{name:28} tilescope failed")
            continue
        row = f"{name:28} {ts['cold']*1e3:8.1f}ms {ts['warm']*1e3:8.2f}ms"
        if up:
            wr, cr = ts["warm"] / up["warm"], ts["cold"] / up["cold"]
            ratios.append(wr)
            row += f" {up['cold']*1e3:8.1f}ms {up['warm']*1e3:8.2f}ms {wr:9.2f}x {cr:9.2f}x"
        else:
            row += "   (upstream cuda-tile not installed)"
        print(row)
    if ratios:
        import math
        gm = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"geometric mean warm ratio tilescope/upstream: {gm:.2f}x (goal ≤ 0.5x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
