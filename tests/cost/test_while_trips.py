"""Version 20: a `while` loop whose stores follow its carried values (a persistent kernel's grid-stride
loop over a tile count read from memory) is taken to store each tile of its output once, the tiles
shared evenly by the blocks; other `while` loops still count one iteration. Both are noted."""
import os

import tilescope
from tilescope.costmodel.counts import count
from tilescope.launch_args import normalize_grid
from tilescope.lang.shim import load_file
from tilescope.meta import parse_args

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _counts(name, spec, grid):
    kernels = load_file(os.path.join(ROOT, "tests", "cost", "kernels_cost.py"))
    return count(tilescope.compile(getattr(kernels, name), parse_args(spec)).final, normalize_grid(grid))


def test_a_grid_stride_while_loop_walks_its_outputs_tiles():
    tiles = 132 * 10 + 5
    counts = _counts("while_stride_tiles", f"f32[{tiles * 1024}], i32[1], f32[{tiles * 1024}], 1024", (132,))
    loop = next(r for r in counts.regions if r.op is not None)
    assert set(loop.trips) == {11.0}                     # 1,325 tiles over 132 blocks, rounded up
    stored = sum(a.executions for a in counts.accesses if a.kind == "store")
    assert stored == 132 * 11
    assert any("grid-stride" in n and f"{tiles} tiles of 'y'" in n for n in counts.assumptions)


def test_a_while_loop_whose_stores_do_not_follow_it_counts_once():
    counts = _counts("while_halving", "i32[4096], i32[4096], 1", (4096,))
    loop = next(r for r in counts.regions if r.op is not None)
    assert set(loop.trips) == {1.0}
    assert any("while loop: counted as 1 iteration" in n for n in counts.assumptions)


def test_a_loop_bounded_by_a_runtime_argument_is_counted_once_and_exactly_when_given():
    unknown = _counts("scalar_bound_no_tiles", "f32[131072], f32[131072], i32, 1024", (128,))
    note = next(n for n in unknown.assumptions if "counted as 1 iteration" in n)
    assert "`--values n=...`" in note
    given = _counts("scalar_bound_no_tiles", "f32[131072], f32[131072], 40, 1024", (128,))
    loops = [r for r in given.regions if r.op is not None]
    assert not loops or set(loops[0].trips) == {40.0}
    assert given.total_work().fp32 == 40 * unknown.total_work().fp32


def test_a_window_start_past_a_runtime_width_is_its_earliest_start():
    # version 21: with the width at 0 the window would hold no tile; the bound taken is the loop's
    # largest (from tile 0), an upper bound, as min() of an unknown is counted at its other operand
    counts = _counts("window_rows", "f32[65536], f32[65536], i32, 256", (256,))
    loop = next(r for r in counts.regions if r.op is not None)
    assert list(loop.trips) == [b + 1 for b in range(256)]
    assert any("an upper bound" in n for n in counts.assumptions)
    given = _counts("window_rows", "f32[65536], f32[65536], 1024, 256", (256,))
    loop = next(r for r in given.regions if r.op is not None)
    assert list(loop.trips) == [min(b + 1, 4) for b in range(256)]


def test_a_loop_from_a_varying_start_over_a_known_span_counts_the_span():
    counts = _counts("split_k_sums", "f32[65536], f32[4096], 1024, 4, 16, 16", (128,))
    inner = next(r for r in counts.regions if r.depth == 2)
    assert set(inner.trips) == {32 * 16.0}              # 32 pairs a block, range(start, start + 16) each
    assert not any("counted as 1 iteration" in n for n in counts.assumptions)
    loads = sum(a.executions for a in counts.accesses if a.kind == "load")
    assert loads == 1024 * 4 * 16


def test_a_loop_whose_bounds_are_read_from_an_array_names_it_and_asks_for_no_values():
    counts = _counts("csr_row_sums", "i32[4097], f32[1048576], f32[1048576], 256", (4096,))
    note = next(n for n in counts.assumptions if "counted as 1 iteration" in n)
    assert "read from array 'indptr' at run time" in note
    assert "--values" not in note and "runtime argument" not in note


def test_a_tiled_views_loads_and_tile_count_are_counted_as_the_arrays_tiles():
    counts = _counts("view_sum", "f32[1000000], f32[1], 1024", (1,))
    loop = next(r for r in counts.regions if r.op is not None)
    assert set(loop.trips) == {977.0}                    # ceil(1,000,000 / 1,024)
    load = next(a for a in counts.accesses if a.kind == "load")
    assert (load.array, load.shape, load.executions) == ("x", (1024,), 977.0)
    assert load.pad_fraction > 0                         # the last tile runs past the array
    assert any(a.kind == "store" and a.array == "y" for a in counts.accesses)


def test_a_binary_search_counts_its_halvings():
    counts = _counts("group_of_tile", "i32[64], i32[4096], 64", (4096,))
    loop = next(r for r in counts.regions if r.op is not None)
    assert set(loop.trips) == {6.0}                      # 64 groups: 6 halvings
    assert any("bisection of a span of 64: counted as its 6 halvings" in n for n in counts.assumptions)
    loads = sum(a.executions for a in counts.accesses if a.kind == "load")
    assert loads == 4096 * 6
    small = _counts("group_of_tile", "i32[5], i32[4096], 5", (4096,))
    assert set(next(r for r in small.regions if r.op is not None).trips) == {3.0}     # ceil(log2 5)
