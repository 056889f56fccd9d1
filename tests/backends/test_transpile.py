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
            assert np.array_equal(np.atleast_1d(r).view(np.uint8), np.atleast_1d(g).view(np.uint8)), (r, g)
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


def test_tiled_view(tmp_path):
    x = rng(18).standard_normal((16, 10)).astype(np.float32)
    check_same(tmp_path, KT.tiled_view_copy, (2,), lambda: (x, np.zeros((16, 10), np.float32), 8))


def test_mma_scaled(tmp_path):
    import ml_dtypes
    from tests.backends import kernels_matmul as KM
    r = rng(19)
    e4m3, e8m0 = ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e8m0fnu
    g, m, n, k, ks = 2, 16, 16, 64, 2
    a = r.uniform(-4, 4, (g * m, k)).astype(e4m3)
    b = r.uniform(-4, 4, (g * k, n)).astype(e4m3)
    sa = np.exp2(r.integers(-3, 4, (g * m, ks))).astype(e8m0)
    sb = np.exp2(r.integers(-3, 4, (g * ks, n))).astype(e8m0)
    check_same(tmp_path, KM.mma_scaled_tile, (g,),
               lambda: (a, sa, b, sb, np.zeros((g * m, n), np.float32), m, n, k, ks))


def test_printing(tmp_path):
    import io
    x = rng(17).standard_normal(64).astype(np.float32)
    buf = io.StringIO()
    run_kernel((4,), KT.printing, (x, 16), out=buf)
    _, stdout = run_generated(tmp_path, transpile_kernel(KT.printing, (x, 16)), (4,), (x, 16))
    assert stdout == buf.getvalue() and "block 1:" in stdout


def test_assert_names_kernel_line_and_block(tmp_path):
    from tests.backends import kernels_print as KP
    x = np.array([1, 2, 3, 4, 5, 6, -7, 8], np.float32)
    source = transpile_kernel(KP.assert_positive, (x, 2))
    mod, inp, out, drv = (tmp_path / n for n in ("generated.py", "in.pkl", "out.pkl", "driver.py"))
    mod.write_text(source)
    drv.write_text(DRIVER)
    with open(inp, "wb") as f:
        pickle.dump(((4,), (x, 2)), f)
    p = subprocess.run([sys.executable, "-I", str(drv), str(mod), str(inp), str(out)],
                       capture_output=True, text=True, cwd=str(tmp_path))
    assert p.returncode != 0
    assert "assertion failed in kernel 'assert_positive' at kernels_print.py:85, block (3, 0, 0): " \
           "values must be positive" in p.stderr


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
    assert set(imports) - set(sys.stdlib_module_names) <= {"ml_dtypes", "numpy"}


def test_prelude_carries_the_executor_numerics():
    """The generated prelude holds the executor's own numerics and printf code, verbatim."""
    import inspect
    from tilescope.semantics import numerics
    src = prelude_source()
    assert inspect.getsource(numerics.fma) in src and "def format_tile(" in src


def test_unsupported_op_is_located(tmp_path):
    kfile = tmp_path / "k.py"
    kfile.write_text(textwrap.dedent("""
        import tilescope.lang as ct

        @ct.kernel
        def k(x):
            t = ct.load(x, index=(0,), shape=(4,))
            ct.store(x, index=(0,), tile=ct.load(x.slice(0, 0, 4), index=(0,), shape=(4,)) + t)
    """))
    m = load_file(str(kfile))
    with pytest.raises(TileUnsupportedFeatureError) as e:
        transpile_kernel(m.k, "f32[4]")
    assert "'array_slice'" in str(e.value) and e.value.loc.line == 7


def test_wrong_argument_shape_is_refused(tmp_path):
    x = np.zeros(64, np.float32)
    src = transpile_kernel(KC.divergent_if, (x, x.copy(), 8))
    ns = {}
    exec(compile(src, "generated.py", "exec"), ns)
    with pytest.raises(ValueError, match="expected a float32"):
        ns["launch"]((8,), x.astype(np.float64), x, 8)


# ---- the command line ------------------------------------------------------------------------

def _cli(*argv):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    return subprocess.run([sys.executable, "-m", "tilescope", "transpile", *argv],
                          capture_output=True, text=True, env=env, cwd=ROOT)


def test_cli_writes_a_runnable_module(tmp_path):
    out = tmp_path / "vadd.py"
    p = _cli(os.path.join(EXAMPLES, "vector_add.py"), "--kernel", "vector_add",
             "--args", "f32[1000], f32[1000], f32[1000], 256", "-o", str(out))
    assert p.returncode == 0, p.stderr
    text = out.read_text()
    assert "# vector_add.py:" in text and "def launch(grid, a, b, c, TILE):" in text
    a, b = rng(20).standard_normal((2, 1000)).astype(np.float32)
    (got_a, got_b, c, _), _ = run_generated(tmp_path, text, (4,), (a, b, np.zeros(1000, np.float32), 256))
    ref = np.zeros(1000, np.float32)
    run_kernel((4,), example("vector_add").vector_add, (a, b, ref, 256))
    assert np.array_equal(c, ref) and np.array_equal(c, a + b)


@pytest.mark.parametrize("argv", [["--kernel", "nope"], ["--args", "f32["], ["-o", "/nonexistent/dir/x.py"]])
def test_cli_bad_usage(argv):
    p = _cli(os.path.join(EXAMPLES, "softmax.py"), *argv)
    assert p.returncode == 2
    assert len(p.stderr.strip().splitlines()) == 1 and p.stderr.startswith("tilescope transpile: error:")


def test_cli_unsupported_op_is_a_located_error(tmp_path):
    kfile = tmp_path / "k.py"
    kfile.write_text("import tilescope.lang as ct\n\n\n@ct.kernel\ndef k(x):\n"
                     "    ct.store(x, index=(0,), tile=ct.load(x.slice(0, 0, 4), index=(0,), shape=(4,)))\n")
    p = _cli(str(kfile), "--args", "f32[8]")
    assert p.returncode == 1
    assert "k.py:6" in p.stderr and "array_slice" in p.stderr


def test_names_that_clash_with_the_prelude(tmp_path):
    kfile = tmp_path / "clash.py"
    kfile.write_text("import tilescope.lang as ct\n\n\n@ct.kernel\n"
                     "def reduce(x, np, D: ct.Constant[int]):\n"
                     "    max = ct.load(x, index=(ct.bid(0),), shape=(D,))\n"
                     "    ct.store(np, index=(ct.bid(0),), tile=max + 1.0)\n")
    kernel = load_file(str(kfile)).reduce
    x = np.arange(32, dtype=np.float32)
    src = check_same(tmp_path, kernel, (4,), lambda: (x, np.zeros(32, np.float32), 8))
    assert "def reduce_kernel(ctx, x, np_1):" in src and "max_1 = load_tile(" in src
    assert "def launch(grid, x, np_, D_):" in src


def test_strided_arrays_in_place():
    """Negative and non-unit strides, written in place (in-process: pickling would copy the views)."""
    from tests.backends import kernels_memory as KM
    x = np.arange(40, dtype=np.float32)[::-2]
    kernel = next(iter(KM.PAD_KERNELS.values()))
    outs = [np.zeros((20, 3), np.float32) for _ in range(2)]
    run_kernel((6,), kernel, (x, outs[0][:, 1], 4))
    ns = {}
    exec(compile(transpile_kernel(kernel, (x, outs[1][:, 1], 4)), "generated.py", "exec"), ns)
    ns["launch"]((6,), x, outs[1][:, 1], 4)
    assert np.array_equal(outs[0], outs[1]) and np.array_equal(outs[1][:, 1], x)
    strided = np.zeros((6, 10), np.float32)[:, ::2]
    got = [np.zeros(1, np.int32) for _ in range(2)]
    run_kernel((1,), KM.dims_strides, (strided, got[0]))
    ns = {}
    exec(compile(transpile_kernel(KM.dims_strides, (strided, got[1])), "generated.py", "exec"), ns)
    ns["launch"]((1,), strided, got[1])
    assert got[0][0] == got[1][0] == 6602
