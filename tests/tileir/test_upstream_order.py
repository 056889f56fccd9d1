"""Upstream's op sequences where tilescope once wrote the same values otherwise (the TileIR text
reaches the cubin under `--lineinfo`, and a different order can change tileiras's schedule):
Python's float `r != 0` in a modulo is unordered, an unsigned modulo keeps the sign fix, a modulo
by a scalar constant folds the divisor's sign test, argmax/argmin tie two NaNs by index, a
multi-axis reduction goes smallest axis first, `astile` of run-time scalars concatenates halves,
gather/atomic indices are widened before they are broadcast and values shaped after the pointers,
a `for` that breaks carries a done flag, `a and b` yields `a` where it short-circuits, tuple `==`
ands every pair from True, a helper that returns early is one loop whose breaks return, a gather
always passes its padding, a tiled view's store indexed by the loop variable carries no token,
atomic_cas needs no select, float -> bool is an unsigned ftoi, arrays joined at an if pass only
what their type leaves open, an invariant loop moves out of a loop whole, and a for carries only
values that change and are read (tests/tileir/kernels_order.py)."""
import re
from pathlib import Path

import numpy as np
import pytest

import tilescope
from tilescope.backends.numpy import launcher
from tilescope.backends.tileir import find_toolchain, normalize_names
from tilescope.ir.core import clone_function
from tilescope.lang.shim import load_file, upstream_available
from tilescope.passes.for_break import lower_for_breaks
from tilescope.passes.loop_slots import prune_loop_slots
from tilescope.passes.loop_split import split_loops

KERNELS = Path(__file__).with_name("kernels_order.py")
MOD = load_file(str(KERNELS))
SPEC = {"float_mod": "f32[16], f32[16]", "unsigned_mod": "u8[16], u8[16]", "arg_best": "f32[8,16], i32[16]",
        "sum_two_axes": "f32[4,8,16], f32[8]", "tile_of_scalars": "i32[4], i32, i32",
        "for_with_break": "f32[128], f32[16], i32", "gather_broadcast": "f32[64,64], f32[16,16]",
        "atomic_broadcast": "i32[16,16]", "bool_chain": "f32[16], i32, i32, i32",
        "helper_returns_early": "f32[16], f32[16], b8", "scalar_gather": "i32[]",
        "tiled_copy": "f32[64,16], f32[64,16]", "cas_lock": "i32[1]",
        "float_to_bool": "f32[16], i32[16]", "scatter_converted_literal": "f64[16]",
        "array_join": "i32[?]:[1!], i32[?]:[1!]", "invariant_helper_in_loop": "f32[16], b8, i32",
        "carried_slots": "i32[2], i32", "tuple_compare": "i32[4]", "mod_by_constant": "i32[8], 8"}
TOOLCHAIN = find_toolchain(required=False)


def _text(name):
    return tilescope.compile(getattr(MOD, name), SPEC[name], tileiras_version="13.4").tileir_text()


def _ops(text, name):
    return [line.strip() for line in text.splitlines() if re.search(rf"= {name} |^\s*{name} ", line)]


def test_float_modulo_tests_the_remainder_unordered():
    ne = [c for c in _ops(_text("float_mod"), "cmpf") if "not_equal" in c]
    assert len(ne) == 1 and "unordered" in ne[0]


def test_unsigned_modulo_keeps_the_sign_fix():
    text = _text("unsigned_mod")
    assert len(_ops(text, "remi")) == 1 and len(_ops(text, "select")) == 1
    assert all("unsigned" in c for c in _ops(text, "cmpi"))


def test_arg_reductions_tie_two_nans():
    text = _text("arg_best")
    assert len(_ops(text, "xori")) == 0
    assert len(_ops(text, "cmpf")) == 2 * 5         # better, equal, two NaN tests, one not-NaN test


def test_axes_reduced_smallest_first():
    dims = [int(d) for d in re.findall(r"reduce .* dim=(\d+)", _text("sum_two_axes"))]
    assert dims == [0, 1]                           # axis 0, then axis 2 (now 1)


def test_astile_concatenates_halves():
    text = _text("tile_of_scalars")
    assert len(_ops(text, "cat")) == 3 and not _ops(text, "iota") and not _ops(text, "select")


@pytest.mark.parametrize("name", ["gather_broadcast", "atomic_broadcast"])
def test_indices_widened_before_broadcast(name):
    exts = _ops(_text(name), "exti")
    assert any("tile<16x1xi32> -> tile<16x1xi64>" in e for e in exts)
    assert any("tile<1x16xi32> -> tile<1x16xi64>" in e for e in exts)


def test_for_with_break_keeps_a_for():
    text = _text("for_with_break")
    assert "loop iter_values" not in text and len(re.findall(r"= for ", text)) == 2     # and split


@pytest.mark.parametrize("limit", [-1, 0, 2, 3, 5, 8, 12])
def test_done_flag_and_split_compute_the_same(limit, monkeypatch):
    x = np.random.RandomState(1).standard_normal(128).astype(np.float32)
    ref = np.zeros(16, np.float32)
    tilescope.launch((1,), MOD.for_with_break, (x, ref, limit))
    real = launcher.compile_for

    def rewritten(fn, specs):
        c = real(fn, specs)
        final = clone_function(c.final)
        lower_for_breaks(final)
        c.final = split_loops(final)
        return c
    monkeypatch.setattr(launcher, "compile_for", rewritten)
    got = np.zeros(16, np.float32)
    tilescope.launch((1,), MOD.for_with_break, (x, got, limit))
    assert got.tobytes() == ref.tobytes()


def test_short_circuit_yields_the_condition_and_nests_the_rest():
    c = tilescope.compile(MOD.bool_chain, SPEC["bool_chain"])
    ifs = [op for op in c.final.body.walk() if op.name == "if" and op.results and op.result.type.dtype.is_bool]
    assert len(ifs) == 3
    outer, inner, either = ifs
    assert inner in outer.blocks[0].ops                                 # a and (b and c)
    assert outer.blocks[1].ops[-1].operands[0] is outer.operands[0]     # else: yield a
    assert either.blocks[0].ops[-1].operands[0] is either.operands[0]   # or: then yield a


@pytest.mark.parametrize("abc", [(0, 1, 1), (1, 0, 1), (1, 1, 0), (1, 1, 1), (2, 0, 0), (0, 2, 0), (0, 0, 0)])
def test_short_circuit_values(abc):
    x = np.zeros(16, np.float32)
    tilescope.launch((1,), MOD.bool_chain, (x, *abc))
    a, b, c = abc
    want = (1.0 if a > 0 and b > 0 and c > 0 else 0.0) + (2.0 if a > 1 or b > 1 else 0.0)
    np.testing.assert_array_equal(x, np.full(16, want, np.float32))


def test_helper_returning_early_is_a_loop():
    c = tilescope.compile(MOD.helper_returns_early, SPEC["helper_returns_early"])
    loops = [op for op in c.final.body.walk() if op.name == "loop"]
    assert len(loops) == 1
    init = loops[0].operands[0]                  # the returned value starts undefined
    assert init.owner is not None and init.owner.name == "undef"
    assert sum(op.name == "break" for op in loops[0].blocks[0].walk()) == 2


@pytest.mark.parametrize("flag", [True, False])
def test_helper_returning_early_values(flag):
    x, y = np.arange(16, dtype=np.float32), np.full(16, 10.0, np.float32)
    want = x.copy() if flag else x + y
    tilescope.launch((1,), MOD.helper_returns_early, (x, y, flag))
    np.testing.assert_array_equal(x, want)


def test_scalar_gather_passes_its_padding():
    loads = _ops(_text("scalar_gather"), "load_ptr_tko")
    assert len(loads) == 1 and "tile<ptr<i32>>, tile<i32> ->" in loads[0]      # pointer and padding


def test_tiled_store_indexed_by_the_loop_variable_carries_no_token():
    assert "iter_values" not in _text("tiled_copy")


def test_atomic_cas_result_is_used_as_is():
    assert not _ops(_text("cas_lock"), "select")


def test_float_to_bool_is_an_unsigned_ftoi():
    text = _text("float_to_bool")
    assert [c.split(" : ")[1] for c in _ops(text, "ftoi")] == ["tile<16xf32> -> tile<16xi1>"]
    assert "unsigned" in _ops(text, "ftoi")[0] and not _ops(text, "cmpf")


def test_float_to_bool_values():
    x = np.array([0, 0.5, -0.5, 1, np.nan, np.inf, -np.inf, -0.0, 1e-30, 2, 3, 4, 5, 6, 7, 0], np.float32)
    out = np.zeros(16, np.int32)
    tilescope.launch((1,), MOD.float_to_bool, (x, out))
    np.testing.assert_array_equal(out, (x != 0).astype(np.int32))


def test_converted_literal_values_are_shaped_after_the_pointers():
    lines = [line.strip() for line in _text("scatter_converted_literal").splitlines()]
    offsets = [i for i, line in enumerate(lines) if " = offset " in line]
    made = [i for i, line in enumerate(lines) if "constant <f64" in line]
    assert len(offsets) == 2 and len(made) == 3
    assert offsets[0] < made[0] < offsets[1] < made[1] < made[2]     # 1.0, then 0.0 and 2.5, each after its pointers


def test_modulo_by_a_scalar_constant_folds_its_sign_test():
    text = _text("mod_by_constant")
    signed = [c for c in _ops(text, "cmpi") if "signed :" in c and "unsigned" not in c]
    assert len(signed) == 2 and "constant <i1: false>" in text     # r < 0, r != 0; (8 < 0) folded


def test_arrays_joined_at_an_if_pass_only_what_their_type_leaves_open():
    text = _text("array_join")
    yields = [line.strip() for line in text.splitlines() if line.strip().startswith("yield")]
    assert len(yields) == 2        # pointer and extent each; the unit stride is static
    assert all(y.endswith(": tile<ptr<i32>>, tile<i32>") for y in yields)


def test_an_invariant_loop_moves_out_of_a_loop_as_a_whole():
    lines = [line.strip() for line in _text("invariant_helper_in_loop").splitlines()]
    inner = next(i for i, line in enumerate(lines) if " = loop " in line)
    outer = next(i for i, line in enumerate(lines) if " = for " in line)
    assert inner < outer                    # the helper's loop reads nothing the for makes


def test_a_for_carries_only_what_changes_and_is_read():
    # a: read after the loop; b: only feeds itself (dead); c: passed on unchanged (its start)
    fors = [line for line in _text("carried_slots").splitlines() if " = for " in line]
    assert len(fors) == 1 and fors[0].count("= %") == 1             # one carried value: a


@pytest.mark.parametrize("n", [0, 1, 5])
def test_pruned_slots_compute_the_same(n, monkeypatch):
    ref = np.zeros(2, np.int32)
    tilescope.launch((1,), MOD.carried_slots, (ref, n))
    real = launcher.compile_for

    def pruned(fn, specs):
        c = real(fn, specs)
        final = clone_function(c.final)
        prune_loop_slots(final)
        c.final = final
        return c
    monkeypatch.setattr(launcher, "compile_for", pruned)
    got = np.zeros(2, np.int32)
    tilescope.launch((1,), MOD.carried_slots, (got, n))
    assert got.tolist() == ref.tolist() == [1 + n, 100]


def test_tuple_compare_ands_every_pair_from_true():
    # ((a, 1), b) == ((0, 1), 0): inner True & (a == 0) & True, outer True & inner & (b == 0);
    # `in` ors the comparisons in order
    text = _text("tuple_compare")
    assert len(_ops(text, "andi")) == 4 and len(_ops(text, "ori")) == 2


@pytest.mark.skipif(TOOLCHAIN is None or not upstream_available(), reason="needs tileiras and cuda-tile")
def test_same_tileir_as_upstream(tmp_path):
    from tests.oracle.upstream_export import tileir_texts

    texts = tileir_texts(TOOLCHAIN, "order", MOD, KERNELS, SPEC, "13.4", str(tmp_path))
    for kernel, (ours, theirs) in texts.items():
        assert normalize_names(ours) == normalize_names(theirs), kernel
