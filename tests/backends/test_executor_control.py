"""Control flow on the CPU executor: divergent branches, per-block trip counts, break/continue/return.

Every kernel also runs one block at a time; the vectorised run must agree bit for bit.
"""
import numpy as np
import pytest

import cuda.tile as ct
from tilescope.backends.numpy.executor import ExecutionError
from tilescope.backends.numpy.launcher import run_kernel
from tests.backends import kernels_control as K


def both_ways(grid, kernel, make_args):
    a1 = make_args()
    run_kernel(grid, kernel, a1)
    a2 = make_args()
    run_kernel(grid, kernel, a2, sequential=True)
    for x, y in zip(a1, a2):
        if isinstance(x, np.ndarray):
            assert np.array_equal(x, y, equal_nan=True)
    return a1


def test_divergent_if():
    x = np.arange(64, dtype=np.float32)
    out = both_ways((8,), K.divergent_if, lambda: (x.copy(), np.zeros(64, np.float32), 8))[1]
    blocks = np.repeat(np.arange(8), 8)
    assert np.array_equal(out, np.where(blocks % 2 == 0, x * 2, x - 1))


def test_loop_trip_count_differs_per_block():
    x = np.zeros(32, dtype=np.float32)
    out = both_ways((8,), K.loop_per_block_trip, lambda: (x.copy(), np.zeros(32, np.float32), 4))[1]
    expected = np.repeat([sum(range(b)) for b in range(8)], 4)
    assert np.array_equal(out, expected)


def test_break_and_continue():
    x = np.zeros(16 * 4, dtype=np.float32)
    out = both_ways((16,), K.loop_break_continue, lambda: (x.copy(), np.zeros_like(x), 4))[1]
    expected = []
    for b in range(16):
        acc = 0
        for i in range(10):
            if i == b:
                break
            if i % 3 == 1:
                continue
            acc += 1
        expected += [acc] * 4
    assert np.array_equal(out, expected)


def test_data_dependent_while():
    steps = both_ways((12,), K.while_collatz, lambda: (np.zeros(12, np.int32), np.zeros(12, np.int32)))[1]

    def collatz(v):
        c = 0
        while v != 1:
            v = v // 2 if v % 2 == 0 else 3 * v + 1
            c += 1
        return c
    assert list(steps) == [collatz(b + 1) for b in range(12)]


def test_early_return():
    x = np.arange(16, dtype=np.float32)
    out = both_ways((4,), K.early_return, lambda: (x.copy(), np.full(16, -5, np.float32), 4))[1]
    assert np.array_equal(out[:8], x[:8] + 100) and np.all(out[8:] == -5)


def test_return_inside_loop():
    out = both_ways((10,), K.return_in_loop, lambda: (np.zeros(10, np.int32), 1))[0]
    assert list(out) == [b * 10 if b < 8 else -1 for b in range(10)]


def test_check_settings_from_environment(monkeypatch):
    from tilescope.backends.numpy.launcher import checks_from_env, parse_checks
    from tilescope.run import LaunchError
    assert parse_checks("") == {}
    assert parse_checks("none") == {"bounds": False, "races": False}
    assert parse_checks("strict") == {"bounds": True, "races": True, "strict": True, "poison": False,
                                      "uninit": False}
    assert parse_checks("races") == {"bounds": False, "races": True, "strict": False, "poison": False,
                                     "uninit": False}
    assert parse_checks("poison")["poison"] and parse_checks("all")["poison"]
    assert parse_checks("uninit")["uninit"] and parse_checks("all")["uninit"] and not parse_checks("")
    monkeypatch.setenv("TILESCOPE_CHECKS", "bounds,strict")
    assert checks_from_env() == {"bounds": True, "races": False, "strict": True, "poison": False, "uninit": False}
    with pytest.raises(LaunchError, match="unknown check"):
        parse_checks("bogus")


def test_values_first_made_at_a_break_live_after_the_loop():
    x = np.arange(16, dtype=np.float32)
    out = both_ways((4,), K.value_made_at_break, lambda: (x.copy(), np.zeros(16, np.float32), 4))[1]
    expected = np.concatenate([(x[4 * b:4 * b + 4] + b + 1) * 2 for b in range(4)])
    assert np.array_equal(out, expected)


def test_transpiled_module_handles_values_made_at_a_break(tmp_path):
    import importlib.util
    import tilescope
    from tilescope.backends.numpy.transpile import transpile
    c = tilescope.compile(K.value_made_at_break, "f32[16], f32[16], 4")
    path = tmp_path / "mod.py"
    path.write_text(transpile(c, "kernels_control.py", "f32[16], f32[16], 4"))
    spec = importlib.util.spec_from_file_location("mod", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    x = np.arange(16, dtype=np.float32)
    y1, y2 = np.zeros(16, np.float32), np.zeros(16, np.float32)
    mod.launch((4,), x, y1, 4)
    run_kernel((4,), K.value_made_at_break, (x, y2, 4))
    assert np.array_equal(y1, y2)


@ct.kernel
def spin_below(x, n: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, index=(i,), shape=(4,))
    while ct.sum(t) < n:                  # never ends for a tile summing below n
        t = t * 1.0
    ct.store(x, index=(i,), tile=t + 1)


@ct.kernel
def count_up(x, n: ct.Constant[int]):
    i = ct.bid(0)
    t = ct.load(x, index=(i,), shape=(4,))
    while ct.sum(t) < n:
        t = t + 1.0
    ct.store(x, index=(i,), tile=t)


def test_a_while_loop_that_never_ends_is_stopped_with_a_located_error():
    x = np.zeros(8, np.float32)
    with pytest.raises(ExecutionError, match="a while loop ran more than 50 iterations") as e:
        run_kernel((2,), spin_below, (x, 1), checks={"max_loop_iterations": 50})
    assert e.value.loc is not None and e.value.loc.line > 0
    assert not x.any()


def test_the_loop_limit_counts_one_loop_not_the_whole_launch():
    x = np.zeros(4 * 64, np.float32)           # 64 groups of one block, 10 iterations each
    run_kernel((64,), count_up, (x, 40), group=1, checks={"max_loop_iterations": 11})
    assert np.array_equal(x, np.full(4 * 64, 10, np.float32))
