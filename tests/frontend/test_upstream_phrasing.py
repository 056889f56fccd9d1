"""Front-end behaviour matched to upstream cuTile's own tests (see docs/conformance.md):
argument-error phrasing, dtype objects called as constructors, operator-module combiners,
and launch arguments (frozen dataclasses, annotated tuples)."""
import dataclasses
import operator

import numpy as np
import pytest

import tilescope
import tilescope.lang as ct
from tilescope.backends.numpy.launcher import run_kernel
from tilescope.errors import TileTypeError


@ct.kernel
def full_runtime_shape(x, n):
    ct.store(x, (0,), ct.full((n,), 1.0, ct.float32))


@ct.kernel
def arange_float_size(x):
    ct.store(x, (0,), ct.arange(16.0, dtype=ct.float32))


@ct.kernel
def sum_bad_axis(x):
    ct.store(x, (0,), ct.sum(ct.load(x, (0,), (16,)), axis=3))


@ct.kernel
def mixed_halves(x, y):
    ct.store(x, (0,), ct.load(x, (0,), (16,)) + ct.load(y, (0,), (16,)))


@pytest.mark.parametrize("kernel,args,message", [
    (full_runtime_shape, "f32[16], i32",
     'Invalid argument "shape" of full(): Expected a constant integer tuple, but given value is not constant'),
    (arange_float_size, "f32[16]", "Invalid argument #1 of arange(): Expected an integer constant"),
    (sum_bad_axis, "f32[16]", "Axis 3 is out of range for rank 1"),
    (mixed_halves, "f16[16], bf16[16]", "Implicit promotion of float16 and bfloat16 is not supported"),
])
def test_upstream_argument_phrasing(kernel, args, message):
    with pytest.raises(TileTypeError) as ei:
        tilescope.compile(kernel, args)
    assert message in ei.value.message


@ct.kernel
def numpy_dtype_calls(x):
    ct.store(x, (0,), ct.full((16,), np.float16(1.5) + ct.float16() + ct.float16(np.int8(2.7)), np.float16))


@ct.kernel
def dtype_call_on_tuple(x):
    ct.store(x, (0,), ct.full((16,), np.float32((1, 2)), np.float32))


def test_dtype_objects_construct_typed_constants():
    c = tilescope.compile(numpy_dtype_calls, "f16[16]")
    assert c.stored_types() == ["Tile[float16,(16)]"]
    x = np.zeros(16, np.float16)
    run_kernel((1,), numpy_dtype_calls, (x,))
    assert (x == 3.5).all()            # int8(2.7) is 2, as Python's int()
    with pytest.raises(TileTypeError, match="Invalid argument type for float32"):
        tilescope.compile(dtype_call_on_tuple, "f32[16]")


@ct.kernel
def operator_combiner(x):
    t = ct.load(x, (0,), (16,))
    ct.store(x, (0,), t * 0 + ct.reduce(t, 0, operator.add, 0.0))


def test_operator_functions_on_tiles():
    x = np.arange(16, dtype=np.float32)
    run_kernel((1,), operator_combiner, (x,))
    assert (x == 120).all()


@dataclasses.dataclass(frozen=True)
class Scaled:
    data: object
    factor: float


@dataclasses.dataclass
class Thawed:
    data: object


@ct.kernel
def scale(arg, out):
    ct.store(out, (0,), ct.load(arg.data, (0,), (8,)) * arg.factor)


@ct.kernel
def partial_const(a, out, cfg: tuple[ct.Constant[int], int]):
    ct.store(out, (0,), ct.load(a, (0,), (cfg[0],)) + cfg[1])


def test_launch_arguments_dataclass_and_annotated_tuple():
    a, out = np.arange(8, dtype=np.float32), np.zeros(8, np.float32)
    run_kernel((1,), scale, (Scaled(a, 2.0), out))
    assert (out == 2 * a).all()
    with pytest.raises(TileTypeError, match="Only frozen dataclasses are supported"):
        run_kernel((1,), scale, (Thawed(a), out))
    ai, oi = np.arange(8, dtype=np.int32), np.zeros(8, np.int32)
    run_kernel((1,), partial_const, (ai, oi, (8, 5)))
    assert (oi == ai + 5).all()
    with pytest.raises(TypeError, match="Received a tuple of length 3 for a parameter annotated as a "
                                        "tuple of length 2"):
        run_kernel((1,), partial_const, (ai, oi, (8, 5, 1)))
