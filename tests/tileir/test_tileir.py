"""TileIR backend: text printer, bytecode writer/reader round trips, and NVIDIA's tools.

The tileiras/tileirdisasm tests run when the toolchain is found (pip install
"cuda-tile[tileiras]==1.7.0", or TILESCOPE_CUDA_BIN=<dir with tileiras>); otherwise they
are skipped with that reason.
"""
import json
import textwrap

import pytest

import tilescope
from tests.oracle.corpus import CORPUS_DIR, load_corpus
from tilescope.backends.tileir import (ToolchainError, find_toolchain, lower_function, normalize_names,
                                       print_module, read_bytecode, write_bytecode)
from tilescope.backends.tileir import toolchain as tc_mod
from tilescope.errors import TileError, TileUnsupportedFeatureError
from tilescope.lang.shim import load_file

RESULTS = json.loads((CORPUS_DIR / "upstream_results.json").read_text())["cases"]
ACCEPTED = [c for c in load_corpus() if RESULTS[c.key]["accepted"]]
REALISTIC = [c for c in ACCEPTED if c.key.startswith("realistic/")]
VERSIONS = ("13.1", "13.2", "13.3", "13.4")
_modules = {}
TOOLCHAIN = find_toolchain(required=False)
needs_toolchain = pytest.mark.skipif(TOOLCHAIN is None, reason="tileiras not found: pip install "
                                     "\"cuda-tile[tileiras]==1.7.0\" or set TILESCOPE_CUDA_BIN")


def lowered(case):
    if case.path not in _modules:
        _modules[case.path] = load_file(str(case.path))
    compiled = tilescope.compile(getattr(_modules[case.path], case.kernel), case.args)
    return lower_function(compiled.final)


def expected_text(module, version):
    """What a module reads back as: entry hints need bytecode 13.3, so older versions drop them."""
    if version in ("13.1", "13.2"):
        for f in module.funcs:
            f.hints = None
    return print_module(module)


def lowered_or_skip(case):
    try:
        return lowered(case)
    except TileUnsupportedFeatureError as e:
        pytest.skip(f"not lowered yet: {e.message}")


VADD = textwrap.dedent("""\
    entry @vector_add_Kt1_A1f32_1l0_A1f32_1l0_A1f32_1l0_I1024(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<f32>>, %arg7: tile<i32>, %arg8: tile<i32>) optimization_hints=<default = {}> {
      %0 = make_token : token
      %1 = assume bounded<0, ?>, %arg1 : tile<i32>
      %2 = assume bounded<0, ?>, %arg2 : tile<i32>
      %3 = make_tensor_view %arg0, shape = [%1], strides = [%2] : tile<i32> -> tensor_view<?xf32, strides=[?]>
      %4 = assume bounded<0, ?>, %arg4 : tile<i32>
      %5 = assume bounded<0, ?>, %arg5 : tile<i32>
      %6 = make_tensor_view %arg3, shape = [%4], strides = [%5] : tile<i32> -> tensor_view<?xf32, strides=[?]>
      %7 = assume bounded<0, ?>, %arg7 : tile<i32>
      %8 = assume bounded<0, ?>, %arg8 : tile<i32>
      %9 = make_tensor_view %arg6, shape = [%7], strides = [%8] : tile<i32> -> tensor_view<?xf32, strides=[?]>
      %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
      %10 = make_partition_view %3 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[?]>>
      %tile, %result_token = load_view_tko weak %10[%blockId_x] token = %0 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[?]>>, tile<i32> -> tile<1024xf32>, token
      %11 = make_partition_view %6 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[?]>>
      %tile_1, %result_token_1 = load_view_tko weak %11[%blockId_x] token = %0 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[?]>>, tile<i32> -> tile<1024xf32>, token
      %12 = addf %tile, %tile_1  : tile<1024xf32>
      %13 = make_partition_view %9 : partition_view<tile=(1024), tensor_view<?xf32, strides=[?]>>
      %14 = store_view_tko weak %12, %13[%blockId_x] token = %0 : tile<1024xf32>, partition_view<tile=(1024), tensor_view<?xf32, strides=[?]>>, tile<i32> -> token
      return
    }
    """)


def _kernel(tmp_path, source, args, name="k"):
    path = tmp_path / "kern.py"
    path.write_text("import cuda.tile as ct\n" + textwrap.dedent(source))
    mod = load_file(str(path))
    return tilescope.compile(getattr(mod, name), args)


# ---- text printer ---------------------------------------------------------------------

def test_vector_add_golden():
    case = next(c for c in REALISTIC if "vector_add::f32" in c.key)
    assert print_module(lowered(case)) == VADD


def test_compiled_tileir_text_matches_module():
    case = next(c for c in REALISTIC if "vector_add::f32" in c.key)
    compiled = tilescope.compile(getattr(load_file(str(case.path)), case.kernel), case.args)
    assert compiled.tileir_text() == VADD


def test_for_loop_reduce_and_fma(tmp_path):
    c = _kernel(tmp_path, """
        @ct.kernel
        def k(x, y, T: ct.Constant[int]):
            acc = ct.zeros((T,), dtype=ct.float32)
            for j in range(ct.cdiv(x.shape[0], T)):
                t = ct.load(x, index=(j,), shape=(T,), padding_mode=ct.PaddingMode.ZERO)
                acc = acc + t * t
            ct.store(y, index=(0,), tile=ct.sum(acc, axis=0, keepdims=True))
        """, "f32[?], f32[?], 64")
    text = c.tileir_text()
    assert "divi %1, %" in text and "signed rounding<positive_inf>" in text
    assert "iter_values(%iterArg0 = " in text and "-> (tile<64xf32>) {" in text
    assert "fma %tile, %tile, %iterArg0  : tile<64xf32>" in text
    assert "continue %" in text
    assert " dim=0 identities=[0.000000e+00 : f32] : tile<64xf32> -> tile<f32> \n" in text
    assert "(%arg: tile<f32>, %arg_1: tile<f32>) {" in text


def test_while_if_break_and_argmax(tmp_path):
    c = _kernel(tmp_path, """
        @ct.kernel
        def k(x, y, n: int):
            i = 0
            while i < n:
                i += 1
            t = ct.load(x, index=(0,), shape=(16,))
            ct.store(y, index=(0,), tile=ct.argmax(t, axis=0) + i)
        """, "f32[16], i32[1], i32")
    text = c.tileir_text()
    assert "loop iter_values(%arg = " in text
    assert "break %" in text
    assert "} else {" in text
    assert "identities=[0xFF800000 : f32, 0 : i32]" in text


def test_unsupported_feature_is_located(tmp_path):
    with pytest.raises(TileUnsupportedFeatureError) as info:
        _kernel(tmp_path, """
            @ct.kernel
            def k(x):
                for i in range(4):
                    if i == 2:
                        break
                ct.store(x, index=(0,), tile=ct.full((4,), 1.0, ct.float32))
            """, "f32[4]").tileir_text()
    assert info.value.loc is not None and info.value.loc.line == 5   # the `for` (line 1 is the import)
    assert "'break' or 'return' inside a 'for' loop" in info.value.message


def test_normalize_names_scopes_reused_names():
    a = "%a = x\n  %b = y %a\n%c = z %a\n"
    b = "%0 = x\n  %1 = y %0\n%1 = z %0\n"
    assert normalize_names(a) == normalize_names(b)


# ---- bytecode round trips (our writer -> our reader -> printer) ---------------------------

@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("case", ACCEPTED, ids=[c.key for c in ACCEPTED])
def test_bytecode_round_trip(case, version):
    from tilescope.backends.tileir.bytecode import BytecodeError
    module = lowered_or_skip(case)
    try:
        data = write_bytecode(module, version)
    except BytecodeError as e:
        pytest.skip(f"not representable in bytecode {version}: {e}")
    text = expected_text(module, version)
    back = print_module(read_bytecode(data))
    assert normalize_names(back) == normalize_names(text)


def test_bytecode_header_and_bad_version():
    from tilescope.backends.tileir.bytecode import BytecodeError
    module = lowered(REALISTIC[0])
    data = write_bytecode(module, "13.4")
    assert data[:8] == b"\x7fTileIR\x00" and data[8:10] == bytes([13, 4])
    with pytest.raises(BytecodeError, match="unsupported TileIR bytecode version 13.9"):
        write_bytecode(module, "13.9")


# ---- NVIDIA's tools ------------------------------------------------------------------------

@needs_toolchain
@pytest.mark.parametrize("version", ("13.1", "13.3", "13.4"))
@pytest.mark.parametrize("case", REALISTIC, ids=[c.key for c in REALISTIC])
def test_tileirdisasm_equals_printer(case, version):
    module = lowered(case)
    shown = TOOLCHAIN.disassemble(write_bytecode(module, version))
    assert normalize_names(shown) == normalize_names(expected_text(module, version))


@needs_toolchain
@pytest.mark.parametrize("gpu", ("sm_90", "sm_100"))
@pytest.mark.parametrize("case", REALISTIC, ids=[c.key for c in REALISTIC])
def test_tileiras_compiles_realistic(case, gpu):
    cubin = TOOLCHAIN.assemble(write_bytecode(lowered(case), "13.3"), gpu)
    assert cubin[:4] == b"\x7fELF"


def test_missing_toolchain_is_one_line(monkeypatch, tmp_path):
    monkeypatch.setattr(tc_mod, "_candidate_dirs", lambda: [str(tmp_path)])
    with pytest.raises(ToolchainError) as info:
        find_toolchain()
    msg = str(info.value)
    assert "\n" not in msg and 'pip install "cuda-tile[tileiras]==1.7.0"' in msg
