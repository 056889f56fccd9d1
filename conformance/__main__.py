"""`python -m conformance --upstream PATH [--only samples|tests|doctests|negative] [--jobs N]`."""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import List

from .common import HARNESS_ROOT, Result

# Fixes made in tilescope while building the harness (listed in the report).
FIXES = [
    "`src/tilescope/ops/common.py` `require_dtype` (+ new helper `foreign_dtype`): accept torch/NumPy dtype "
    "objects as dtype specs (`ct.arange(n, dtype=torch.int32)`), as upstream does; samples/VectorAddition.py "
    "failed with 'dtype must be a cuda.tile dtype, got a dtype object'.",
]


def _check_upstream(path: str) -> str:
    path = os.path.abspath(path)
    if not os.path.isdir(os.path.join(path, "test")) and not os.path.isdir(os.path.join(path, "samples")):
        raise SystemExit(f"conformance: {path} does not look like a cutile-python checkout (no test/ or samples/)")
    fixtures = os.path.join(HARNESS_ROOT, "tests", "fixtures")
    if (os.path.commonpath([path, HARNESS_ROOT]) == HARNESS_ROOT
            and os.path.commonpath([path, fixtures]) != fixtures):
        raise SystemExit("conformance: keep the upstream checkout outside this repository")
    return path


def main(argv: List[str] = None) -> int:
    p = argparse.ArgumentParser(prog="python -m conformance", description=__doc__)
    p.add_argument("--upstream", required=True, help="path to a NVIDIA/cutile-python checkout")
    p.add_argument("--only", choices=["samples", "tests", "doctests", "negative"], action="append",
                   help="run only this part (repeatable); default: all four")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--test-files", nargs="*", help="only these test/ files (names like test_copy.py)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per upstream test")
    p.add_argument("--report", default=os.path.join(HARNESS_ROOT, "docs", "conformance.md"),
                   help="markdown report to write ('-' for none)")
    p.add_argument("--json", help="also write every result as JSON here")
    args = p.parse_args(argv)
    upstream = _check_upstream(args.upstream)
    parts = args.only or ["samples", "tests", "negative", "doctests"]
    results: List[Result] = []
    notes = []
    if "samples" in parts:
        from . import samples
        results += samples.run(upstream, args.jobs)
    if "tests" in parts or "negative" in parts:
        from . import tests_runner
        select = "all" if {"tests", "negative"} <= set(parts) else ("value" if "tests" in parts else "negative")
        results += tests_runner.run(upstream, select, args.jobs, args.test_files, args.timeout)
    if "doctests" in parts:
        from . import doctests
        results += doctests.run(upstream, args.jobs)
        notes.append(f"- Doc examples collected from {doctests.run.how}.")
    for kind in ("samples", "tests", "negative", "doctests"):
        rs = [r for r in results if r.kind == kind]
        if rs:
            c = {o: sum(r.outcome == o for r in rs) for o in ("passed", "failed", "error", "skipped")}
            print(f"{kind}: " + ", ".join(f"{v} {k}" for k, v in c.items()))
    if args.json:
        with open(args.json, "w") as f:
            json.dump([r.to_json() for r in results], f, indent=1)
    if args.report != "-":
        from . import report
        report.write(args.report, report.render(results, upstream, fixes=FIXES, notes=notes))
        print(f"report: {args.report}")
    return 0 if not any(r.outcome in ("failed", "error") for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
