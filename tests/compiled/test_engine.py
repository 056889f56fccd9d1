"""The compiled CPU backend as a launch sees it: engine selection, fallback with a reason,
the disk cache, threads, ordered atomics, checks, and the realistic kernels of
bench/realworld.py compiled and bit-identical to the NumPy executor."""
import io
import logging
import os
import subprocess
import sys

import numpy as np
import pytest

import cuda.tile as ct
from tilescope.backends.compiled import engine, toolchain
from tilescope.backends.numpy.launcher import run_kernel
from tilescope.run import LaunchError

pytestmark = pytest.mark.skipif(not toolchain.available(), reason="no C compiler")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _copies(args):
    return tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)


def _arrays(args):
    return [a for a in args if isinstance(a, np.ndarray)]


@pytest.fixture(scope="module")
def realworld():
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    try:
        import realworld
    finally:
        sys.path.pop(0)
    return realworld.rows(0.1)


def test_realworld_kernels_compile_and_equal_the_executor(realworld):
    compiled = []
    for r in realworld:
        outs = []
        for eng in ("auto", "numpy"):
            if r.fresh:
                r.fresh()
            args = _copies(r.args)
            run_kernel(r.grid, r.kernel, args, engine=eng)
            if eng == "auto":
                info = engine.last_launch()
            outs.append(_arrays(args))
        for x, y in zip(*outs):
            assert x.tobytes() == y.tobytes(), r.name
        if "threads" in info:
            compiled.append(r.name)
    assert len(compiled) >= 22, [r.name for r in realworld if r.name not in compiled]


@ct.kernel
def _printing(x, T: ct.Constant[int]):
    ct.print(ct.load(x, index=(ct.bid(0),), shape=(T,)))


@ct.kernel
def _add_toward_zero(x, y, o, T: ct.Constant[int]):                 # (a rounding mode: not compiled yet)
    b = ct.bid(0)
    t = ct.add(ct.load(x, index=(b,), shape=(T,)), ct.load(y, index=(b,), shape=(T,)),
               rounding_mode=ct.RoundingMode.RZ)
    ct.store(o, index=(b,), tile=t)


def _round_toward_zero():
    x = np.full(8, 1.0, np.float32)
    return _add_toward_zero, (x, np.full(8, 2.0 ** -30, np.float32), np.zeros(8, np.float32), 8)


def test_engine_compiled_says_why_it_cannot():
    kernel, args = _round_toward_zero()
    with pytest.raises(LaunchError, match="cannot run compiled: rounding mode RZ"):
        run_kernel((1,), kernel, args, engine="compiled")


def test_auto_runs_the_executor_and_logs_why(caplog, monkeypatch):
    kernel, args = _round_toward_zero()
    monkeypatch.setattr(engine, "_explained", set())              # (said once per kernel and reason)
    with caplog.at_level(logging.INFO, logger="tilescope.cpu"):
        run_kernel((1,), kernel, args)
    assert "runs on the NumPy executor" in caplog.text and "rounding mode RZ" in caplog.text
    assert (args[2] == 1.0).all()                  # 1 + 2^-30 rounded toward zero
    assert "declined" in engine.last_launch()


def test_prints_come_out_in_block_order_as_the_executors(capsys):
    x = np.arange(32, dtype=np.float32)
    outs = []
    for eng in ("compiled", "numpy"):
        run_kernel((4,), _printing, (x, 8), engine=eng)
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1] and outs[0].count("\n") == 4


def test_unknown_engine_is_a_launch_error():
    with pytest.raises(LaunchError, match="unknown engine"):
        run_kernel((1,), _printing, (np.zeros(8, np.float32), 8), engine="gpu")


@ct.kernel
def _scale(x, y, T: ct.Constant[int]):
    i = ct.bid(0)
    ct.store(y, index=(i,), tile=ct.load(x, index=(i,), shape=(T,)) * 3.0 + 1.0)


def test_a_new_process_loads_the_cached_library(tmp_path):
    script = (
        "import numpy as np, tilescope.backends.numpy.launcher as L, tests.compiled.test_engine as t\n"
        "x = np.arange(4096, dtype=np.float32); y = np.empty_like(x)\n"
        "L.run_kernel((4,), t._scale, (x, y, 1024), engine='compiled')\n"
        "assert (y == x * 3 + 1).all()\n")
    env = dict(os.environ, TILESCOPE_CACHE_DIR=str(tmp_path), PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "src"),
                                                                                           ROOT]))
    for _ in range(2):
        subprocess.run([sys.executable, "-c", script], env=env, check=True, cwd=ROOT)
    libs = [p for p in os.listdir(tmp_path / "cpu") if p.startswith("k")]
    assert len(libs) == 1
    # a second process with no compiler at all still runs from the cache
    env["TILESCOPE_CC"] = "tilescope-no-such-compiler"
    env["PATH"] = ""
    subprocess.run([sys.executable, "-c", script], env=env, check=True, cwd=ROOT)


def test_thread_counts_agree():
    x = np.random.default_rng(0).standard_normal(1 << 16).astype(np.float32)
    outs = []
    for n in (1, 2, 5):
        y = np.empty_like(x)
        run_kernel((64,), _scale, (x, y, 1024), engine="compiled", threads=n)
        outs.append(y.tobytes())
        assert engine.last_launch()["threads"] == n
    assert outs[0] == outs[1] == outs[2]


@ct.kernel
def _float_atomics(x, out, T: ct.Constant[int]):
    i = ct.bid(0)
    ct.atomic_add(out, ct.arange(T, dtype=ct.int32) % 4, ct.load(x, index=(i,), shape=(T,)))


def test_float_atomics_follow_block_order_on_every_thread_count():
    rng = np.random.default_rng(1)
    x = (rng.standard_normal(1 << 14) * np.float32(1e3)).astype(np.float32)
    want = np.zeros(4, np.float32)
    run_kernel((64,), _float_atomics, (x, want, 256), engine="numpy")
    for n in (1, 2, 4, 4, 4):
        got = np.zeros(4, np.float32)
        run_kernel((64,), _float_atomics, (x, got, 256), engine="compiled", threads=n)
        assert got.tobytes() == want.tobytes()


@ct.kernel
def _all_to_tile_zero(x, y, T: ct.Constant[int]):
    ct.store(y, index=(0,), tile=ct.load(x, index=(ct.bid(0),), shape=(T,)))


def test_a_race_is_reported_by_the_executor_and_otherwise_last_block_wins(capsys):
    x = np.arange(64, dtype=np.float32)
    y = np.zeros(16, np.float32)
    chk = run_kernel((4,), _all_to_tile_zero, (x, y, 16))
    assert any("race on array 'y'" in r for r in chk.reports)
    assert "reports the race" in engine.last_launch()["declined"]
    assert (y == x[48:]).all()
    y2 = np.zeros(16, np.float32)
    run_kernel((4,), _all_to_tile_zero, (x, y2, 16), checks={"bounds": True, "races": False}, engine="compiled")
    assert engine.last_launch()["threads"] == 1 and (y2 == x[48:]).all()


@ct.kernel
def _persistent_copy(x, y, T: ct.Constant[int]):
    for t in range(ct.bid(0), ct.num_tiles(x, axis=0, shape=(T,)), ct.num_blocks(0)):
        ct.store(y, index=(t,), tile=ct.load(x, index=(t,), shape=(T,)) + 1.0)


def test_tiles_chosen_in_loops_are_tracked_per_tile():
    # no static proof (the tile index depends on the loop): blocks record the tiles they touch
    x = np.arange(1000, dtype=np.float32)
    y = np.zeros_like(x)
    chk = run_kernel((3,), _persistent_copy, (x, y, 16), engine="compiled", threads=2)
    assert not chk.reports and (y == x + 1).all() and engine.last_launch()["threads"] == 2


@ct.kernel
def _past_the_end(x, y, T: ct.Constant[int]):
    i = ct.bid(0)
    ct.store(y, index=(i,), tile=ct.load(x, index=(i + 2,), shape=(T,), padding_mode=ct.PaddingMode.ZERO))


def test_bounds_reports_are_the_executors(capsys):
    x = np.arange(32, dtype=np.float32)
    reports = []
    for eng in ("compiled", "numpy"):
        y = np.zeros(32, np.float32)
        reports.append(run_kernel((4,), _past_the_end, (x, y, 8), engine=eng).reports)
    assert reports[0] == reports[1] and len(reports[0]) == 1 and "tile index (4,)" in reports[0][0]


def test_fast_numerics_run_on_the_executor():
    x = np.arange(8, dtype=np.float32)
    run_kernel((1,), _scale, (x, np.empty_like(x), 8), numerics="fast")
    assert "fast numerics" in engine.last_launch()["declined"]


@ct.kernel
def _gather_rows(x, y, rows, T: ct.Constant[int], C: ct.Constant[int]):
    b = ct.bid(0)
    r = ct.load(rows, index=(b,), shape=(T,))
    t = ct.load_advanced_indexing(x, (r, ct.Slice(b * 4, C)), padding_mode=ct.PaddingMode.NAN)
    ct.store_advanced_indexing(y, (r, ct.Slice(b, C)), t * 2.0)


def test_advanced_indexing_compiles_and_equals_the_executor():
    # rows out of range (past the end, negative) pad the load and drop the store; a row taken
    # twice within a block keeps the last lane's value, as the executor's row-major store does
    x = np.random.default_rng(2).standard_normal((40, 10)).astype(np.float32)
    rows = np.array([3, 39, 40, -1, 5, 0, 7, 7, 11, 12, 13, 14], np.int32)
    outs = []
    for eng in ("compiled", "numpy"):
        y = np.full((40, 6), -7.0, np.float32)
        chk = run_kernel((3,), _gather_rows, (x, y, rows, 4, 4), engine=eng,
                         checks={"bounds": True, "races": False})
        outs.append((y.tobytes(), sorted(chk.reports)))
        if eng == "compiled":
            assert "threads" in engine.last_launch()
    assert outs[0] == outs[1]
    y = np.frombuffer(outs[0][0], np.float32).reshape(40, 6)
    assert np.array_equal(y[39, 0:4], x[39, 0:4] * 2) and np.array_equal(y[0, 1:5], x[0, 4:8] * 2)
    assert np.array_equal(y[12, 2:4], x[12, 8:10] * 2) and np.isnan(y[12, 4:6]).all()   # padded past column 9
    assert (y[1] == -7).all() and (y[40 - 1, 4:] == -7).all()


@ct.kernel
def _lookups(x, idx, o, n: int, T: ct.Constant[int]):
    b = ct.bid(0)
    i = ct.gather(idx, b)                                   # one lane: scalars
    v = ct.gather(x, i, padding_value=-1.0)                 # checked: out of range reads the padding
    m = ct.gather(x, i + 1, mask=i < n - 1)
    u = ct.gather(x, i, check_bounds=False)                 # unchecked: out of range is reported
    lanes = ct.gather(x, i + ct.arange(T, dtype=ct.int32), padding_value=0.5)
    ct.scatter(o, b * 4, v + m)
    ct.scatter(o, b * 4 + 1, u)
    ct.scatter(o, b * 4 + 2, ct.sum(lanes))
    ct.scatter(o, i * 0 + 1000, v)                          # checked scatter past the end: dropped


def test_scalar_gathers_and_scatters_compile_and_report_as_the_executor():
    x = np.random.default_rng(4).standard_normal(10).astype(np.float32)
    idx = np.array([0, 3, 9, 12, -1, 4], np.int32)
    outs = []
    for eng in ("compiled", "numpy"):
        o = np.zeros(24, np.float32)
        chk = run_kernel((6,), _lookups, (x, idx, o, 10, 4), engine=eng, checks={"bounds": True, "races": False})
        outs.append((o.tobytes(), sorted(chk.reports)))
    assert outs[0] == outs[1]
    o = np.frombuffer(outs[0][0], np.float32)
    assert o[12] == -1 + 0 and o[8] == x[9] + 0 and o[4] == x[3] + x[4]
    # only the unchecked gather is reported: checked lanes out of range are cuTile's masking
    assert len(outs[0][1]) == 1 and "gather with check_bounds=False out of bounds" in outs[0][1][0]
    assert "element (12,)" in outs[0][1][0]


@ct.kernel
def _one_channel(x, y, C: int, B: ct.Constant[int]):
    rows = ct.arange(B, dtype=ct.int32)
    image = rows // 16
    offs = image * (C * 16) + ct.bid(0) * 16 + (rows - image * 16)     # channel bid(0) of every image
    ct.scatter(y, offs, ct.gather(x, offs) * 2.0)


@ct.kernel
def _overlapping_halves(x, y, n: int, B: ct.Constant[int]):
    offs = ct.bid(0) * B + ct.arange(B, dtype=ct.int32)
    ct.scatter(y, offs - ct.bid(0) * (B // 2), ct.gather(x, offs))   # block b's upper half is b + 1's lower


@ct.kernel
def _reverse_in_place(x, n: int, B: ct.Constant[int]):
    offs = ct.bid(0) * B + ct.arange(B, dtype=ct.int32)
    ct.scatter(x, offs, ct.gather(x, n - 1 - offs))             # reads what the mirror block writes


def _on_both_engines(kernel, grid, make_args, **kw):
    outs = []
    for eng in ("auto", "numpy"):
        args = make_args()
        chk = run_kernel(grid, kernel, args, engine=eng, **kw)
        if eng == "auto":
            info = engine.last_launch()
        outs.append(([a.tobytes() for a in _arrays(args)], sorted(chk.reports)))
    assert outs[0] == outs[1]
    return info, outs[0][1]


def test_scatters_to_disjoint_elements_run_compiled_in_parallel():
    # no proof by tiles or coordinate ranges (a block's elements interleave with the others'):
    # each block records the elements it touches
    x = np.random.default_rng(5).standard_normal(1024).astype(np.float32)
    info, reports = _on_both_engines(_one_channel, (8,), lambda: (x.copy(), np.zeros_like(x), 8, 128), threads=2)
    assert info["threads"] == 2 and not reports
    y = np.zeros_like(x)
    run_kernel((8,), _one_channel, (x, y, 8, 128), engine="compiled")
    assert np.array_equal(y, x * 2)


@pytest.mark.parametrize("kernel,make_args", [
    (_overlapping_halves, lambda x: (x.copy(), np.zeros(600, np.float32), 1024, 128)),
    (_reverse_in_place, lambda x: (x.copy(), 1024, 128))])
def test_scatters_that_touch_another_blocks_elements_go_to_the_executor(kernel, make_args):
    x = np.random.default_rng(6).standard_normal(1024).astype(np.float32)
    info, reports = _on_both_engines(kernel, (8,), lambda: make_args(x))
    assert "two blocks touched one tile" in info["declined"]
    assert len(reports) == 1 and "race on array" in reports[0]


def test_element_tracking_too_large_goes_to_the_executor(monkeypatch):
    from tilescope.backends.compiled import runner
    monkeypatch.setattr(runner, "SHADOW_BYTES", 1024)
    x = np.random.default_rng(5).standard_normal(1024).astype(np.float32)
    info, _ = _on_both_engines(_one_channel, (8,), lambda: (x.copy(), np.zeros_like(x), 8, 128))
    assert "MiB" in info["declined"]


@ct.kernel
def _double_positive(x, T: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(T,))
    ct.store(x, index=(ct.bid(0),), tile=t * 2)
    ct.assert_(t > 0, "x must be positive")


def test_a_launch_like_an_earlier_one_that_stops_puts_its_arrays_back():
    # the second launch takes the fast path (the plan of the first): a failed assert there
    # leaves x as it was before the launch, as on the full path and the executor
    from tilescope.backends.numpy.executor import ExecutionError
    x = np.ones(8, np.int32)
    run_kernel((2,), _double_positive, (x, 4), engine="compiled")
    assert x.tolist() == [2] * 8
    x[5] = 0
    before = x.copy()
    with pytest.raises(ExecutionError, match="x must be positive"):
        run_kernel((2,), _double_positive, (x, 4), engine="compiled", out=io.StringIO())
    assert x.tolist() == before.tolist()


def test_a_repeated_launch_with_torch_tensors_takes_the_fast_path(monkeypatch):
    # torch tensors in host memory are viewed as NumPy arrays before the fast path's key is
    # made, so the second launch runs from the first one's plan (no front end on the way)
    torch = pytest.importorskip("torch")
    import tilescope.compiler as compiler
    x = torch.ones(8, dtype=torch.int32)
    run_kernel((2,), _double_positive, (x, 4), engine="compiled")
    full_paths = []
    real = compiler.resolve_kernel
    monkeypatch.setattr(compiler, "resolve_kernel", lambda k: full_paths.append(k) or real(k))
    run_kernel((2,), _double_positive, (x, 4), engine="compiled")
    assert x.tolist() == [4] * 8 and full_paths == []
    with pytest.raises(LaunchError, match="argument 'x'"):
        run_kernel((2,), _double_positive, (torch.ones(8, dtype=torch.complex64), 4), engine="compiled")


@ct.kernel
def _blas_product(a, b, c, T: ct.Constant[int]):
    i = ct.bid(0)
    x = ct.load(a, index=(i, 0), shape=(T, T))
    c_tile = ct.mma(x, ct.load(b, index=(0, 0), shape=(T, T)), ct.zeros((T, T), dtype=ct.float32))
    ct.store(c, index=(i, 0), tile=c_tile)


def test_blas_thread_count_is_set_once_per_launch_and_put_back(monkeypatch):
    """OpenBLAS's pthreads builds keep one thread count for the whole process: each worker
    saving and restoring it would interleave and could leave np.matmul on one thread (on
    AVX-512 CPUs, with other bits). The launch sets it once and puts it back."""
    from tilescope.backends.compiled import blas
    state = {"count": 7}

    def set_count(n):                       # a process-wide setting, like pthreads OpenBLAS's
        old, state["count"] = state["count"], n
        return old
    monkeypatch.setattr(blas, "_set_local_threads", lambda: set_count)
    monkeypatch.setattr(blas, "sequential_rule", lambda *a: None)     # products through BLAS
    blas._count_is_per_thread.cache_clear()
    try:
        assert not blas._count_is_per_thread()
        rng = np.random.default_rng(5)
        a = rng.standard_normal((8 * 32, 32)).astype(np.float32)
        b = rng.standard_normal((32, 32)).astype(np.float32)
        for n in (1, 2, 4):
            c = np.zeros_like(a)
            run_kernel((8,), _blas_product, (a, b, c, 32), engine="compiled", threads=n)
            assert engine.last_launch()["threads"] == n
            assert state["count"] == 7, n
            assert np.array_equal(c, np.concatenate([np.matmul(t, b) for t in np.split(a, 8)]))
        # launches from several threads at once
        from concurrent.futures import ThreadPoolExecutor
        cs = [np.zeros_like(a) for _ in range(6)]
        with ThreadPoolExecutor(3) as pool:
            list(pool.map(lambda c: run_kernel((8,), _blas_product, (a, b, c, 32), engine="compiled", threads=2), cs))
        assert state["count"] == 7
        assert all(np.array_equal(c, cs[0]) for c in cs)
    finally:
        blas._count_is_per_thread.cache_clear()


def test_real_blas_thread_count_survives_threaded_launches(monkeypatch):
    from tilescope.backends.compiled import blas
    monkeypatch.setattr(blas, "sequential_rule", lambda *a: None)     # products through BLAS
    fn = blas._set_local_threads()
    if fn is None:
        pytest.skip("this BLAS has no per-call thread setting")
    before = fn(3)
    fn(before)
    a = np.random.default_rng(6).standard_normal((16 * 32, 32)).astype(np.float32)
    for _ in range(20):
        run_kernel((16,), _blas_product, (a, a[:32].copy(), np.zeros_like(a), 32), engine="compiled", threads=4)
    now = fn(before)
    assert now == before


def test_products_are_probed_per_blas_thread_count():
    """Where the summation order depends on the BLAS's thread count, a rule probed under one
    count is never used under another."""
    from tilescope.backends.compiled import blas
    fn = blas._set_local_threads()
    if fn is None or not toolchain.available():
        pytest.skip("this BLAS has no thread setting")
    before = blas.blas_threads()
    try:
        for count in (1, before + 1):
            fn(count)
            assert blas.blas_threads() == count
            blas.sequential_rule("float32", 8, 8, 600)
            assert f"float32 8 8 600 {count}" in blas._rules
    finally:
        fn(before)
    assert blas.blas_threads() == before
