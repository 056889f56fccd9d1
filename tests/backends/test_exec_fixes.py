"""CPU executor regressions found by running upstream cuTile's own tests (docs/conformance.md).

Every kernel also runs one block at a time; the vectorised run must agree bit for bit.
"""
import io

import numpy as np
import pytest

import tilescope.lang as ct
from tilescope.backends.numpy.executor import ExecutionError
from tilescope.backends.numpy.launcher import run_kernel
from tests.backends import kernels_exec_fixes as K


def both_ways(grid, kernel, make_args):
    a1 = make_args()
    run_kernel(grid, kernel, a1)
    a2 = make_args()
    run_kernel(grid, kernel, a2, sequential=True)
    for x, y in zip(a1, a2):
        if isinstance(x, np.ndarray):
            assert np.array_equal(x, y, equal_nan=True)
    return a1


def test_if_chooses_a_different_array_per_block():
    x, y = both_ways((6,), K.array_if_else, lambda: (np.zeros(3, np.int32), np.zeros(3, np.int32)))
    assert x.tolist() == [10, 12, 14]
    assert y.tolist() == [11, 13, 15]


def test_array_chosen_per_block_is_loaded_and_its_shape_read():
    x = np.arange(8, dtype=np.float32)
    y = np.arange(8, dtype=np.float32) * 10
    out = both_ways((2,), K.array_if_else_shape, lambda: (x, y, np.zeros(8, np.float32)))[2]
    assert out.tolist() == (x[:4] + 8).tolist() + (y[:4] + 8).tolist()


def test_loop_carries_an_array_reference():
    x = np.full(4, 1, np.float32)
    y = np.full(4, 2, np.float32)
    out = both_ways((3,), K.array_loop_carried, lambda: (x, y, np.zeros(12, np.float32)))[2]
    assert out.tolist() == [1] * 4 + [2] * 8


def test_helper_wrapped_by_a_functools_wraps_decorator_runs_the_wrapper():
    y = np.zeros((), np.int32)
    run_kernel((1,), K.decorated_helper, (y,))
    assert int(y) == 80


def test_lambdas_made_in_a_comprehension_see_its_variable():
    y = np.zeros(3, np.int32)
    run_kernel((1,), K.comprehension_lambdas, (y,))
    assert y.tolist() == [2, 2, 2]      # Python's late binding of the comprehension's own x


def test_torch_dtype_as_constant_argument_is_the_cutile_dtype():
    torch = pytest.importorskip("torch")
    for c, expected in ((torch.float32, [1, 0]), (torch.int32, [0, 1]), (ct.float32, [1, 0])):
        out = np.full(2, -1, np.int32)
        run_kernel((1,), K.constant_dtype_arg, (c, out))
        assert out.tolist() == expected


def test_failed_assert_prints_one_line_with_its_message():
    x = np.ones(8, np.int32)
    x[5] = 0
    buf = io.StringIO()
    with pytest.raises(ExecutionError, match="x must be positive"):
        run_kernel((2,), K.assert_with_message, (x, 4), out=buf)
    lines = [l for l in buf.getvalue().splitlines() if l]
    assert len(lines) == 1 and "x must be positive" in lines[0] and "block (1, 0, 0)" in lines[0]


def test_grid_dimensions_are_padded_with_ones_even_from_an_empty_tuple():
    x = np.zeros(8, np.float32)
    for grid in [(), (1,), (1, 1), (1, 1, 1)]:
        run_kernel(grid, K.add_one, (x, 8))
    assert x.tolist() == [4] * 8


@pytest.mark.parametrize("grid,message", [
    ((2 ** 24, 1, 1), r"Grid\[0\] exceeds 24-bit limit: max=16777215, got=16777216"),
    ((1, 65536), r"Grid\[1\] is too big: max=65535, got=65536"),
    ((1, 1, 1, 1), r"Grid dimensions must be at most 3"),
])
def test_grid_limits_as_upstream(grid, message):
    with pytest.raises(ValueError, match=message):
        run_kernel(grid, K.add_one, (np.zeros(8, np.float32), 8))


def test_wrong_number_of_kernel_arguments_is_a_type_error():
    with pytest.raises(TypeError, match="Kernel expects 2 arguments but 1 was given"):
        run_kernel((1,), K.add_one, (np.zeros(8, np.float32),))
    with pytest.raises(TypeError, match="Kernel expects 2 arguments but 3 were given"):
        run_kernel((1,), K.add_one, (np.zeros(8, np.float32), 8, 9))
