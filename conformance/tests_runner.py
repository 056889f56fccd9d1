"""Upstream `test/test_*.py` under pytest, on a private copy of the test directory.

The copy gets the harness's own conftest.py (upstream's needs the GPU toolchain) and a
minimal pytest.ini; the checkout itself is only read.
"""
from __future__ import annotations

import json
import re
import os
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from typing import List, Optional

from .categories import categorize
from .common import Result, child_env, run_child

PYTEST_INI = """[pytest]
python_files = test_*.py
python_functions = test_*
markers =
    use_mlir: tests that need upstream's MLIR extension
filterwarnings =
    ignore::DeprecationWarning
"""

CHUNK_TIMEOUT = 3000.0

# Failures that come from asserting on upstream internals (internal exception classes,
# mocks of upstream's compiler entry, private attributes of upstream's kernel class).
NOT_APPLICABLE_FAILURE = (r"but got 'Internal'|MagicMock name='compile_tile'|name='cuda\.tile\._|"
                          r"type object 'kernel' has no attribute '_")


def prepare_copy(upstream: str, workdir: str) -> str:
    """A copy of upstream's test/ under `workdir`, with the harness conftest; returns its path."""
    src = os.path.join(upstream, "test")
    dst = os.path.join(workdir, "test")
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "conftest.py"))
    here = os.path.dirname(os.path.abspath(__file__))
    shutil.copyfile(os.path.join(here, "conftest_template.py"), os.path.join(dst, "conftest.py"))
    with open(os.path.join(dst, "pytest.ini"), "w") as f:
        f.write(PYTEST_INI)
    return dst


def test_files(upstream: str) -> List[str]:
    tdir = os.path.join(upstream, "test")
    return sorted(f for f in os.listdir(tdir) if f.startswith("test_") and f.endswith(".py"))


SITECUSTOMIZE = """# Written by the tilescope conformance harness: Python processes that upstream's tests
# start themselves (e.g. test_assert runs a kernel file as a script) get the same set-up.
import os
if os.environ.get("TILESCOPE_CONFORMANCE_BOOT"):
    import conformance.boot
    conformance.boot.install()
"""


def _site_hook(work: str) -> dict:
    site = os.path.join(work, "site")
    os.makedirs(site, exist_ok=True)
    with open(os.path.join(site, "sitecustomize.py"), "w") as f:
        f.write(SITECUSTOMIZE)
    env = child_env()
    return {"TILESCOPE_CONFORMANCE_BOOT": "1", "PYTHONPATH": os.pathsep.join([site, env["PYTHONPATH"]])}


def _run_chunk(copy_dir: str, files: List[str], select: str, index: int, timeout_per_test: float,
               extra_env: dict) -> list:
    out = os.path.join(copy_dir, f".results-{select}-{index}.json")
    args = ["-m", "pytest", "-p", "conformance.pytest_plugin", "-p", "no:cacheprovider", "-q",
            "--rootdir", copy_dir, "-c", os.path.join(copy_dir, "pytest.ini"),
            f"--conformance-select={select}", f"--conformance-results={out}",
            f"--conformance-timeout={timeout_per_test}", "-o", "console_output_style=classic",
            "--continue-on-collection-errors"] + files
    proc = run_child(args, timeout=CHUNK_TIMEOUT, cwd=copy_dir, env=child_env(extra_env))
    if os.path.exists(out):
        with open(out) as f:
            return json.load(f)
    return [{"nodeid": f"{files[0]}::<chunk {index}>", "outcome": "error", "when": "run", "negative": False,
             "text": (proc.stdout + proc.stderr)[-4000:]}]


def to_result(entry: dict, kind: str) -> Result:
    nodeid = entry["nodeid"]
    file = "test/" + nodeid.split("::")[0]
    case = nodeid.split("::", 1)[1] if "::" in nodeid else nodeid
    outcome, text = entry["outcome"], entry["text"]
    if outcome == "passed":
        return Result(kind, file, case, "passed")
    if outcome == "skipped":
        reason = text.replace("Skipped: ", "", 1)
        if reason.startswith("GPU-only"):
            return Result(kind, file, case, "skipped", "GPU-only feature", reason)
        if reason.startswith("not applicable"):
            return Result(kind, file, case, "skipped", "not applicable (upstream internals)", reason)
        return Result(kind, file, case, "skipped", "skipped by upstream's own condition", reason)
    if re.search(NOT_APPLICABLE_FAILURE, text):
        # pytest.raises(<upstream-internal exception>) or mocks of upstream's compiler entry
        return Result(kind, file, case, "skipped", "not applicable (upstream internals)",
                      "not applicable: asserts on upstream internals (internal exception class / compile_tile mock)")
    category, detail = categorize(text)
    if "HarnessTimeout" in text:
        category = "timeout (CPU too slow at the test's sizes)"
    return Result(kind, file, case, "failed" if outcome == "failed" else "error", category, detail)


def run(upstream: str, select: str = "all", jobs: int = 1, files: Optional[List[str]] = None,
        timeout_per_test: float = 120.0) -> List[Result]:
    """select: 'value' (value tests), 'negative' (pytest.raises(Tile…Error)) or 'all'."""
    files = files or test_files(upstream)
    with tempfile.TemporaryDirectory(prefix="tilescope-conformance-") as work:
        copy_dir = prepare_copy(upstream, work)
        facts = os.path.join(work, "upstream_facts.json")
        from . import upstream_facts
        extra_env = {upstream_facts.ENV: facts} if upstream_facts.compute(facts) else {}
        extra_env.update(_site_hook(work))
        jobs = max(1, min(jobs, len(files)))
        chunks = [files[i::jobs] for i in range(jobs)]
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            parts = list(pool.map(lambda ic: _run_chunk(copy_dir, ic[1], select, ic[0], timeout_per_test,
                                                         extra_env),
                                  enumerate(chunks)))
    results = []
    for part in parts:
        for entry in part:
            kind = "negative" if entry.get("negative") else "tests"
            results.append(to_result(entry, kind))
    return results
