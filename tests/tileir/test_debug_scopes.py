"""Ops inlined from a helper function are located inside that helper, as upstream's debug info
has them: one subprogram per inlining (`name@file-stem:line:col_sN`, N counting inlinings in
order), the op's location in it, wrapped in its call site. With `--lineinfo` (upstream's launch
flag) this reaches the cubin, so it decides whether the cubins are byte-identical."""
import re
import subprocess
from pathlib import Path

import pytest

import tilescope
from tilescope.backends.tileir import find_toolchain, write_bytecode
from tilescope.lang.shim import load_file, upstream_available

KERNELS = Path(__file__).with_name("kernels_scopes.py")
MOD = load_file(str(KERNELS))
SPEC = {"nested_helpers": "i32[]", "module_helper": "f32[16], f32[16]", "repeated_helper": "f32[16], f32[16]"}
TOOLCHAIN = find_toolchain(required=False)


def _compiled(name):
    return tilescope.compile(getattr(MOD, name), SPEC[name], tileiras_version="13.4")


def _chain(loc):
    out = []
    while loc is not None:
        out.append(loc.scope.name if loc.scope is not None else "<kernel>")
        loc = loc.call_site
    return out


def test_inlined_ops_carry_their_helper_and_call_site():
    fn = _compiled("nested_helpers").final
    chains = {tuple(_chain(op.loc)) for op in fn.walk() if op.loc is not None}
    assert ("g", "f", "<kernel>") in chains          # y * 2 + k: in g, called from f, called from the kernel
    assert ("f", "<kernel>") in chains               # + 100
    scopes = {op.loc.scope.name: op.loc.scope for op in fn.walk() if op.loc is not None and op.loc.scope}
    # numbered in inlining order: make (s0, emits nothing), f (s1), g (s2)
    assert (scopes["f"].specialization, scopes["g"].specialization) == ("s1", "s2")
    assert (scopes["g"].line, scopes["g"].col) == (12, 9)


def test_a_module_level_helper_starts_at_its_decorator():
    fn = _compiled("module_helper").final
    scope = next(op.loc.scope for op in fn.walk() if op.loc is not None and op.loc.scope is not None)
    assert (scope.name, scope.line, scope.col, scope.specialization) == ("doubled", 4, 1, "s0")


@pytest.mark.skipif(TOOLCHAIN is None, reason="tileiras not found")
def test_debug_info_names_each_inlining(tmp_path):
    path = tmp_path / "k.tilebc"
    path.write_bytes(write_bytecode(_compiled("nested_helpers").tileir_module(), "13.4"))
    text = subprocess.run([TOOLCHAIN.tileirdisasm, "--print-debug-info", str(path)], capture_output=True,
                          text=True, check=True).stdout
    names = re.findall(r'name = "(\w+)", linkageName = "([^"]+)"', text)
    assert ("f", "f@kernels_scopes:15:9_s1") in names and ("g", "g@kernels_scopes:12:9_s2") in names
    sites = dict(re.findall(r"(#loc\d+) = loc\(callsite\(#loc\d+ at (#loc\d+)\)\)", text))
    assert any(caller in sites for caller in sites.values())     # g's ops: at f's call, itself at the kernel's


@pytest.mark.skipif(TOOLCHAIN is None or not upstream_available(), reason="needs tileiras and cuda-tile")
@pytest.mark.parametrize("name", ["module_helper", "repeated_helper"])
def test_byte_identical_cubin_to_upstreams(name, tmp_path):
    from dataclasses import dataclass

    from tests.oracle.upstream_export import export_bytecode

    @dataclass
    class Case:
        kernel: str
        path = KERNELS
        key = f"scopes::{name}"
        args = SPEC[name]
    paths = export_bytecode([Case(name)], "13.4", str(tmp_path))
    theirs = Path(paths[f"scopes::{name}"]).read_bytes()
    ours = write_bytecode(_compiled(name).tileir_module(), "13.4")
    assert TOOLCHAIN.assemble(ours, "sm_90") == TOOLCHAIN.assemble(theirs, "sm_90")
