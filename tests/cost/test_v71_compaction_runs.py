"""Model version 71: a scatter whose index is a running count of a mask (a stream compaction, a
partition by a bit: `base + cumsum(m) - m` and `base + arange - (cumsum(m) - m)`) writes runs of
consecutive elements, full sectors, not a sector an element (docs/cost-model.md history 112: set
AE's radix-sort scatter, 3.13x and 2.47x)."""
import os

import tilescope
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_compaction.py"))
N = 1 << 24


def _scatter(kernel, args):
    report = tilescope.cost(kernel, args, (N // 1024,), "h200")
    (acc,) = [a for a in report.counts.accesses if a.kind == "scatter"]
    return acc, report


def test_a_partition_by_a_bit_writes_whole_sectors():
    acc, _ = _scatter(KERNELS.partition_by_bit, f"i32[{N}], i32[{N}], i32[{N // 1024}], i32, 1024")
    assert acc.contiguous
    assert acc.dram_bytes == N * 4                  # each element written once, no sector wasted


def test_data_placed_lanes_and_running_sums_of_other_counts_are_not_runs():
    by_table, _ = _scatter(KERNELS.scatter_by_table, f"i32[{N}], i32[{N}], i32[{N}], 1024")
    by_sum, _ = _scatter(KERNELS.scatter_by_running_sum, f"i32[{N}], i32[{N}], i32[{N}], 1024")
    for acc in (by_table, by_sum):
        assert not acc.contiguous and acc.dram_bytes == N * 32      # a sector an element


def test_the_partition_is_predicted_at_its_bytes_rate():
    _, runs = _scatter(KERNELS.partition_by_bit, f"i32[{N}], i32[{N}], i32[{N // 1024}], i32, 1024")
    _, scattered = _scatter(KERNELS.scatter_by_table, f"i32[{N}], i32[{N}], i32[{N}], 1024")
    assert runs.predicted_us < 0.5 * scattered.predicted_us
