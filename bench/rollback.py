"""The cost of the launcher's safety copy (backends/numpy/rollback.py), measured in one run on
bench/cpu.py's kernels: launch time with the copy and with the copy switched off (the two
taking turns; median of the per-turn ratios and its spread), the copy's own best time relative
to the best launch time without it (steadier on a busy machine), the bytes copied relative to
the kernel's arguments, and peak extra memory (tracemalloc) with and without it.

    python bench/rollback.py [--quick] [--turns 9]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cpu import args_bytes, peak_extra, rows  # noqa: E402
from tilescope.backends.numpy import launcher, rollback  # noqa: E402
from tilescope.backends.numpy.launcher import run_kernel  # noqa: E402


class _NoCopy(rollback.Snapshot):
    def __init__(self, values, written):
        self.saved, self._buffers = [], []


def _timed(fn) -> float:
    fn()
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--turns", type=int, default=9)
    a = ap.parse_args()
    print(f"{'kernel':34} {'copied/args':>11} {'time with/without copy':>24} {'copy/launch':>11} "
          f"{'peak mem/args with':>19} {'without':>8}")
    ratios = []
    for name, kernel, grid, args, _ in rows(a.quick):
        sizes = []
        real = rollback.Snapshot

        class Counting(real):
            def __init__(self, values, written):
                super().__init__(values, written)
                sizes.append(self.nbytes)
        launcher.Snapshot = Counting
        run_kernel(grid, kernel, args)
        launcher.Snapshot = real
        copy_best, launch_best = float("inf"), float("inf")
        per_turn = []
        for _ in range(a.turns):
            launcher.Snapshot = real
            with_copy = _timed(lambda: run_kernel(grid, kernel, args))
            launcher.Snapshot = _NoCopy
            without = _timed(lambda: run_kernel(grid, kernel, args))
            per_turn.append(with_copy / without)
            launch_best = min(launch_best, without)
            t = time.perf_counter()
            copied = rollback.Snapshot([launcher.ArrayRef(a) for a in args if hasattr(a, "nbytes")], None)
            copy_best = min(copy_best, time.perf_counter() - t)
            copied.release()
        launcher.Snapshot = real
        mem_with = peak_extra(lambda: run_kernel(grid, kernel, args)) / args_bytes(args)
        launcher.Snapshot = _NoCopy
        mem_without = peak_extra(lambda: run_kernel(grid, kernel, args)) / args_bytes(args)
        launcher.Snapshot = real
        med = statistics.median(per_turn)
        ratios.append(med)
        spread = f"{min(per_turn):.2f}-{max(per_turn):.2f}"
        # (the copy timed here is of every array argument: an upper bound of what a launch copies)
        print(f"{name:34} {sizes[0] / args_bytes(args):10.2f}x {med:9.3f}x ({spread:>11}) "
              f"{copy_best / launch_best:10.3f}x {mem_with:18.2f}x {mem_without:7.2f}x")
    print(f"median time ratio over kernels: {statistics.median(ratios):.3f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
