"""A ct.full/zeros/ones of a constant is one splat `constant` of the whole shape in the TileIR, as
upstream writes it; a constant operand splat to a tile's shape (`t + 1`) stays a scalar constant,
reshaped and broadcast, as upstream writes that."""
import re
from pathlib import Path

import pytest

import tilescope
from tilescope.backends.tileir import find_toolchain, write_bytecode
from tilescope.lang.shim import load_file, upstream_available

KERNELS = Path(__file__).with_name("kernels_splat.py")
MOD = load_file(str(KERNELS))
SPEC = {"zeros_plus_load": "f32[64], f32[64]", "full_plus_one": "f32[64]", "ones_one_element": "f32[1]"}
TOOLCHAIN = find_toolchain(required=False)


def _text(name):
    return tilescope.compile(getattr(MOD, name), SPEC[name]).tileir_text()


def test_zeros_is_one_splat_constant():
    text = _text("zeros_plus_load")
    assert re.search(r"constant <f32: 0\.0+e\+00> : tile<64xf32>", text)
    assert "broadcast" not in text


def test_constant_operand_is_broadcast_but_the_creation_is_not():
    text = _text("full_plus_one")
    assert re.search(r"constant <f32: 5\.0+e-01> : tile<64xf32>", text)
    assert re.search(r"constant <f32: 1\.0+e\+00> : tile<f32>", text)
    assert text.count("broadcast ") == 1 and text.count("reshape ") == 1


def test_a_one_element_creation_needs_no_reshape():
    text = _text("ones_one_element")
    assert re.search(r"constant <f32: 1\.0+e\+00> : tile<1xf32>", text) and "reshape" not in text


@pytest.mark.skipif(TOOLCHAIN is None or not upstream_available(), reason="needs tileiras and cuda-tile")
def test_same_tileir_as_upstream(tmp_path):
    from tests.oracle.upstream_export import export_spec

    paths = export_spec("splat", KERNELS, SPEC, "13.4", str(tmp_path))
    for kernel, path in paths.items():
        theirs = TOOLCHAIN.disassemble(Path(path).read_bytes())
        ours = TOOLCHAIN.disassemble(write_bytecode(tilescope.compile(getattr(MOD, kernel), SPEC[kernel]).tileir_module(),
                                                    "13.4"))
        assert _ops(ours) == _ops(theirs), kernel      # the same ops and types, in any order


def _ops(text):
    return sorted(re.sub(r"%[\w#]+", "%v", line.strip()) for line in text.splitlines() if line.strip())
