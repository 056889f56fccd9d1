"""Fast numerics (`numerics="fast"`, TILESCOPE_NUMERICS=fast): NumPy's own float32 arithmetic
where the exact rounding model is slow. Results stay independent of how blocks are grouped,
stay close to the exact ones, and the mode ends with its launch."""
import os
import subprocess
import sys

import numpy as np
import pytest

import cuda.tile as ct
from tilescope.backends.numpy.launcher import ENV_NUMERICS, run_kernel
from tilescope.lang.shim import load_file
from tilescope.run import LaunchError

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def example(name):
    return load_file(os.path.join(ROOT, "examples", f"{name}.py"))


@pytest.fixture(autouse=True)
def default_numerics(monkeypatch):
    monkeypatch.delenv(ENV_NUMERICS, raising=False)      # "the default" means exact here


@pytest.mark.parametrize("fn", [np.exp, np.exp2, np.log, np.log2, np.sin, np.cos, np.tan, np.sinh, np.cosh,
                                np.tanh, np.sqrt])
def test_numpy_float32_functions_do_not_depend_on_where_an_element_lies(fn):
    # The fast mode's grouping-independence rests on this: an element's result is the same in a
    # long array, a short one, or at an odd offset.
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(4099) * 20).astype(np.float32)
    if fn in (np.log, np.log2, np.sqrt):
        x = np.abs(x)
    whole = fn(x)
    for start, length in [(0, 1), (1, 7), (3, 64), (5, 1000), (4090, 9), (17, 4082)]:
        part = fn(np.ascontiguousarray(x[start:start + length]))
        assert part.tobytes() == whole[start:start + length].tobytes()


@ct.kernel
def mul_add(a, b, c, y, T: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(a, index=(i,), shape=(T,)) * ct.load(b, index=(i,), shape=(T,)) + ct.load(c, index=(i,), shape=(T,))
    ct.store(y, index=(i,), tile=t)


@ct.kernel
def f16_exp(x, y, T: ct.Constant[int]):
    i = ct.bid(0)
    ct.store(y, index=(i,), tile=ct.exp(ct.load(x, index=(i,), shape=(T,))))


def _fma_case():
    # a*b = 1 + 2^-11 + 2^-24 lies halfway between two float32 values: rounded on its own it
    # loses the 2^-24, which the fused multiply-add keeps.
    a = np.full(16, 1 + 2.0 ** -12, np.float32)
    c = np.full(16, -(1 + 2.0 ** -11), np.float32)
    return a, a.copy(), c


@ct.kernel
def square_plus(w, x, y, T: ct.Constant[int]):
    i = ct.bid(0)
    wt = ct.load(w, index=(0,), shape=(T,))          # the same for every block
    ct.store(y, index=(i,), tile=(wt * wt + ct.load(x, index=(i,), shape=(T,))) * 2.0)


def test_a_product_the_same_for_every_block_plus_a_per_block_addend():
    w, x = np.arange(8, dtype=np.float32), np.arange(32, dtype=np.float32)
    want = ((w * w + x.reshape(4, 8)) * 2).reshape(-1)
    for mode in ("exact", "fast"):
        y = np.zeros(32, np.float32)
        run_kernel((4,), square_plus, (w, x, y, 8), numerics=mode)
        assert np.array_equal(y, want), mode


def test_fast_rounds_the_product_of_a_contracted_multiply_add_separately(monkeypatch):
    a, b, c = _fma_case()
    exact, fast, env = (np.zeros(16, np.float32) for _ in range(3))
    run_kernel((2,), mul_add, (a, b, c, exact, 8))
    run_kernel((2,), mul_add, (a, b, c, fast, 8), numerics="fast")
    monkeypatch.setenv(ENV_NUMERICS, "fast")
    run_kernel((2,), mul_add, (a, b, c, env, 8))
    assert (exact == np.float32(2.0 ** -24)).all()
    assert (fast == 0).all() and (env == 0).all()


@ct.kernel
def positive(x, T: ct.Constant[int]):
    ct.assert_(ct.load(x, index=(ct.bid(0),), shape=(T,)) > 0, "not positive")


def test_the_mode_ends_with_its_launch():
    a, b, c = _fma_case()
    with pytest.raises(Exception, match="not positive"):          # a launch failing in fast mode
        run_kernel((2,), positive, (-a, 8), numerics="fast")
    y = np.zeros(16, np.float32)
    run_kernel((2,), mul_add, (a, b, c, y, 8))
    assert (y == np.float32(2.0 ** -24)).all()


@pytest.mark.parametrize("bad", ["quick", "EXACTLY", "1"])
def test_an_unknown_mode_is_refused_before_anything_runs(monkeypatch, bad):
    a, b, c = _fma_case()
    y = np.zeros(16, np.float32)
    with pytest.raises(LaunchError, match="unknown numerics mode"):
        run_kernel((2,), mul_add, (a, b, c, y, 8), numerics=bad)
    monkeypatch.setenv(ENV_NUMERICS, bad)
    with pytest.raises(LaunchError, match=ENV_NUMERICS):
        run_kernel((2,), mul_add, (a, b, c, y, 8))
    assert not y.any()


def _cases():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((64, 300), dtype=np.float32)
    w, b = rng.standard_normal(300, dtype=np.float32), rng.standard_normal(300, dtype=np.float32)
    a16 = rng.standard_normal((128, 96)).astype(np.float16)
    b16 = rng.standard_normal((96, 160)).astype(np.float16)
    ba = rng.standard_normal((3, 128, 64)).astype(np.float16)
    bb = rng.standard_normal((3, 64, 128)).astype(np.float16)
    q, k, v = (rng.standard_normal((3, 128, 64)).astype(np.float16) for _ in range(3))
    h = (rng.standard_normal(512) * 3).astype(np.float16)
    return [
        ("softmax", lambda: example("softmax").softmax, (64,), lambda: (x, np.zeros_like(x), 512), 4e-7),
        ("layernorm", lambda: example("layernorm").layernorm, (64,),
         lambda: (x, w, b, np.zeros_like(x), 1e-5, 64), 2e-6),
        ("matmul_f16", lambda: example("matmul").matmul, (4, 5),
         lambda: (a16, b16, np.zeros((128, 160), np.float32), 32, 32, 32), 1e-5),
        ("batch_matmul", lambda: example("matmul").batch_matmul, (4, 4, 3),
         lambda: (ba, bb, np.zeros((3, 128, 128), np.float32), 32, 32, 32), 1e-5),
        ("attention", lambda: example("attention").attention, (4, 3),
         lambda: (q, k, v, np.zeros_like(q), 1 / 8, 32, 32, 64), 2e-3),
        ("f16_exp", lambda: f16_exp, (4,), lambda: (h, np.zeros_like(h), 128), 1e-3),
    ]


@pytest.mark.parametrize("name,kernel,grid,make_args,tol", _cases(), ids=[c[0] for c in _cases()])
def test_fast_results_do_not_depend_on_grouping_and_stay_close_to_exact(name, kernel, grid, make_args, tol):
    kernel = kernel()
    runs = []
    for kw in ({}, {"sequential": True}, {"group": 3}):
        args = make_args()
        run_kernel(grid, kernel, args, numerics="fast", **kw)
        runs.append(args)
    exact = make_args()
    run_kernel(grid, kernel, exact)
    for i, v in enumerate(exact):
        if not isinstance(v, np.ndarray):
            continue
        for other in runs[1:]:
            assert runs[0][i].tobytes() == other[i].tobytes(), name
    got = [a for a in runs[0] if isinstance(a, np.ndarray)]
    want = [a for a in exact if isinstance(a, np.ndarray)]
    y_fast, y_exact = got[-1].astype(np.float64), want[-1].astype(np.float64)
    scale = np.abs(y_exact).max()
    assert np.abs(y_fast - y_exact).max() <= tol * scale, name
    if name != "f16_exp":                                  # (float16 results round the difference away)
        assert got[-1].tobytes() != want[-1].tobytes(), name      # the mode did take effect


def test_run_numerics_flag(tmp_path):
    a, b, c = _fma_case()
    script = tmp_path / "s.py"
    script.write_text(
        "import numpy as np\nimport cuda.tile as ct\n\n"
        "@ct.kernel\n"
        "def mul_add(a, b, c, y, T: ct.Constant[int]):\n"
        "    i = ct.bid(0)\n"
        "    t = ct.load(a, index=(i,), shape=(T,)) * ct.load(b, index=(i,), shape=(T,)) + "
        "ct.load(c, index=(i,), shape=(T,))\n"
        "    ct.store(y, index=(i,), tile=t)\n\n"
        f"a = np.full(16, {float(a[0])!r}, np.float32)\n"
        f"c = np.full(16, {float(c[0])!r}, np.float32)\n"
        "y = np.zeros(16, np.float32)\n"
        "ct.launch(None, (2,), mul_add, (a, a, c, y, 8))\n"
        "print(float(y[0]))\n")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    env.pop(ENV_NUMERICS, None)
    outs = []
    for extra in ([], ["--numerics", "fast"]):
        p = subprocess.run([sys.executable, "-m", "tilescope", "run", *extra, str(script)], capture_output=True,
                           text=True, env=env)
        assert p.returncode == 0, p.stderr
        outs.append(float(p.stdout.strip()))
    assert outs == [2.0 ** -24, 0.0]


def test_transpiled_modules_follow_the_same_setting(tmp_path, monkeypatch):
    from tests.backends.test_transpile import check_same
    a, b, c = _fma_case()
    make = lambda: (a, b, c, np.zeros(16, np.float32), 8)      # noqa: E731
    monkeypatch.setenv(ENV_NUMERICS, "fast")
    check_same(tmp_path, mul_add, (2,), make)                  # the module's results = tilescope run's, bit for bit
    rng = np.random.default_rng(2)
    q, k, v = (rng.standard_normal((2, 64, 64)).astype(np.float16) for _ in range(3))
    check_same(tmp_path, example("attention").attention, (2, 2),
               lambda: (q, k, v, np.zeros_like(q), 1 / 8, 32, 32, 64))
