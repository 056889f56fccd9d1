"""Adding a unary op takes one place: a function-table row (here in a test-only family).

`declare_unary(Fn(...))` is the whole family below. From that row alone the new `ct.sine`
gets its surface and typing (bool/int inputs become float32), constant folding, its CPU
rule (NumPy's float64 libm, rounded once), and its TileIR lowering; a transpiled module
says clearly that it carries only the rows of tilescope/semantics/functions.py.
"""
import math
import textwrap

import numpy as np
import pytest

import tilescope
from tilescope.errors import TileUnsupportedFeatureError
from tilescope.lang.shim import load_file
from tilescope.ops.registry import SURFACE
from tilescope.semantics.functions import TO_FLOAT, UNARY, Fn

KERNEL = """
import cuda.tile as ct


@ct.kernel
def k(x, y, T: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(T,))
    ct.store(y, index=(ct.bid(0),), tile=ct.sine(t) + ct.sine(0.5))
"""


@pytest.fixture
def sine_family():
    """The test-only family: the one row docs/architecture.md shows (the row a real family would
    write in semantics/functions.py)."""
    from tests.test_docs_architecture import unary_row_example
    from tilescope.ops.math import declare_unary
    row = eval(unary_row_example(), {"Fn": Fn, "math": math, "np": np, "TO_FLOAT": TO_FLOAT})
    declare_unary(row)
    yield
    del UNARY["sine"], SURFACE["sine"]
    tilescope.lang.__dict__.pop("sine", None)


@pytest.fixture
def kernel(sine_family, tmp_path):
    path = tmp_path / "sine_kernel.py"
    path.write_text(textwrap.dedent(KERNEL))
    return load_file(str(path)).k


def test_typing_and_folding(kernel):
    c = tilescope.compile(kernel, "i16[64], f32[64], 64")
    (op,) = [op for op in c.final.walk() if op.name == "unary"]
    assert op.attrs["fn"] == "sine" and op.operands[0].type.dtype.name == "float32"
    folded = [op.results[0].const for op in c.final.walk() if op.name == "const"]
    assert np.float32(math.sin(0.5)) in [np.float32(v) for v in folded]


def test_runs_on_the_cpu_as_sin_does(kernel):
    x = np.linspace(-4, 4, 64, dtype=np.float32)
    y = np.empty_like(x)
    tilescope.launch((2,), kernel, (x, y, 32))
    expect = (np.sin(x.astype(np.float64)).astype(np.float32) + np.float32(math.sin(0.5))).astype(np.float32)
    np.testing.assert_array_equal(y, expect)


def test_lowers_to_tileir(kernel):
    text = tilescope.compile(kernel, "f32[64], f32[64], 32").tileir_text()
    assert " sin " in text or "= sin" in text


def test_transpile_names_the_table_it_carries(kernel):
    from tilescope.backends.numpy.transpile import transpile
    with pytest.raises(TileUnsupportedFeatureError, match="semantics/functions.py"):
        transpile(tilescope.compile(kernel, "f32[64], f32[64], 32"))


def test_the_surface_exists_only_with_the_family(kernel):
    assert tilescope.lang.sine is SURFACE["sine"] and "sine" in dir(tilescope.lang)
