"""Runtime scalar values a launch passes (`values=`, `--values`, a traced launch): the build keeps
them runtime arguments, and the cost model counts the loops they bound exactly."""
import numpy as np
import pytest

import tilescope
import cuda.tile as ct
from tilescope.tools.cli import main

TILE = 16


@ct.kernel
def window_sum(X, Y, window: int, T: ct.Constant[int]):
    """Each block sums the tiles of a trailing window ending at its own."""
    b = ct.bid(0)
    acc = ct.zeros((T,), dtype=ct.float32)
    for j in range(max(0, b * T - window + 1) // T, b + 1):
        acc += ct.load(X, index=(j,), shape=(T,))
    ct.store(Y, index=(b,), tile=acc)


SPEC = f"f32[4096], f32[4096], i32, {TILE}"
GRID = (4096 // TILE,)


def _loads(report) -> float:
    return sum(a.executions for a in report.counts.accesses if a.kind == "load")


def _trips(window: int) -> int:
    return sum(b + 1 - max(0, b * TILE - window + 1) // TILE for b in range(GRID[0]))


def test_a_window_given_as_a_value_counts_each_blocks_trips():
    for window in (64, 1024):
        r = tilescope.cost(window_sum, SPEC, GRID, values={"window": window})
        assert _loads(r) == _trips(window)
        assert any("window=%d" % window in a for a in r.counts.assumptions)
    unknown = tilescope.cost(window_sum, SPEC, GRID)        # the widest window: every earlier tile
    assert _loads(unknown) == sum(b + 1 for b in range(GRID[0]))
    assert any("upper bound" in a and "`--values window=...`" in a for a in unknown.counts.assumptions)
    assert tilescope.cost(window_sum, SPEC, GRID, values={"window": 64}).predicted_us < unknown.predicted_us


@ct.kernel
def taps_sum(X, Y, taps: int, step: int, T: ct.Constant[int]):
    """Each block sums `taps` tiles of X, `step` tiles apart."""
    b = ct.bid(0)
    acc = ct.zeros((T,), dtype=ct.float32)
    for t in range(taps):
        acc += ct.load(X, index=(b + t * step,), shape=(T,))
    ct.store(Y, index=(b,), tile=acc)


def test_a_loop_a_runtime_scalar_bounds_names_it_until_its_value_is_given():
    spec = f"f32[4096], f32[256], i32, i32, {TILE}"
    unknown = tilescope.cost(taps_sum, spec, (256,))       # taken as the tiles its variable indexes
    note = [a for a in unknown.counts.assumptions if "loop bound" in a]
    assert len(note) == 1 and "'taps'" in note[0] and "`--values taps=...`" in note[0] and "'step'" not in note[0]
    given = tilescope.cost(taps_sum, spec, (256,), values={"taps": 4})
    assert not any("not given" in a for a in given.counts.assumptions)
    assert _loads(given) == 4 * 256


def test_the_build_keeps_a_given_value_a_runtime_argument():
    folded = tilescope.cost(window_sum, f"f32[4096], f32[4096], 64, {TILE}", GRID)
    given = tilescope.cost(window_sum, SPEC, GRID, values={"window": 64})
    assert _loads(folded) == _loads(given) == _trips(64)
    params = {p.name: p for p in given.counts.fn.params}
    assert not params["window"].is_constant and params["T"].is_constant


@pytest.mark.parametrize("values, message", [
    ({"T": 8}, "'T' is compiled into kernel 'window_sum' as the constant 16"),
    ({"windows": 8}, "no runtime scalar parameter 'windows' (its runtime scalars: 'window')"),
    ({"window": "8"}, "'window' must be a number"),
    ({"window": 8.5}, "'window' is an integer (int32) scalar of kernel 'window_sum', got 8.5"),
    ([("window", 8)], "expected a mapping"),
])
def test_values_the_kernel_cannot_take_are_named(values, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        tilescope.cost(window_sum, SPEC, GRID, values=values)


def test_an_integer_scalar_takes_a_whole_float_as_its_integer():
    assert _loads(tilescope.cost(window_sum, SPEC, GRID, values={"window": 64.0})) == _trips(64)


def test_the_cli_takes_values(capsys):
    base = ["cost", __file__, "--kernel", "window_sum", "--args", SPEC, "--grid", str(GRID[0]), "--no-cubin", "--format", "json"]
    assert main(base + ["--values", "window=64"]) == 0
    import json
    out = json.loads(capsys.readouterr().out)
    loads = sum(a["executions"] for a in out["accesses"] if a["kind"] == "load")
    assert loads == _trips(64) and any("window=64" in a for a in out["assumptions"])
    for bad, message in (("window", "give NAME=NUMBER pairs"), ("window=6x", "window=6x is not a number"),
                         ("size=3", "no runtime scalar parameter 'size'")):
        assert main(base + ["--values", bad]) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_traced_launch_costs_its_own_values(tmp_path):
    x = np.ones(4096, np.float32)
    y = np.zeros(4096, np.float32)
    tilescope.launch(GRID, window_sum, (x, y, 64, TILE), trace=str(tmp_path))
    page = (tmp_path / "01-window_sum" / "index.html").read_text()
    assert "window=64" in page
    np.testing.assert_array_equal(y[:TILE * 4], np.minimum(np.arange(4 * TILE) // TILE + 1, 4))


@ct.kernel
def clamped_taps(x, out, stride: int, width: int):
    """A row of pooling taps: each lane reads `ow * stride + k`, clamped into the row."""
    b = ct.bid(0)
    ow = b * 128 + ct.arange(128, dtype=ct.int32)
    acc = ct.full((128,), -1e30, dtype=ct.float32)
    for k in range(3):
        i = ct.maximum(ct.minimum(ow * stride + k, width - 1), 0)
        acc = ct.maximum(acc, ct.gather(x, i))
    ct.scatter(out, ct.minimum(ow, width - 1), acc)


def test_clamped_lanes_keep_their_step_and_a_given_stride_is_followed():
    spec, grid = "f32[65536], f32[65536], i32, i32", (512,)
    by_kind = lambda r: {a.kind: a for a in r.counts.accesses}          # noqa: E731
    unknown = by_kind(tilescope.cost(clamped_taps, spec, grid))
    # the stored index is a clamp of `ow` itself: its lanes run along the row with or without values
    assert unknown["scatter"].contiguous and not unknown["gather"].contiguous
    unit = tilescope.cost(clamped_taps, spec, grid, values={"stride": 1, "width": 65536})
    gather = by_kind(unit)["gather"]
    assert gather.contiguous and gather.dram_bytes <= 65536 * 4
    strided = tilescope.cost(clamped_taps, spec, grid, values={"stride": 2, "width": 65536})
    assert by_kind(strided)["gather"].lane_stride == 2
    # the build cannot prove clamped lanes contiguous: element loads, as tileiras's code has them
    assert unit.prediction.estimate.global_access_bytes == 4.0
