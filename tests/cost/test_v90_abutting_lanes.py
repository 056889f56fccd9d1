"""Model version 90 (docs/cost-model.md history 154):
- element by element, a scatter whose lanes go down rows one element apart (a channels-last tile's
  channels) writes several lanes a line, as a gather of such rows reads them: set AX's channels-last
  copy, charged a line a lane, came to 3.17x;
- the spill areas L2 must hold are those of the blocks the grid has, where it has fewer than the SMs
  hold: set BB's lone block of a 1024x1024 float32 reduction had its reloads charged DRAM's round
  trip for 132 blocks' spill areas (3.32x)."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.costmodel import row_lines, schedule
from tilescope.costmodel.cubin_facts import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_abutting.py"))
H100 = gpu_named("h100")


def _accesses():
    spec = "bf16[8028160], bf16[8028160], 80, 196, 16, 256"
    counts = tilescope.cost(KERNELS.channels_last_copy, spec, (1, 5, 1), "h100").counts
    return {a.kind: a for a in counts.accesses}


def test_a_scatter_down_abutting_rows_writes_several_lanes_a_line():
    acc = _accesses()
    gather, scatter = acc["gather"], acc["scatter"]
    assert scatter.lane_pitch == scatter.itemsize == 2
    assert row_lines.abutting_lanes(scatter)
    instructions = scatter.executions * scatter.elements / 32
    # 32 lanes of 2 bytes: one line an instruction, as the gather of the same rows reads
    assert row_lines.row_lines(scatter, 1.0, False) == pytest.approx(instructions)
    assert row_lines.row_lines(gather, 1.0, False) == pytest.approx(instructions)
    # the same rows 64 bytes apart keep a line a lane
    apart = dataclasses.replace(scatter, lane_pitch=64)
    assert row_lines.row_lines(apart, 1.0, False) == pytest.approx(32 * instructions)


def test_abutting_lanes_write_their_bytes_a_line_at_the_faster_rate():
    scatter = _accesses()["scatter"]
    n = row_lines.row_lines(scatter, 1.0, False)
    abutting = row_lines.row_lines_us([(scatter, n)], H100)
    apart = row_lines.row_lines_us([(dataclasses.replace(scatter, lane_pitch=64), n)], H100)
    assert row_lines.line_bytes(scatter) == 64
    assert abutting < apart


SPILLED = CubinFacts("reduce", threads=256, registers=255, shared_bytes=17408, local_bytes=5520,
                     instructions=182728, global_loads=8192, global_stores=8, local_loads=13112,
                     local_stores=8872, tma_loads=0, tma_stores=0, global_access_bytes=4.0,
                     loads_in_flight=3.07, global_load_bytes=4.0, local_load_waits=8436, reload_bytes=5520,
                     called_instructions=0, loop_instructions=0, loop_shared_ops=0, loop_local_clocks=0,
                     loop_loads=None, loop_load_waits=None)


def test_a_lone_blocks_spills_fit_l2():
    # 1.4 MB of spills a block: 132 blocks' do not fit L2, one block's does
    assert schedule.spills_beyond_l2(SPILLED, 1, H100) > 0.5
    assert schedule.spills_beyond_l2(SPILLED, 1, H100, blocks=1) == 0.0
    assert schedule.spills_beyond_l2(SPILLED, 1, H100, blocks=1000) == schedule.spills_beyond_l2(SPILLED, 1, H100)
    lone = schedule.reload_wait_us(SPILLED, 1, H100, 0.16, 0.6, 116_000, blocks=1)
    full = schedule.reload_wait_us(SPILLED, 1, H100, 0.16, 0.6, 116_000)
    assert lone == pytest.approx(0.16) and full > 0.4


def test_a_lone_blocks_streamed_spills_stay_in_l2():
    # the streamed float32-product spill law counts the grid's blocks too, as the reload waits do
    streamed = dataclasses.replace(SPILLED, loop_local_clocks=4000)
    full = schedule.spill_stream_us(streamed, H100, 1, 1, 25_000)
    assert full > 0.0
    assert schedule.spill_stream_us(streamed, H100, 1, 1, 25_000, blocks=1) == 0.0
    assert schedule.spill_stream_us(streamed, H100, 1, 1, 25_000, blocks=1000) == full
