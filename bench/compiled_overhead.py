"""The compiled CPU backend's fixed costs, measured in one run:

- per-launch overhead of a cached kernel (a one-block vector add, launched again and again);
- cold compile of each bench/realworld.py kernel (source to loaded library, fresh cache);
- a first launch in a new process with a warm cache, `import tilescope` included.

Goals: ≤ 50 µs per launch, ≤ 1.5 s per cold compile, ≤ 0.3 s for the first launch.

    python bench/compiled_overhead.py [--rows NAME,...] [--repeat N]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))
sys.path.insert(0, ROOT)

FIRST = """
import time
t0 = time.perf_counter()
import numpy as np
import tilescope
from tilescope.lang.shim import load_file
k = load_file({path!r}).vector_add
a = np.ones(1 << 16, np.float32); c = np.empty_like(a)
tilescope.launch((64,), k, (a, a, c, 1024))
print(time.perf_counter() - t0)
"""


def per_launch(repeat: int) -> list:
    from tilescope.backends.numpy.launcher import run_kernel
    from tilescope.lang.shim import load_file
    k = load_file(os.path.join(ROOT, "examples", "vector_add.py")).vector_add
    a, b = np.ones(1024, np.float32), np.ones(1024, np.float32)
    c = np.empty_like(a)
    # (distinct arrays: arguments sharing memory are checked on the full path, not the fast one)
    for _ in range(10):
        run_kernel((1,), k, (a, b, c, 1024))
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(200):
            run_kernel((1,), k, (a, b, c, 1024))
        times.append((time.perf_counter() - t) / 200)
    return times


def cold_compiles(want) -> list:
    """(row, seconds) for each realworld kernel: first launch's compile, fresh cache dir."""
    from tilescope.backends.compiled import engine, toolchain
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    import realworld
    out = []
    with tempfile.TemporaryDirectory() as d:
        os.environ["TILESCOPE_CACHE_DIR"] = d
        toolchain.compiler()                   # (the compiler's probe is not part of a kernel's compile)
        for r in realworld.rows(0.05):
            if want and not any(w in r.name for w in want):
                continue
            t = time.perf_counter()
            from tilescope.backends.numpy.launcher import run_kernel
            run_kernel(r.grid, r.kernel, r.args)
            out.append((r.name, time.perf_counter() - t, engine.last_launch()))
    return out


def first_launch(repeat: int) -> list:
    code = FIRST.format(path=os.path.join(ROOT, "examples", "vector_add.py"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "src"), ROOT]))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)   # warm the cache
    return [float(subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True,
                                 text=True).stdout) for _ in range(repeat)]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", default="", help="comma-separated substrings of realworld rows to compile")
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    f = first_launch(a.repeat)
    print(f"first launch in a new process, warm cache, import included: median {statistics.median(f):.3f} s "
          f"(min {min(f):.3f}, max {max(f):.3f}; goal <= 0.3 s)")
    p = per_launch(a.repeat)
    print(f"per launch, cached kernel: median {statistics.median(p) * 1e6:.0f} us (min {min(p) * 1e6:.0f}, "
          f"max {max(p) * 1e6:.0f}; goal <= 50 us)")
    rows = cold_compiles([w for w in a.rows.split(",") if w])
    for name, t, info in rows:
        print(f"cold compile {name:44s} {t:6.2f} s  {info.get('declined', '')}")
    print(f"cold compile: worst {max(t for _, t, _ in rows):.2f} s (goal <= 1.5 s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
