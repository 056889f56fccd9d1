"""Every public name of upstream cuda-tile 1.7.0 (and the private names public code imports)
resolves under tilescope's `cuda.tile`, and error messages speak of `cuda.tile`."""
import importlib
import json
import subprocess
import sys

import pytest

from tilescope.lang.shim import active, upstream_available

PUBLIC_MODULES = ("cuda.tile", "cuda.tile.tune", "cuda.tile.compilation", "cuda.tile.jax")

# Private names seen imported by public cuTile code (kernel libraries, test suites).
PRIVATE_NAMES = {
    "cuda.tile._numeric_semantics": ["RoundingMode", "PaddingMode"],
    "cuda.tile._memory_model": ["MemoryOrder", "MemoryScope"],
    "cuda.tile._datatype": ["DType", "float8_e8m0fnu", "float4_e2m1fn", "is_integral", "is_float",
                            "is_restricted_float", "is_boolean", "is_signed", "bool_", "uint8", "int32",
                            "float16", "bfloat16"],
    "cuda.tile._exception": ["TileTypeError", "TileUnsupportedFeatureError", "TileCompilerExecutionError",
                             "TypeCheckingError", "InvalidValueError"],
    "cuda.tile._cext": ["get_compute_capability", "dev_features_enabled", "CallingConvention", "launch",
                        "cconv_v3_enabled", "_get_max_grid_size"],
    "cuda.tile._compile": ["_get_max_supported_bytecode_version", "get_sm_arch"],
    "cuda.tile._bytecode.version": ["BytecodeVersion"],
    "cuda.tile._stub": ["mma_scaled", "load", "Constant"],
    "cuda.tile._execution": ["kernel", "function"],
}


@pytest.fixture(scope="module")
def upstream_names():
    if not upstream_available():
        pytest.skip("upstream cuda-tile (the oracle) is not installed")
    code = ("import json, warnings, importlib; warnings.simplefilter('ignore'); out = {}\n"
            f"for m in {PUBLIC_MODULES!r}:\n"
            "    out[m] = list(importlib.import_module(m).__all__)\n"
            "print(json.dumps(out))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_every_upstream_public_name_resolves(upstream_names):
    assert sum(len(v) for v in upstream_names.values()) > 150
    missing = []
    with active():
        for module, names in upstream_names.items():
            mod = importlib.import_module(module)
            missing += [f"{module}.{n}" for n in names if not hasattr(mod, n)]
        import cuda.tile as ct
        assert ct.tune is importlib.import_module("cuda.tile.tune")
        assert ct.compilation is importlib.import_module("cuda.tile.compilation")
    assert missing == []


@pytest.mark.parametrize("module", sorted(PRIVATE_NAMES))
def test_private_names_public_code_imports(module):
    with active():
        mod = importlib.import_module(module)
        for name in PRIVATE_NAMES[module]:
            assert getattr(mod, name) is not None, f"{module}.{name}"
        import cuda.tile as ct
        if module == "cuda.tile._numeric_semantics":
            assert mod.RoundingMode is ct.RoundingMode
        if module == "cuda.tile._stub":
            assert mod.mma_scaled is ct.mma_scaled
        if module == "cuda.tile._cext":
            assert mod.get_compute_capability() == (9, 0)


def test_other_private_modules_are_a_clear_import_error():
    with active():
        with pytest.raises(ModuleNotFoundError, match="No module named 'cuda.tile._ir': tilescope provides"):
            importlib.import_module("cuda.tile._ir.ops")


def test_errors_say_cuda_tile():
    with active():
        import cuda.tile as ct
        with pytest.raises(AttributeError, match="module 'cuda.tile' has no attribute 'no_such_op'"):
            ct.no_such_op
        with pytest.raises(TypeError, match=r"Use cuda\.tile\.launch\(\)"):
            ct.kernel(lambda: None)()
