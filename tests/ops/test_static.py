"""ensure_constant, assume_divisible_by, grid dependency control and static_eval on run-time values."""
import pytest

import tilescope
import tilescope.lang as ct
from tilescope.errors import StaticException, TileStaticAssertionError, TileTypeError, TileUnsupportedFeatureError


def ops_named(compiled, name):
    return [op for op in compiled.final.walk() if op.name == name]


@ct.kernel
def ensure_folds(x, N: ct.Constant[int]):
    if ct.ensure_constant(N > 8):
        t = ct.load(x, index=(0,), shape=(N,))
    else:
        t = ct.zeros((N,), dtype=ct.float32)
    ct.store(x, index=(0,), tile=t)


@ct.kernel
def ensure_runtime(x, n):
    ct.ensure_constant((1, n))


def test_ensure_constant():
    c = tilescope.compile(ensure_folds, "f32[64], 16")
    assert not ops_named(c, "if")
    with pytest.raises(TileStaticAssertionError, match="Argument of ensure_constant\\(\\) is not a compile-time"):
        tilescope.compile(ensure_runtime, "f32[64], i32")


@ct.kernel
def assume(x, n):
    m = ct.assume_divisible_by(n, 16)
    k = ct.assume_divisible_by(32, 16)
    ct.store(x, index=(0,), tile=ct.full((16,), m + k, dtype=ct.float32))


def test_assume_divisible_by_emits_a_fact():
    c = tilescope.compile(assume, "f32[16], i64")
    [op] = ops_named(c, "assume")
    assert op.attrs["divisor"] == 16
    assert str(op.result.type) == "Tile[int64,()]"


@pytest.mark.parametrize("call,cls,msg", [
    ("ct.assume_divisible_by(33, 16)", TileTypeError, "Value 33 is not divisible by 16"),
    ("ct.assume_divisible_by(n, 0)", TileTypeError, "requires a positive divisor, got 0"),
    ("ct.assume_divisible_by(1.0, 4)", TileTypeError, "requires an integer scalar, got Tile\\[float32,\\(\\)\\]"),
    ("ct.grid_dependency_control_wait()", TileUnsupportedFeatureError, "requires tileiras 13.4 or later"),
    ("ct.grid_dependency_control_launch_dependents()", TileUnsupportedFeatureError, "13.4 or later"),
])
def test_static_helper_errors(tmp_path, call, cls, msg):
    from tilescope.lang.shim import load_file
    src = tmp_path / "k.py"
    src.write_text(f"import cuda.tile as ct\n\n@ct.kernel\ndef k(x, n):\n    {call}\n")
    with pytest.raises(cls, match=msg):
        tilescope.compile(load_file(str(src)).k, "f32[16], i32", tileiras_version="13.3")


@ct.kernel
def static_eval_builds_ir(x, n):
    t = ct.load(x, index=(0,), shape=(64,))
    v = ct.static_eval(-t * 2 + 1)
    ct.store(x, index=(0,), tile=v)


@ct.kernel
def static_assert_runtime(x, n):
    ct.static_assert(n > 0)


@ct.kernel
def static_eval_raises(x, n):
    ct.static_eval(1 // 0)


def test_static_eval_on_run_time_values():
    c = tilescope.compile(static_eval_builds_ir, "f32[64], i32")
    assert c.stored_types() == ["Tile[float32,(64)]"]
    with pytest.raises(TileTypeError, match="must be a compile-time constant"):
        tilescope.compile(static_assert_runtime, "f32[64], i32")
    with pytest.raises(StaticException, match="ZeroDivisionError"):
        tilescope.compile(static_eval_raises, "f32[64], i32")


@ct.kernel
def static_iter_unrolls(x):
    t = ct.load(x, index=(0,), shape=(64,))
    acc = ct.zeros((64,), dtype=ct.float32)
    for k in ct.static_iter(range(3)):
        acc = acc + t * (k + 1)
    ct.store(x, index=(0,), tile=acc)


def test_static_iter_unrolls_without_loop_ops():
    c = tilescope.compile(static_iter_unrolls, "f32[64]")
    assert not ops_named(c, "for") and not ops_named(c, "loop")
