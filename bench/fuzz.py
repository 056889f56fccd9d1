"""Long differential-fuzzing profile (on demand; the CI profile is tests/fuzz/test_fuzz_quick.py).

    python bench/fuzz.py --examples 100000 [--seed S] [--upstream] [--time-limit SECONDS]

Each example `i` is fully determined by (seed, i): a generated kernel checked for properties
1-2 (and 3 with --upstream), a mutant of it, and garbage thrown at parse_args, MetaTensor,
compile and launch. Prints counts per outcome and every failure with a reproducer.
"""
from __future__ import annotations

import argparse
import collections
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (os.path.join(ROOT, "src"), ROOT):
    if p not in sys.path:
        sys.path.insert(0, p)

from tests.fuzz import driver, gen as G, harness as H  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--examples", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--upstream", action="store_true", help="also compare with upstream cuda-tile (property 3)")
    ap.add_argument("--time-limit", type=float, default=None, help="stop after this many seconds")
    ap.add_argument("--max-failures", type=int, default=50, help="failures printed in full")
    args = ap.parse_args(argv)

    oracle = None
    if args.upstream:
        if not H.upstream_available():
            print("upstream cuda-tile is not installed; property 3 skipped", file=sys.stderr)
        else:
            oracle = H.UpstreamOracle()
    counts = {k: collections.Counter() for k in ("kernel", "mutant", "parse_args", "MetaTensor", "compile",
                                                  "launch")}
    failures = []
    start = time.time()
    done = 0
    try:
        for i in range(args.examples):
            if args.time_limit and time.time() - start > args.time_limit:
                break
            draw = G.RandomDraw(random.Random(f"{args.seed}:{i}"))
            kernel = G.generate(draw)
            tag = f"[seed {args.seed} example {i}] "
            steps = {
                "kernel": lambda: driver.check_kernel(kernel, oracle, tag=tag),
                "mutant": lambda: driver.check_mutant(kernel, draw, oracle, tag=tag),
                "parse_args": lambda: driver.check_parse_args(draw),
                "MetaTensor": lambda: driver.check_meta_tensor(draw),
                "compile": lambda: driver.check_compile_garbage(kernel, draw),
                "launch": lambda: driver.check_launch_garbage(kernel, draw),
            }
            results = {}
            for what, step in steps.items():
                try:
                    results[what] = step()
                except Exception as e:   # a bug in the fuzzer itself: keep going, report it
                    results[what] = driver.Outcome("FAIL", f"fuzzer error: {type(e).__name__}: {e}\n"
                                                           f"{kernel.reproducer()}")
            for what, out in results.items():
                counts[what][out.label] += 1
                if out.failure is not None:
                    failures.append(f"{tag}{what}: {out.failure}")
            done += 1
            if done % 500 == 0:
                print(f"... {done} examples, {len(failures)} failures, {time.time() - start:.0f}s",
                      file=sys.stderr, flush=True)
    finally:
        if oracle is not None:
            oracle.close()
    elapsed = time.time() - start
    print(f"examples: {done} (seed {args.seed}, upstream {'on' if oracle else 'off'}), {elapsed:.0f}s")
    for what, c in counts.items():
        print(f"{what:>11}: " + ", ".join(f"{k}={v}" for k, v in sorted(c.items())))
    print(f"failures: {len(failures)}")
    for f in failures[:args.max_failures]:
        print("=" * 100)
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
