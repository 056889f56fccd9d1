"""Quick, seeded differential fuzzing of the front end and the CPU executor (the CI profile).

Properties (see tests/fuzz/harness.py):
1. the front end accepts a kernel or raises a located TileError inside the kernel's file, in
   bounded time; parse_args/MetaTensor raise only one-line ValueError/TypeError; launch rejects
   bad arguments with TileError/LaunchError/ValueError/TypeError and writes nothing then;
2. accepted kernels run, and vectorised execution equals one-block-at-a-time execution bit for bit;
3. with upstream cuda-tile installed: same accept/reject, error class and stored tile types;
4. compile-time Python: the restricted evaluator agrees with Python on expressions
   (tests/fuzz/pyexpr.py) and on helper functions of random statements (tests/fuzz/pyfunc.py).

The long profile is `python bench/fuzz.py --examples 100000`.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tests.fuzz import driver, gen as G, harness as H, pyexpr, pyfunc



def quick(n: int) -> settings:
    return settings(max_examples=n, derandomize=True, deadline=None, database=None, print_blob=False,
                    suppress_health_check=list(HealthCheck))


def _check(outcome: driver.Outcome) -> None:
    if outcome.failure is not None:
        pytest.fail(outcome.failure, pytrace=False)


@quick(100)
@given(st.data())
def test_generated_kernels_compile_and_run_both_ways(data):
    kernel = G.generate(G.HypothesisDraw(data))
    _check(driver.check_kernel(kernel))


@quick(100)
@given(st.data())
def test_mutated_kernels_fail_cleanly(data):
    draw = G.HypothesisDraw(data)
    _check(driver.check_mutant(G.generate(draw), draw))


@quick(100)
@given(st.data())
def test_parse_args_and_metatensor_garbage(data):
    draw = G.HypothesisDraw(data)
    _check(driver.check_parse_args(draw))
    _check(driver.check_meta_tensor(draw))


@quick(40)
@given(st.data())
def test_compile_and_launch_garbage(data):
    draw = G.HypothesisDraw(data)
    kernel = G.generate(draw)
    _check(driver.check_compile_garbage(kernel, draw))
    _check(driver.check_launch_garbage(kernel, draw))


@quick(300)
@given(st.data())
def test_compile_time_python_agrees_with_python(data):
    """tilescope.pyeval gives Python's value or error, refuses escapes and stops runaways."""
    _check(pyexpr.check(G.HypothesisDraw(data)))


@quick(60)
@given(st.data())
def test_compile_time_functions_agree_with_python(data):
    """Helper functions of random statements: the evaluator interprets them as Python runs them."""
    _check(pyfunc.check(G.HypothesisDraw(data)))


@pytest.fixture(scope="module")
def oracle():
    if not H.upstream_available():
        pytest.skip("upstream cuda-tile is not installed: property 3 (agreement with upstream) not checked")
    o = H.UpstreamOracle()
    yield o
    o.close()


@quick(20)
@given(data=st.data())
def test_upstream_agrees(oracle, data):
    draw = G.HypothesisDraw(data)
    kernel = G.generate(draw)
    _check(driver.check_kernel(kernel, oracle, execute=False))
    _check(driver.check_mutant(kernel, draw, oracle))


def test_values_with_nan_dictionary_keys_compare_the_same():
    # (seed 0 example 44061: {nan: nan} from the evaluator and from Python were reported as
    # different, NaN keys never being equal)
    from tests.fuzz.pyexpr import _same
    nan = float("nan")
    assert _same({nan: nan, -1: 0}, {float("nan"): float("nan"), -1: 0})
    assert _same({1.0, nan}, {float("nan"), 1.0})
    assert not _same({nan: 1}, {nan: 2}) and not _same({1, nan}, {2, nan}) and not _same({-1: 0}, {-2: 0})
