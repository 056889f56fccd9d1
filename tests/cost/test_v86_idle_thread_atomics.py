"""Model version 86: a launch's tile atomic of fewer elements than the block's threads leaves some
threads without an element, and its lanes lie side by side as a dynamic build's: a sector's lanes
are one L2 operation. Set AR's (128,) float32 sums of 256 threads as launched ran at the dynamic
build's share (2.75x with the launch's 0.444); set X's (256,) tiles of 256 threads keep the
launch's (docs/cost-model.md history 144)."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.costmodel import atomics
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.model import predict
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_cost.py"))


def _launch(tile: int):
    spec = f"f32[4096,{tile}], f32[{tile}], i32[{tile}], {tile}, True"
    return tilescope.cost(KERNELS.row_grads_into_weights, spec, (4096,), "h200", aligned=True)


def _atomic(report):
    return next(a for a in report.counts.accesses if a.kind == "atomic")


@pytest.mark.parametrize("tile", [128, 256])
def test_a_launchs_lanes_share_sectors_where_threads_go_without(tile):
    a = _atomic(_launch(tile))
    assert atomics.lanes_along_rows(a) == "static"
    assert atomics.relaxed_share(a, "static", threads=tile) == pytest.approx(atomics.RELAXED_SHARE["static"])
    side_by_side = atomics.relaxed_share(a, "static", threads=2 * tile)
    assert side_by_side == pytest.approx(atomics.RELAXED_SHARE["runtime"] / atomics.lanes_a_sector(a))
    assert side_by_side < 0.3 * atomics.RELAXED_SHARE["static"]


def test_the_block_size_of_the_schedule_decides():
    report = _launch(128)
    facts = report.prediction.estimate
    h200 = gpu_named("h200")
    few = predict(report.counts, h200, tma=True, facts=dataclasses.replace(facts, threads=128)).terms["atomics"]
    many = predict(report.counts, h200, tma=True, facts=dataclasses.replace(facts, threads=256)).terms["atomics"]
    assert many < 0.5 * few
