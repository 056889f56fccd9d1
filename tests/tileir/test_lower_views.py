"""TileIR lowering of every primitive: slices, tiled and strided views, raw memory, lists of arrays,
advanced indexing, insert, byte packing, grid-dependency control, arrays joined by `if`.

Each case is a corpus kernel: tilescope's bytecode must read back as its printer says (tileirdisasm),
assemble for sm_90, and give the same code in its sm_90 cubin as upstream cuTile's bytecode for the
same signature (through the same tileiras, -O3 --lineinfo; debug sections aside).
"""
import json

import pytest

import tilescope
from tests.oracle.corpus import CORPUS_DIR, load_corpus
from tilescope.backends.tileir import find_toolchain, normalize_names, print_module, write_bytecode
from tilescope.gpu.cubin import same_code
from tilescope.lang.shim import load_file, upstream_available
from tilescope.ops import load_all
from tilescope.ops.registry import PRIMITIVES

TOOLCHAIN = find_toolchain(required=False)
needs_toolchain = pytest.mark.skipif(TOOLCHAIN is None, reason="tileiras not found")
needs_upstream = pytest.mark.skipif(not upstream_available(), reason="cuda-tile (the oracle) is not installed")

# a corpus kernel per primitive the lowering gained (key substrings)
CASES = {
    "array_slice": "views.py::slice_dynamic::",
    "array_slice (constant bounds)": "views.py::slice_negative_axis::",
    "tiled_view, tiled_load/store/num_tiles": "views.py::tiled_view_copy::",
    "tiled view with traversal steps (strided view)": "views.py::tiled_view_traversal::",
    "tiled_atomic": "atomics.py::tiled_view_atomic_store_int::",
    "raw_memory, raw_load, raw_store": "views.py::raw_memory_offsets::",
    "raw_atomic, raw_atomic_cas": "atomics_edges.py::raw_atomic_masked::",
    "list_item (run-time index)": "memory_edges.py::list_item_dynamic::",
    "list_item, list_len": "ranges_lists_dicts.py::list_loop_with_len::",
    "load_advanced": "gather_scatter.py::advanced_indexing_load::",
    "store_advanced": "gather_scatter.py::advanced_indexing_store::",
    "insert": "shape_ops.py::insert_fn_1d::",
    "pack_bytes, unpack_bytes": "shape_ops.py::pack_unpack_bytes::",
    "grid_control": "static_more.py::grid_dependency_wait_needs_13_4::",
    "arrays joined by if": "typeinfer.py::arrays_join_at_if::",
}
# cubins that differ from upstream's, and why (docs/gpu-validation.md, "The corpus")
NOT_IDENTICAL = {
    "tiled_view, tiled_load/store/num_tiles": "the loop over tiles ends with an explicit continue",
}
_corpus = {c.key: c for c in load_corpus()}


def _case(fragment):
    return next(c for k, c in _corpus.items() if fragment in k)


def _module(case):
    compiled = tilescope.compile(getattr(load_file(str(case.path)), case.kernel), case.args, tileiras_version="13.4")
    return compiled.tileir_module()


def test_every_primitive_has_a_tileir_rule():
    load_all()
    missing = sorted(name for name, prim in PRIMITIVES.items() if prim.status("tileir") is not None)
    assert missing == []


@pytest.mark.parametrize("what", list(CASES))
def test_lowers(what):
    module = _module(_case(CASES[what]))
    assert module.funcs and module.funcs[0].body.ops[-1].name == "return"


@needs_toolchain
@pytest.mark.parametrize("what", list(CASES))
def test_disassembly_equals_printer_and_assembles(what):
    module = _module(_case(CASES[what]))
    data = write_bytecode(module, "13.4")
    assert normalize_names(TOOLCHAIN.disassemble(data)) == normalize_names(print_module(module))
    assert TOOLCHAIN.assemble(data, "sm_90")[:4] == b"\x7fELF"


@pytest.fixture(scope="module")
def upstream_bytecode(tmp_path_factory):
    from tests.oracle.upstream_export import export_bytecode
    cases = [_case(f) for f in CASES.values()]
    return export_bytecode(cases, "13.4", str(tmp_path_factory.mktemp("upstream")))


@needs_toolchain
@needs_upstream
@pytest.mark.parametrize("what", [w for w in CASES if w not in NOT_IDENTICAL])
def test_same_cubin_as_upstream(what, upstream_bytecode):
    case = _case(CASES[what])
    path = upstream_bytecode[case.key]
    assert not path.startswith("error"), path
    with open(path, "rb") as f:
        theirs = TOOLCHAIN.assemble(f.read(), "sm_90")
    ours = TOOLCHAIN.assemble(write_bytecode(_module(case), "13.4"), "sm_90")
    assert same_code(ours, theirs)


def test_list_parameter_is_pointer_and_length():
    module = _module(_case(CASES["list_item (run-time index)"]))
    f = module.funcs[0]
    assert [str(p.type) for p in f.params[:2]] == ["tile<ptr<i64>>", "tile<i32>"]
    assert "_LA1f32_1l0_" in f.name
    text = print_module(module)
    assert "tensor_view<?x3xi64, strides=[3,1]>" in text and "partition_view<tile=(1x4)" in text
    assert "int_to_ptr" in text


def test_constant_slice_bounds_become_a_static_extent():
    text = print_module(_module(_case(CASES["array_slice (constant bounds)"])))
    assert "tensor_view<32x?xf16, strides=[?,?]>" in text


def test_strided_view_type():
    text = print_module(_module(_case(CASES["tiled view with traversal steps (strided view)"])))
    assert "make_strided_view" in text
    assert "strided_view<tile=(4x16), traversal_strides=[2,16], tensor_view<?x?xf32, strides=[?,?]>>" in text


def test_bytecode_versions_gate_new_ops():
    from tilescope.backends.tileir.bytecode import BytecodeError
    module = _module(_case(CASES["insert"]))
    with pytest.raises(BytecodeError, match="'insert' needs bytecode 13.4"):
        write_bytecode(module, "13.3")


def test_results_record_is_the_13_3_oracle():
    # the recorded verdicts gate insert at 13.3: these tests lower at 13.4, where upstream accepts it
    results = json.loads((CORPUS_DIR / "upstream_results.json").read_text())["cases"]
    rec = results[_case(CASES["insert"]).key]
    assert not rec["accepted"] and "requires tileiras 13.4" in rec["message"]


def test_unsigned_gather_indices_are_zero_extended():
    # a uint32 index past 2**31 is in bounds of a large array: widening it must not make it negative
    text = print_module(_module(_case("memory_edges.py::gather_unsigned_index_padding::")))
    assert "exti %tile unsigned : tile<64xi32> -> tile<64xi64>" in text
    assert "signed : tile<64xi32> -> tile<64xi64>" not in text.replace("unsigned : tile<64xi32>", "")
