"""The Tile methods cuTile writes in Python (`reshape`, `astype`, `permute`...) appear in debug info
inside cuTile's own `_stub.py`, inlined and numbered among the helpers as upstream numbers them."""
import subprocess

import pytest

import tilescope
from tilescope.backends.tileir import find_toolchain, write_bytecode
from tilescope.lang.shim import load_file, upstream_available
from tilescope.passes.infer import method_scopes

TOOLCHAIN = find_toolchain(required=False)
SPEC = {"methods": "f32[16,16], f32[16,16]"}
KERNEL = '''import cuda.tile as ct


@ct.function
def helper(t):
    return t + 1


@ct.kernel
def methods(x, y):
    t = ct.load(x, index=(0, 0), shape=(16, 16))
    a = t.reshape((256,)).reshape((16, 16))
    b = a.astype(ct.float16).astype(ct.float32)
    c = b.permute((1, 0)).transpose()
    d = helper(c)
    e = d[None].reshape((16, 16))
    ct.store(y, index=(0, 0), tile=e)
'''


def _debug_scopes(bytecode: bytes, tmp_path) -> list:
    path = tmp_path / "k.tilebc"
    path.write_bytes(bytecode)
    text = subprocess.run([TOOLCHAIN.tileirdisasm, "-g", str(path)], capture_output=True, text=True,
                          check=True).stdout
    return [line for line in text.splitlines() if line.startswith("#di_subprogram")]


def _ours(path):
    compiled = tilescope.compile(load_file(str(path)).methods, SPEC["methods"])
    return write_bytecode(compiled.tileir_module(), "13.4")


@pytest.mark.skipif(TOOLCHAIN is None or not upstream_available(), reason="needs tileiras and cuda-tile")
def test_method_scopes_as_upstream_writes_them(tmp_path):
    from tests.oracle.upstream_export import export_spec
    path = tmp_path / "methods_kernel.py"
    path.write_text(KERNEL)
    theirs = open(export_spec("ms", path, SPEC, "13.4", str(tmp_path))["methods"], "rb").read()
    ours = _debug_scopes(_ours(path), tmp_path)
    assert ours == _debug_scopes(theirs, tmp_path)
    # reshape, reshape, astype, astype, permute, transpose, then the helper as s6, then reshape
    # (`d[None]` is not a Python method of cuTile's: no scope)
    names = [line.split('name = "')[1].split('"')[0] for line in ours[1:]]
    assert names == ["reshape", "reshape", "astype", "astype", "permute", "transpose", "helper", "reshape"]
    assert "helper@methods_kernel:4:1_s6" in " ".join(ours)


def test_without_cuda_tile_ops_stay_in_the_users_code(tmp_path, monkeypatch):
    monkeypatch.setattr(method_scopes, "_stub_file", lambda: None)
    path = tmp_path / "methods_kernel.py"
    path.write_text(KERNEL)
    compiled = tilescope.compile(load_file(str(path)).methods, SPEC["methods"])
    for op in compiled.final.walk():
        assert op.loc is None or op.loc.debug is None


def test_stub_methods_read_from_source(tmp_path):
    stub = tmp_path / "_stub.py"
    stub.write_text("class Tile:\n    @property\n    def shape(self):\n        return 1\n\n"
                    "    def reshape(self, shape):\n        \"\"\"Doc.\"\"\"\n        return reshape(self, shape)\n\n"
                    "    def __add__(self, other):\n        return add(self, other)\n")
    assert method_scopes._python_methods(str(stub)) == {"reshape": (6, 5, 8, 16)}
