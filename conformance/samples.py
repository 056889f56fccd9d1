"""Upstream `samples/*.py`, run unmodified with `--correctness-check` as upstream's test_samples.py does."""
from __future__ import annotations

import glob
import os
from concurrent.futures import ThreadPoolExecutor
from typing import List

from .categories import categorize
from .common import Result, gpu_only_reason, last_line, run_child

SAMPLE_TIMEOUT = 600.0


def _judge(path: str, upstream: str, proc) -> Result:
    rel = os.path.relpath(path, upstream)
    name = os.path.basename(path)
    out = proc.stdout + proc.stderr
    # The same verdict rules as upstream's samples/test_samples.py.
    if proc.returncode == 0 and "Skipped test" in out:
        why = next((l.strip() for l in out.splitlines() if "Skipped test" in l), "")
        return Result("samples", rel, name, "skipped", "skipped by upstream's own condition", why)
    if proc.returncode == 0 and "An unexpected error occurred" not in out and (
            "Correctness check failed" not in out and "Correctness check passed" in out):
        return Result("samples", rel, name, "passed")
    if proc.returncode == -9:
        return Result("samples", rel, name, "failed", "timeout (CPU too slow at the sample's sizes)",
                      last_line(proc.stderr))
    if proc.returncode == 0:
        return Result("samples", rel, name, "failed", "wrong result", "Correctness check failed or missing")
    category, detail = categorize(out)
    return Result("samples", rel, name, "failed", category, detail)


def run_sample(path: str, upstream: str) -> Result:
    rel = os.path.relpath(path, upstream)
    with open(path, encoding="utf-8") as f:
        reason = gpu_only_reason(f.read())
    if reason:
        return Result("samples", rel, os.path.basename(path), "skipped", "GPU-only feature", reason)
    proc = run_child(["-u", "-m", "conformance.run_script", path, "--correctness-check"],
                     timeout=SAMPLE_TIMEOUT, cwd=os.path.dirname(path))
    return _judge(path, upstream, proc)


def sample_files(upstream: str) -> List[str]:
    files = sorted(glob.glob(os.path.join(upstream, "samples", "*.py")))
    return [f for f in files if not os.path.basename(f).startswith(("test_", "__"))]


def run(upstream: str, jobs: int = 1) -> List[Result]:
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(lambda p: run_sample(p, upstream), sample_files(upstream)))
