"""Version 29: the rows a tile's element-by-element code walks. A tile of whole rows of its array
is one longer run of memory only where the tile's leading axes are 1, and a dynamically shaped
build walks a warp's lanes down the tile's own rows whether or not they are whole rows; the
few-rows rule reads a tile of any rank by its axes longer than 1."""
import cuda.tile as ct
import pytest

import tilescope
from tilescope.costmodel import model


@ct.kernel
def copy_rows(x, y, TM: ct.Constant[int], TN: ct.Constant[int]):
    i = ct.bid(0)
    ct.store(y, index=(i, 0), tile=ct.load(x, index=(i, 0), shape=(TM, TN)))


@ct.kernel
def copy_first_halves(x, y, TM: ct.Constant[int]):
    """Of each of TM heads [2, 64] of a token, the first half (a rotary embedding's access)."""
    i = ct.bid(0)
    ct.store(y, index=(i, 0, 0, 0), tile=ct.load(x, index=(i, 0, 0, 0), shape=(1, TM, 1, 64)))


def _access(report, kind):
    return next(a for a in report.counts.accesses if a.kind == kind)


def test_a_tile_of_heads_half_of_each_is_runs_of_a_half_not_one_run():
    r = tilescope.cost(copy_first_halves, "f32[4096, 16, 2, 64], f32[4096, 16, 2, 64], 16", (4096,))
    load = _access(r, "load")
    assert (load.rows, load.row_bytes) == (16, 64 * 4)         # 16 runs of one half each
    whole = tilescope.cost(copy_rows, "f32[65536, 128], f32[65536, 128], 32, 128", (2048,))
    assert (_access(whole, "load").rows, _access(whole, "load").row_bytes) == (1, 32 * 128 * 4)


def test_element_by_element_code_walks_a_whole_row_tiles_own_rows():
    spec = "f32[65536, 128], f32[65536, 128], 32, 128"
    dynamic = tilescope.cost(copy_rows, spec, (2048,), aligned=False)
    launched = tilescope.cost(copy_rows, spec, (2048,))
    load = _access(dynamic, "load")
    assert load.spans_rows
    # the 2-D law at the tile's 512-byte rows, not the whole tile as one run; vector code streams
    assert model._stream_efficiency(load, False, model.H200, 1.0) == pytest.approx(model.H200.row_efficiency[1][1])
    assert model._stream_efficiency(load, False, model.H200, 4.0) == 1.0
    assert dynamic.prediction.terms["memory"] > 5 * launched.prediction.terms["memory"]


def test_the_few_rows_rule_reads_a_tile_of_any_rank_by_its_longer_axes():
    four = tilescope.cost(copy_first_halves, "f32[4096, 16, 2, 64], f32[4096, 16, 2, 64], 16", (4096,),
                          aligned=False)
    two = tilescope.cost(copy_rows, "f32[65536, 128], f32[65536, 128], 16, 64", (4096,), aligned=False)
    e4 = model._stream_efficiency(_access(four, "load"), False, model.H200)
    e2 = model._stream_efficiency(_access(two, "load"), False, model.H200)
    assert e4 == pytest.approx(e2) and e4 > 2 * model.H200.row_efficiency[0][1]
