"""Groups of blocks on worker threads (backends/numpy/workers.py): results and reports are
those of a one-thread run, bit for bit and line for line, whatever the thread count."""
import os
import threading

import numpy as np
import pytest

import cuda.tile as ct
from tilescope.backends.numpy import workers
from tilescope.backends.numpy.executor import ExecutionError
from tilescope.backends.numpy.launcher import run_kernel
from tilescope.lang.shim import load_file
from tilescope.run import LaunchError
from tests.backends import kernels_memory as K

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples")


def example(name):
    return load_file(os.path.join(EXAMPLES, f"{name}.py"))


@pytest.fixture
def concurrent_runs(monkeypatch):
    """Count the launches that really ran groups side by side."""
    calls = []
    real = workers.run_concurrently

    def spy(*args, **kwargs):
        calls.append(args[1])
        return real(*args, **kwargs)
    monkeypatch.setattr(workers, "run_concurrently", spy)
    return calls


def run_with_threads(monkeypatch, threads, grid, kernel, make_args, **kw):
    monkeypatch.setenv(workers.ENV_THREADS, str(threads))
    args = make_args()
    chk = run_kernel(grid, kernel, args, **kw)
    return args, chk.reports


def _cases():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((96, 200), dtype=np.float32)
    w, b = rng.standard_normal(200, dtype=np.float32), rng.standard_normal(200, dtype=np.float32)
    a16 = rng.standard_normal((128, 96)).astype(np.float16)
    b16 = rng.standard_normal((96, 160)).astype(np.float16)
    q, k, v = (rng.standard_normal((4, 128, 64)).astype(np.float16) for _ in range(3))
    va, vb = rng.random(5000, dtype=np.float32), rng.random(5000, dtype=np.float32)
    xt = rng.random((130, 70), dtype=np.float32)
    return [
        ("vector_add", "vector_add", (40,), lambda: (va, vb, np.zeros_like(va), 128)),
        ("softmax", "softmax", (96,), lambda: (x, np.zeros_like(x), 256)),
        ("layernorm", "layernorm", (96,), lambda: (x, w, b, np.zeros_like(x), 1e-5, 64)),
        ("matmul", "matmul", (4, 5), lambda: (a16, b16, np.zeros((128, 160), np.float32), 32, 32, 32)),
        ("attention", "attention", (4, 4), lambda: (q, k, v, np.zeros_like(q), 1 / 8, 32, 32, 64)),
        ("transpose", "transpose", (3, 5), lambda: (xt, np.zeros((70, 130), np.float32), 32, 32)),
    ]


@pytest.mark.parametrize("module,kernel,grid,make_args", _cases(), ids=[c[0] for c in _cases()])
def test_threads_give_the_one_thread_results_bit_for_bit(monkeypatch, concurrent_runs, module, kernel, grid,
                                                         make_args):
    fn = getattr(example(module), kernel)
    one, _ = run_with_threads(monkeypatch, 1, grid, fn, make_args, group=3)
    for threads in (2, 3):
        many, _ = run_with_threads(monkeypatch, threads, grid, fn, make_args, group=3)
        for x, y in zip(one, many):
            if isinstance(x, np.ndarray):
                assert x.tobytes() == y.tobytes()
    assert concurrent_runs == [2, 3]


def test_race_reports_read_as_in_a_one_thread_run(monkeypatch, concurrent_runs):
    make = lambda: (np.zeros(32, np.int32),)      # noqa: E731
    (y1,), one = run_with_threads(monkeypatch, 1, (16,), K.race_store, make, group=1)
    (y3,), many = run_with_threads(monkeypatch, 3, (16,), K.race_store, make, group=1)
    assert concurrent_runs == [3]
    assert one and many == one
    assert np.array_equal(y1, y3)


def test_bounds_reports_come_in_group_order(monkeypatch, concurrent_runs):
    xb = np.arange(24, dtype=np.float32)
    make = lambda: (xb[::2], np.zeros(12, np.float32), 2)      # noqa: E731
    (_, y1, _), one = run_with_threads(monkeypatch, 1, (6,), K.raw_copy, make, group=1)
    (_, y3, _), many = run_with_threads(monkeypatch, 3, (6,), K.raw_copy, make, group=1)
    assert concurrent_runs == [3]
    assert one and many == one
    assert np.array_equal(y1, y3)


@ct.kernel
def spin(x, n: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, index=(i,), shape=(4,))
    while ct.sum(t) < n:                      # never leaves for blocks whose tile sums below n
        t = t * 1.0
    ct.store(x, index=(i,), tile=t + 1)


def test_a_failing_group_stops_the_launch_with_its_error(monkeypatch, concurrent_runs):
    monkeypatch.setenv(workers.ENV_THREADS, "2")
    x = np.full(32, 10, np.float32)
    x[12:16] = 0                                  # block 3 spins
    with pytest.raises(ExecutionError, match="ran more than 50 iterations"):
        run_kernel((8,), spin, (x, 1), group=1, checks={"max_loop_iterations": 50})
    assert concurrent_runs == [2]
    assert np.array_equal(x[:12], np.full(12, 11, np.float32))       # the groups before it finished


def test_kernels_that_order_blocks_run_their_groups_in_order(monkeypatch, concurrent_runs, capsys):
    @ct.kernel
    def shout(x):
        i = ct.bid(0)
        ct.print(i)
        ct.store(x, index=(i,), tile=ct.full((1,), i, dtype=ct.int32))
    monkeypatch.setenv(workers.ENV_THREADS, "4")
    x = np.zeros(12, np.int32)
    run_kernel((12,), shout, (x,), group=1)
    assert concurrent_runs == []
    assert capsys.readouterr().out.split() == [str(i) for i in range(12)]
    assert x.tolist() == list(range(12))


@pytest.mark.parametrize("text", ["0", "-2", "many", "1.5"])
def test_a_bad_thread_count_is_refused(monkeypatch, text):
    monkeypatch.setenv(workers.ENV_THREADS, text)
    with pytest.raises(LaunchError, match=workers.ENV_THREADS):
        run_kernel((2,), K.race_store, (np.zeros(8, np.int32),))


def test_groups_run_on_a_worker_thread_and_its_errors_reach_the_caller():
    seen = []

    @ct.kernel
    def fails(x):
        i = ct.bid(0)
        ct.store(x, index=(i,), tile=ct.full((2,), 1, dtype=ct.int32))
    real = workers.on_worker

    def spy(run, stop):
        def wrapped():
            seen.append(threading.current_thread().name)
            raise RuntimeError("from the worker")
        return real(wrapped, stop)
    workers.on_worker, saved = spy, workers.on_worker
    try:
        with pytest.raises(RuntimeError, match="from the worker"):
            run_kernel((2,), fails, (np.zeros(4, np.int32),))
    finally:
        workers.on_worker = saved
    assert seen and seen[0].startswith("tilescope-group")


def test_ctrl_c_stops_a_launch_running_on_a_worker():
    import signal
    x = np.zeros(8, np.float32)                   # every block spins
    main = threading.main_thread().ident
    timer = threading.Timer(0.3, lambda: signal.pthread_kill(main, signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            run_kernel((2,), spin, (x, 1), checks={"max_loop_iterations": 10 ** 12})
    finally:
        timer.cancel()
    assert not x.any()                            # nothing was stored, and the worker is free again:
    y = np.full(8, 5, np.float32)
    run_kernel((2,), spin, (y, 1))
    assert np.array_equal(y, np.full(8, 6, np.float32))
