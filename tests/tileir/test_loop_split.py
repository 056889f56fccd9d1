"""Upstream's loop split (passes/loop_split.py): a `for` whose body branches on its induction
variable becomes two loops without the branch, in the TileIR the backend writes; the CPU
executor's results are the same either way, and the cubin runs the same code as upstream's."""
import re
from pathlib import Path

import numpy as np
import pytest

import tilescope
from tilescope.backends.numpy import launcher
from tilescope.backends.tileir import find_toolchain, write_bytecode
from tilescope.gpu.cubin import same_code
from tilescope.ir.core import clone_function
from tilescope.lang.shim import load_file, upstream_available
from tilescope.passes.loop_split import split_loops

KERNELS = Path(__file__).with_name("kernels_split.py")
MOD = load_file(str(KERNELS))
SPEC = {"causal_rows": "f32[?], f32[?], i32, 64", "skip_after": "f32[?], f32[?], i32, 64",
        "bound_first": "f32[?], f32[?], i32, 64", "two_branches": "f32[?], f32[?], i32, i32, 64"}
TOOLCHAIN = find_toolchain(required=False)


def _fors(text):
    return len(re.findall(r"^\s*(?:%\S+ = )?for %", text, re.M))


def _ifs(text):
    return len(re.findall(r"^\s*(?:%\S+ = )?if %", text, re.M))


@pytest.mark.parametrize("name", ["causal_rows", "skip_after", "bound_first"])
def test_split_in_the_tileir(name):
    text = tilescope.compile(getattr(MOD, name), SPEC[name]).tileir_text()
    assert _fors(text) == 2 and _ifs(text) == 0
    assert "mini " in text and "maxi " in text


def test_two_conditions_keep_one_loop():
    text = tilescope.compile(MOD.two_branches, SPEC["two_branches"]).tileir_text()
    assert _fors(text) == 1 and _ifs(text) == 2


def test_the_executor_runs_the_ir_as_written():
    c = tilescope.compile(MOD.causal_rows, SPEC["causal_rows"])
    assert "if " in c.final_text()


@pytest.mark.parametrize("name", ["causal_rows", "skip_after", "bound_first"])
@pytest.mark.parametrize("bound", [-3, 0, 2, 5, 9])
def test_split_loops_compute_the_same(name, bound, monkeypatch):
    x = np.random.RandomState(0).standard_normal(8 * 64).astype(np.float32)
    ref = np.zeros(64, np.float32)
    tilescope.launch((1,), getattr(MOD, name), (x, ref, bound, 64))
    real = launcher.compile_for

    def split_compile(fn, specs):
        c = real(fn, specs)
        c.final = split_loops(clone_function(c.final))
        return c
    monkeypatch.setattr(launcher, "compile_for", split_compile)
    got = np.zeros(64, np.float32)
    tilescope.launch((1,), getattr(MOD, name), (x, got, bound, 64))
    assert got.tobytes() == ref.tobytes()


@pytest.mark.skipif(TOOLCHAIN is None or not upstream_available(), reason="needs tileiras and cuda-tile")
def test_same_code_as_upstream(tmp_path):
    from tests.oracle.upstream_export import export_spec

    paths = export_spec("split", KERNELS, SPEC, "13.4", str(tmp_path))
    for kernel, path in paths.items():
        theirs = TOOLCHAIN.assemble(Path(path).read_bytes(), "sm_90")
        ours = TOOLCHAIN.assemble(write_bytecode(tilescope.compile(getattr(MOD, kernel), SPEC[kernel]).tileir_module(),
                                                 "13.4"), "sm_90")
        assert same_code(ours, theirs), kernel
