"""Long differential-fuzzing profile (on demand; the CI profile is tests/fuzz/test_fuzz_quick.py).

    python bench/fuzz.py --examples 100000 [--seed S] [--start I] [--jobs N] [--upstream] [--time-limit SECONDS]
                         [--compiled-every K]

Each example `i` is fully determined by (seed, i): a generated kernel checked for properties
1-2 (and 3 with --upstream), a mutant of it, garbage thrown at parse_args, MetaTensor,
compile and launch, a compile-time Python expression evaluated by tilescope.pyeval and by
Python (tests/fuzz/pyexpr.py), and a helper function of random statements called the same two
ways (tests/fuzz/pyfunc.py). Prints counts per outcome and every failure with a reproducer.
`--jobs N` splits the examples over N processes (the counts are the same as with one).
`--compiled-every K` runs the compiled CPU backend (a C compiler build per new kernel, most of
an example's cost) only on examples whose index is a multiple of K: the others run every
other step, their kernels compared vectorised against sequential and their garbage launches
on the NumPy executor.
"""
from __future__ import annotations

import argparse
import collections
import os
import random
import sys
import time

try:
    import resource          # (POSIX only)
except ImportError:
    resource = None

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (os.path.join(ROOT, "src"), ROOT):
    if p not in sys.path:
        sys.path.insert(0, p)

from tests.fuzz import driver, gen as G, harness as H, pyexpr, pyfunc  # noqa: E402

STEPS = ("kernel", "mutant", "parse_args", "MetaTensor", "compile", "launch", "static_python", "static_function")


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 if resource else float("nan")


def run_range(seed: int, first: int, count: int, upstream: bool, time_limit, progress: bool = True,
              compiled_every: int = 1):
    """(counts, failures, examples done) for examples first..first+count-1."""
    oracle = None
    if upstream:
        if not H.upstream_available():
            print("upstream cuda-tile is not installed; property 3 skipped", file=sys.stderr)
        else:
            oracle = H.UpstreamOracle()
    counts = {k: collections.Counter() for k in STEPS}
    failures = []
    start = time.time()
    done = 0
    try:
        for i in range(first, first + count):
            if time_limit and time.time() - start > time_limit:
                break
            draw = G.RandomDraw(random.Random(f"{seed}:{i}"))
            kernel = G.generate(draw)
            tag = f"[seed {seed} example {i}] "
            compiled = i % compiled_every == 0
            steps = {
                "kernel": lambda: driver.check_kernel(kernel, oracle, tag=tag, compiled=compiled),
                "mutant": lambda: driver.check_mutant(kernel, draw, oracle, tag=tag, compiled=compiled),
                "parse_args": lambda: driver.check_parse_args(draw),
                "MetaTensor": lambda: driver.check_meta_tensor(draw),
                "compile": lambda: driver.check_compile_garbage(kernel, draw),
                "launch": lambda: driver.check_launch_garbage(kernel, draw, compiled),
                "static_python": lambda: pyexpr.check(draw),
                "static_function": lambda: pyfunc.check(draw),
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
                    if progress:     # as they come, for long runs
                        print(f"FAILURE {tag}{what}: {out.failure}\n{'-' * 100}", file=sys.stderr, flush=True)
            H.forget(keep_files=any(out.failure is not None for out in results.values()))
            done += 1
            if progress and done % 500 == 0:
                print(f"... [{first}+] {done} examples, {len(failures)} failures, {time.time() - start:.0f}s, "
                      f"peak RSS {_peak_rss_mb():.0f} MB", file=sys.stderr, flush=True)
    finally:
        if oracle is not None:
            oracle.close()
    return counts, failures, done


def _job(job):
    return run_range(*job)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--examples", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--start", type=int, default=0, help="index of the first example")
    ap.add_argument("--jobs", type=int, default=1, help="processes to split the examples over")
    ap.add_argument("--upstream", action="store_true", help="also compare with upstream cuda-tile (property 3)")
    ap.add_argument("--time-limit", type=float, default=None, help="stop after this many seconds")
    ap.add_argument("--max-failures", type=int, default=50, help="failures printed in full")
    ap.add_argument("--compiled-every", type=int, default=1, metavar="K",
                    help="run the compiled CPU backend on every K-th example only (default: all)")
    args = ap.parse_args(argv)
    start = time.time()
    jobs = max(1, args.jobs)
    share = -(-args.examples // jobs)
    every = max(1, args.compiled_every)
    ranges = [(args.seed, args.start + j * share, min(share, args.examples - j * share), args.upstream,
               args.time_limit, True, every) for j in range(jobs) if args.examples - j * share > 0]
    if jobs == 1:
        results = [run_range(*ranges[0])]
    else:
        import multiprocessing
        with multiprocessing.get_context("spawn").Pool(len(ranges)) as pool:
            results = pool.map(_job, ranges)
    counts = {k: collections.Counter() for k in STEPS}
    failures, done = [], 0
    for c, f, d in results:
        for k in STEPS:
            counts[k].update(c[k])
        failures += f
        done += d
    elapsed = time.time() - start
    print(f"examples: {done} (seed {args.seed}, from {args.start}, {jobs} job(s), upstream "
          f"{'on' if args.upstream else 'off'}, compiled backend on every {every} example(s)), {elapsed:.0f}s")
    for what, c in counts.items():
        print(f"{what:>13}: " + ", ".join(f"{k}={v}" for k, v in sorted(c.items())))
    mirrored = sum(v for c in counts.values() for k, v in c.items() if "InternalError" in k)
    print(f"failures (property violations, tilescope's internal errors, tracebacks): {len(failures)}; "
          f"TileInternalError verdicts mirroring upstream's own (e.g. int ** int on tiles): {mirrored}")
    for f in failures[:args.max_failures]:
        print("=" * 100)
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
