"""`cuda.tile.compilation` (AOT bytecode from any OS, upstream's symbol names) and
`cuda.tile.tune` on the CPU (every configuration checked, deterministic pick)."""
import io
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import tilescope.lang as ct
from tilescope.backends.tileir import read_bytecode
from tilescope.lang import compilation as C
from tilescope.lang import tune
from tilescope.lang.shim import load_file, upstream_available

K = load_file(os.path.join(os.path.dirname(__file__), "kernels_aot.py"), "_tilescope_test_kernels_aot")
V1 = C.CallingConvention.cutile_python_v1()


def array(dtype=ct.float32, ndim=1, **facts):
    facts.setdefault("index_dtype", ct.int32)
    facts.setdefault("stride_lower_bound_incl", 0)
    facts.setdefault("alias_groups", ())
    facts.setdefault("may_alias_internally", False)
    return C.ArrayConstraint(dtype, ndim, **facts)


SIGNATURES = [
    [array(), array(), array(), C.ScalarConstraint(ct.float32), 256],
    [array(ct.float16, stride_constant=(1,), shape_divisible_by=16), array(ct.float16, alias_groups=("g",)),
     array(ct.float16, alias_groups=("g",), index_dtype=ct.int64), C.ScalarConstraint(ct.float32), 1024],
    [array(ct.bfloat16, base_addr_divisible_by=16, stride_lower_bound_incl=None), array(ct.bfloat16),
     array(ct.bfloat16, may_alias_internally=True), C.ScalarConstraint(ct.float32), 64],
]


def test_export_kernel_writes_bytecode_for_every_signature():
    out = io.BytesIO()
    variants = [SIGNATURES[0], [array(stride_constant=(1,), shape_divisible_by=16), array(alias_groups=("g",)),
                                array(alias_groups=("g",), index_dtype=ct.int64), C.ScalarConstraint(ct.float32), 64]]
    sigs = [C.KernelSignature(p, V1).with_mangled_symbol("axpy") for p in variants]
    C.export_kernel(K.axpy, sigs, out, output_format="tileir_bytecode", bytecode_version="13.3")
    module = read_bytecode(out.getvalue())
    assert [f.name for f in module.funcs if f.entry] == [s.symbol for s in sigs]


def test_export_kernel_to_a_file_and_its_errors(tmp_path):
    path = tmp_path / "axpy.tilebc"
    C.export_kernel(K.axpy, [C.KernelSignature(SIGNATURES[0], V1)], str(path), output_format="tileir_bytecode")
    assert read_bytecode(path.read_bytes()).funcs
    with pytest.raises(ValueError, match="gpu_code is required"):
        C.export_kernel(K.axpy, [C.KernelSignature(SIGNATURES[0], V1)], str(path), output_format="cubin")
    with pytest.raises(ValueError, match="Unknown output format 'ptx'"):
        C.export_kernel(K.axpy, [C.KernelSignature(SIGNATURES[0], V1)], str(path), output_format="ptx")


def test_a_signature_that_does_not_fit_the_kernel_is_a_located_error():
    bad = C.KernelSignature([array(), array(), array(ct.float16), C.ScalarConstraint(ct.float32), 256], V1)
    with pytest.raises(ct.TileTypeError, match="float16"):
        C.export_kernel(K.axpy, [bad], io.BytesIO(), output_format="tileir_bytecode")


def test_constraints_validate_as_upstream_does():
    with pytest.raises(ValueError, match="`index_dtype` must be int32 or int64"):
        array(index_dtype=ct.int16)
    with pytest.raises(TypeError, match="`alias_groups` cannot be a string"):
        array(alias_groups="g")
    with pytest.raises(ValueError, match="`base_addr_divisible_by` must be strictly positive"):
        array(base_addr_divisible_by=0)
    assert array(stride_constant=(1,), stride_divisible_by=4).stride_divisible_by == (1,)


def test_from_kernel_args_needs_no_gpu():
    x = np.zeros(512, np.float32)
    sig = C.KernelSignature.from_kernel_args(K.axpy, (x, x, x, 2.0, 128), V1)
    assert sig.parameters[-1] == C.ConstantConstraint(128)
    assert sig.parameters[3] == C.ScalarConstraint(ct.float32)
    assert sig.symbol.startswith("axpy_Kt1_A1f32")


def test_demangle_inverts_mangle():
    for params in SIGNATURES:
        sig = C.KernelSignature(params, V1)
        symbol = C.mangle_kernel_name("axpy", sig)
        name, back = C.demangle_kernel_name(symbol)
        assert name == "axpy" and C.mangle_kernel_name("axpy", back) == symbol


@pytest.mark.skipif(not upstream_available(), reason="upstream cuda-tile (the oracle) is not installed")
def test_symbols_agree_with_upstream():
    ours = [C.mangle_kernel_name("axpy", C.KernelSignature(p, V1)) for p in SIGNATURES]
    code = r"""
import json, cuda.tile as ct
from cuda.tile.compilation import ArrayConstraint as A, ScalarConstraint as S, KernelSignature, CallingConvention
from cuda.tile.compilation import mangle_kernel_name
def a(dtype=ct.float32, **f):
    f.setdefault("index_dtype", ct.int32); f.setdefault("stride_lower_bound_incl", 0)
    f.setdefault("alias_groups", ()); f.setdefault("may_alias_internally", False)
    return A(dtype, 1, **f)
sigs = [[a(), a(), a(), S(ct.float32), 256],
        [a(ct.float16, stride_constant=(1,), shape_divisible_by=16), a(ct.float16, alias_groups=("g",)),
         a(ct.float16, alias_groups=("g",), index_dtype=ct.int64), S(ct.float32), 1024],
        [a(ct.bfloat16, base_addr_divisible_by=16, stride_lower_bound_incl=None), a(ct.bfloat16),
         a(ct.bfloat16, may_alias_internally=True), S(ct.float32), 64]]
cc = CallingConvention.cutile_python_v1()
print(json.dumps([mangle_kernel_name("axpy", KernelSignature(p, cc)) for p in sigs]))
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert ours == json.loads(proc.stdout.strip().splitlines()[-1])


# ---- tune ------------------------------------------------------------------------------------

def test_exhaustive_search_checks_every_config_and_picks_the_first_clean_one(capsys):
    x = np.random.default_rng(0).standard_normal((64, 100)).astype(np.float32)
    outs = {}

    def args(cfg):
        outs[cfg] = np.zeros(64, np.float32)
        return (x, outs[cfg], cfg[0], cfg[1])

    space = [(16, 32), (32, 64), (64, 16), (8, 128)]
    result = tune.exhaustive_search(space, None, lambda cfg: (64 // cfg[0],), K.row_sums, args)
    assert result.best.config == (16, 32)
    assert [m.config for m in result.successes] == space and result.failures == []
    for cfg in space:
        np.testing.assert_allclose(outs[cfg], x.sum(axis=1), rtol=1e-5, atol=1e-4)
    printed = capsys.readouterr().out
    assert "4 of 4 configurations ran cleanly and agree; picked the first, (16, 32)" in printed
    assert "4 succeeded, 0 failed" in str(result)


def test_exhaustive_search_reports_configs_that_fail_or_disagree():
    x = np.arange(256, dtype=np.float32)

    def args(cfg):
        return (x, np.zeros(1, np.float32), cfg)

    # One block sees all of x (correct); several blocks race on out[0] (reported, and results differ).
    result = tune.exhaustive_search([256, 64], None, lambda t: (256 // t,), K.racy_sum, args, quiet=True)
    assert result.best.config == 256
    (cfg, err, msg), = result.failures
    assert cfg == 64 and err.__name__ == "CheckFailed" and "race" in msg, msg
    with pytest.raises(ValueError, match="Search space is empty"):
        tune.exhaustive_search([], None, lambda t: (1,), K.racy_sum, args)


def test_a_config_whose_results_disagree_is_a_failure():
    x = np.ones((16, 96), np.float32)

    def args(cfg):
        return (x, np.zeros(16, np.float32), 16, cfg)

    # 96 = 3 x 32: all elements summed; 96 // 64 = 1 tile: a third of each row forgotten.
    result = tune.exhaustive_search([32, 64], None, lambda t: (1,), K.row_sums_floor, args, quiet=True)
    assert result.best.config == 32
    (cfg, err, msg), = result.failures
    assert cfg == 64 and err.__name__ == "ResultsDisagree" and "argument #1 differs" in msg, msg


def test_jax_module_without_jax_says_what_is_missing():
    from tilescope.lang import jax as ctjax
    if ctjax.HAS_JAX:
        pytest.skip("JAX is installed")
    with pytest.raises(ImportError, match="needs JAX"):
        ctjax.cutile_call((1,), K.axpy, ())
