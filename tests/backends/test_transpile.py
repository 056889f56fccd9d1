"""`tilescope transpile`: the generated module is standalone (NumPy + ml_dtypes only), readable,
and gives the CPU executor's results bit for bit."""
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from tilescope.backends.numpy.launcher import run_kernel
from tilescope.backends.numpy.transpile import prelude_source, transpile_kernel
from tilescope.errors import TileUnsupportedFeatureError
from tilescope.lang.shim import load_file
from tests.backends import kernels_control as KC
from tests.backends import kernels_transpile as KT

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")

# Runs the generated module with tilescope made unimportable; arguments and results travel as pickles.
DRIVER = textwrap.dedent("""
    import importlib.abc, importlib.util, pickle, sys
    class NoTilescope(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "tilescope" or name.startswith(("tilescope.", "cuda")):
                raise ImportError("the transpiled module must not import " + name)
    sys.meta_path.insert(0, NoTilescope())
    spec = importlib.util.spec_from_file_location("generated", sys.argv[1])
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    with open(sys.argv[2], "rb") as f:
        grid, args = pickle.load(f)
    mod.launch(grid, *args)
    assert not any(m == "tilescope" or m.startswith("tilescope.") for m in sys.modules)
    with open(sys.argv[3], "wb") as f:
        pickle.dump(args, f)
""")


def run_generated(tmp_path, source: str, grid, args):
    """Run the generated module in a fresh, isolated interpreter (-I: no PYTHONPATH, no src/)."""
    mod, inp, out, drv = (tmp_path / n for n in ("generated.py", "in.pkl", "out.pkl", "driver.py"))
    mod.write_text(source)
    drv.write_text(DRIVER)
    with open(inp, "wb") as f:
        pickle.dump((grid, args), f)
    p = subprocess.run([sys.executable, "-I", str(drv), str(mod), str(inp), str(out)],
                       capture_output=True, text=True, cwd=str(tmp_path))
    assert p.returncode == 0, p.stderr[-4000:]
    with open(out, "rb") as f:
        return pickle.load(f), p.stdout


def check_same(tmp_path, kernel, grid, make_args):
    """Transpile for the real arguments and compare every array with `run_kernel`'s, bit for bit."""
    ref = make_args()
    source = transpile_kernel(kernel, ref)
    run_kernel(grid, kernel, ref, checks={"bounds": False, "races": False})
    got, _ = run_generated(tmp_path, source, grid, make_args())
    for r, g in zip(ref, got):
        if isinstance(r, np.ndarray):
            assert r.dtype == g.dtype
            assert np.array_equal(r.view(np.uint8), g.view(np.uint8)), (r, g)
    return source


def rng(seed=0):
    return np.random.default_rng(seed)


def example(name):
    return load_file(os.path.join(EXAMPLES, f"{name}.py"))


# ---- examples ---------------------------------------------------------------------------

def test_vector_add(tmp_path):
    r = rng()
    a, b = r.standard_normal(1000).astype(np.float32), r.standard_normal(1000).astype(np.float32)
    check_same(tmp_path, example("vector_add").vector_add, (4,), lambda: (a, b, np.zeros(1000, np.float32), 256))


def test_softmax(tmp_path):
    x = rng(1).standard_normal((6, 100)).astype(np.float32)
    check_same(tmp_path, example("softmax").softmax, (6,), lambda: (x, np.zeros_like(x), 128))


def test_layernorm(tmp_path):
    r = rng(2)
    x = r.standard_normal((5, 300)).astype(np.float32)
    w, b = r.standard_normal(300).astype(np.float32), r.standard_normal(300).astype(np.float32)
    check_same(tmp_path, example("layernorm").layernorm, (5,),
               lambda: (x, w, b, np.zeros_like(x), np.float32(1e-5), 64))


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_matmul(tmp_path, dtype):
    r = rng(3)
    a = r.standard_normal((96, 80)).astype(dtype)
    b = r.standard_normal((80, 72)).astype(dtype)
    check_same(tmp_path, example("matmul").matmul, (3, 3),
               lambda: (a, b, np.zeros((96, 72), np.float32), 32, 32, 16))


def test_batch_matmul(tmp_path):
    r = rng(4)
    a = r.standard_normal((3, 64, 32)).astype(np.float16)
    b = r.standard_normal((3, 32, 64)).astype(np.float16)
    check_same(tmp_path, example("matmul").batch_matmul, (2, 2, 3),
               lambda: (a, b, np.zeros((3, 64, 64), np.float32), 32, 32, 16))


def test_transpose(tmp_path):
    x = rng(5).standard_normal((70, 50)).astype(np.float32)
    check_same(tmp_path, example("transpose").transpose, (3, 2),
               lambda: (x, np.zeros((50, 70), np.float32), 32, 32))


def test_attention(tmp_path):
    r = rng(6)
    q, k, v = (r.standard_normal((2, 64, 32)).astype(np.float16) for _ in range(3))
    check_same(tmp_path, example("attention").attention, (2, 2),
               lambda: (q, k, v, np.zeros_like(q), np.float32(1 / np.sqrt(32)), 32, 16, 32))


# ---- control flow -------------------------------------------------------------------------

def test_divergent_if(tmp_path):
    x = np.arange(64, dtype=np.float32)
    check_same(tmp_path, KC.divergent_if, (8,), lambda: (x, np.zeros(64, np.float32), 8))


def test_per_block_trip_counts(tmp_path):
    x = rng(7).standard_normal(32).astype(np.float32)
    check_same(tmp_path, KC.loop_per_block_trip, (8,), lambda: (x, np.zeros(32, np.float32), 4))


def test_break_continue(tmp_path):
    x = np.zeros(64, np.float32)
    check_same(tmp_path, KC.loop_break_continue, (16,), lambda: (x, np.zeros_like(x), 4))


def test_while(tmp_path):
    check_same(tmp_path, KC.while_collatz, (12,), lambda: (np.zeros(12, np.int32), np.zeros(12, np.int32)))


def test_early_return(tmp_path):
    x = np.arange(16, dtype=np.float32)
    check_same(tmp_path, KC.early_return, (4,), lambda: (x, np.zeros(16, np.float32), 4))


def test_return_in_loop(tmp_path):
    check_same(tmp_path, KC.return_in_loop, (10,), lambda: (np.zeros(10, np.int32), 1))


def test_nested_loops(tmp_path):
    x = rng(8).standard_normal(64).astype(np.float32)
    check_same(tmp_path, KT.nested_loops, (6,), lambda: (x, np.zeros(96, np.float32), 16))


def test_while_with_tile_state(tmp_path):
    x = np.abs(rng(9).standard_normal(64)).astype(np.float32) * np.repeat(np.arange(4), 16).astype(np.float32)
    check_same(tmp_path, KT.while_with_tile_state, (4,), lambda: (x, np.zeros(64, np.float32), 16))


# ---- ops ----------------------------------------------------------------------------------

def test_ragged_padding(tmp_path):
    x = rng(10).standard_normal(100).astype(np.float32)
    check_same(tmp_path, KT.ragged_padding, (7,), lambda: (x, np.zeros(100, np.float32), 16))


def test_mixed_dtypes(tmp_path):
    x = (rng(11).standard_normal(64) * 50).astype(np.float32)
    x[3] = np.nan
    check_same(tmp_path, KT.mixed_dtypes, (4,), lambda: (x, np.zeros(64, np.float32), np.zeros(64, np.int32), 16))


def test_reductions(tmp_path):
    x = rng(12).standard_normal((8, 16)).astype(np.float32)
    x[2, 5] = np.nan
    check_same(tmp_path, KT.reductions, (8,), lambda: (x, np.zeros(8, np.float32), np.zeros(8, np.int32), 16))


def test_custom_reduce_and_scan(tmp_path):
    x = rng(13).standard_normal((8, 16)).astype(np.float32)
    src = check_same(tmp_path, KT.custom_reduce_and_scan, (8,),
                     lambda: (x, np.zeros(8, np.float32), np.zeros((8, 16), np.float32), 16))
    assert "def combine(" in src


def test_arange(tmp_path):
    check_same(tmp_path, KT.arange_iota, (4,), lambda: (np.zeros(64, np.int32), 16))


def test_gather_scatter(tmp_path):
    r = rng(14)
    x = r.standard_normal(64).astype(np.float32)
    idx = r.integers(-4, 75, 64).astype(np.int32)
    check_same(tmp_path, KT.gather_scatter, (4,), lambda: (x, idx, np.zeros(70, np.float32), 16))


def test_atomics(tmp_path):
    idx = rng(15).integers(-2, 18, 64).astype(np.int32)
    check_same(tmp_path, KT.atomics, (4,), lambda: (np.zeros(16, np.int32), np.zeros(1, np.int32), idx, 16))


def test_shapes(tmp_path):
    x = rng(16).standard_normal((8, 16)).astype(np.float32)
    check_same(tmp_path, KT.shapes, (4,), lambda: (x, np.zeros((8, 16), np.float32), 8))


def test_printing(tmp_path):
    import io
    x = rng(17).standard_normal(64).astype(np.float32)
    buf = io.StringIO()
    run_kernel((4,), KT.printing, (x, 16), out=buf)
    _, stdout = run_generated(tmp_path, transpile_kernel(KT.printing, (x, 16)), (4,), (x, 16))
    assert stdout == buf.getvalue() and "block 1:" in stdout


# ---- the generated text ---------------------------------------------------------------------

def test_output_is_readable():
    x = np.zeros(64, np.float32)
    src = transpile_kernel(KC.loop_break_continue, (x, x.copy(), 4))
    body = src.split("end of prelude", 1)[1]
    assert "def loop_break_continue(ctx, x, y):" in body
    assert "# kernels_control.py:28  acc = ct.load(x, index=(b,), shape=(T,))" in body
    assert "acc = load_tile(ctx, x, b, " in body
    assert "for i in loop.range(" in body
    assert "loop.break_(acc_1)" in body and "acc_2 = acc_1 + " in body
    assert "def launch(grid, x, y, T):" in body
    assert "import tilescope" not in src and "from tilescope" not in src


def test_prelude_is_standalone():
    src = prelude_source()
    imports = [ln.split()[1] for ln in src.splitlines() if ln.startswith(("import ", "from "))]
    assert set(imports) <= {"math", "re", "sys", "types", "ml_dtypes", "numpy"}


def test_prelude_numerics_in_sync():
    """The prelude carries a copy of the executor's numerics; it must not drift."""
    path = os.path.join(ROOT, "src", "tilescope", "backends", "numpy", "numerics.py")
    with open(path) as f:
        original = f.read()
    original = original[original.index("# RoundingMode member names"):]
    src = prelude_source()
    copy = src[src.index("# BEGIN numerics\n") + len("# BEGIN numerics\n"):src.index("# END numerics")]
    assert copy.rstrip() == original.rstrip()
    path = os.path.join(ROOT, "src", "tilescope", "ops", "debug.py")
    with open(path) as f:
        debug = f.read()
    printing = src[src.index("# BEGIN printing\n") + len("# BEGIN printing\n"):src.index("# END printing")]
    assert printing.split("def format_tile(")[0] in debug and "def format_tile(" + printing.split("def format_tile(")[1] in debug


def test_unsupported_op_is_located(tmp_path):
    kfile = tmp_path / "k.py"
    kfile.write_text(textwrap.dedent("""
        import tilescope.lang as ct

        @ct.kernel
        def k(x):
            t = ct.load(x, index=(0,), shape=(4,))
            ct.store(x, index=(0,), tile=x.tiled_view((4,)).load((0,)) + t)
    """))
    m = load_file(str(kfile))
    with pytest.raises(TileUnsupportedFeatureError) as e:
        transpile_kernel(m.k, "f32[4]")
    assert "'tiled_view'" in str(e.value) and e.value.loc.line == 7


def test_wrong_argument_shape_is_refused(tmp_path):
    x = np.zeros(64, np.float32)
    src = transpile_kernel(KC.divergent_if, (x, x.copy(), 8))
    ns = {}
    exec(compile(src, "generated.py", "exec"), ns)
    with pytest.raises(ValueError, match="expected a float32"):
        ns["launch"]((8,), x.astype(np.float64), x, 8)
