"""The trace's work in C (trace.maps_c: the fold of tile accesses; trace.png_c: the cells'
palette codes) gives exactly what its NumPy passes give."""
import numpy as np
import pytest

from tilescope.backends.compiled import toolchain
from tilescope.trace import maps as M
from tilescope.trace import maps_c, png_c
from tilescope.trace.png import array_png
from tilescope.trace.recorder import ArrayRecord, TileEvents

pytestmark = pytest.mark.skipif(not toolchain.available(), reason="no C compiler")

FIELDS = ("wblock", "rblock", "wcount", "rcount", "flags", "op")


def _events(rng, ops, shape, n_events):
    """Random tile accesses: tilings alike in runs and not, reads and writes, several ops, tiles
    reaching past the array's end (padding) or lying wholly outside it, blocks meeting at tiles."""
    tilings = [tuple(int(rng.choice([1, 2, 3, 4, 8])) for _ in shape) for _ in range(2)]
    out = {}
    for e in range(n_events):
        tile = tilings[int(rng.integers(2))]
        order = tuple(rng.permutation(len(shape))) if rng.random() < 0.3 else tuple(range(len(shape)))
        tshape = tuple(tile[k] for k in range(len(shape)))
        counts = [-(-shape[order[k]] // tshape[k]) for k in range(len(shape))]
        n = int(rng.integers(1, 60))
        blocks = rng.integers(0, 40, n).astype(np.int32)
        index = [rng.integers(-1, c + 2, n).astype(np.int32) for c in counts]
        out[e] = TileEvents(ops[int(rng.integers(len(ops)))], bool(rng.random() < 0.5), tshape, order,
                            [blocks], [index], [np.zeros(n, np.int32)])
    return out


@pytest.mark.parametrize("seed", range(40))
def test_the_compiled_fold_gives_the_numpy_maps(seed, monkeypatch):
    rng = np.random.default_rng(seed)
    shape = [(37,), (9, 13), (3, 5, 6), (600, 300)][seed % 4]
    ops = [object() for _ in range(3)]
    rec = ArrayRecord("x", np.zeros(shape, np.float32), 0, _events(rng, ops, shape, int(rng.integers(1, 8))),
                      {}, bool(rng.random() < 0.5))
    op_index = {id(op): k for k, op in enumerate(ops)}
    folded, declined = [], []
    compiled_fold = maps_c.fold_tiles
    monkeypatch.setattr(maps_c, "fold_tiles", lambda *a: folded.append(compiled_fold(*a)) or folded[-1])
    compiled = M.build(rec, op_index)
    monkeypatch.setattr(maps_c, "fold_tiles", lambda *a: declined.append(False) or False)
    reference = M.build(rec, op_index)
    assert all(folded) and len(folded) == len(declined)      # each run the NumPy passes fold, C folded
    for name in FIELDS:
        assert np.array_equal(getattr(compiled, name), getattr(reference, name)), name


def test_a_race_and_padding_come_out_of_the_compiled_fold():
    """Two blocks writing one tile race; a read of a tile reaching past the end reads padding."""
    op = object()
    write = TileEvents(op, True, (4,), (0,), [np.array([1, 2], np.int32)], [[np.array([0, 0], np.int32)]],
                       [np.zeros(2, np.int32)])
    read = TileEvents(op, False, (4,), (0,), [np.array([3], np.int32)], [[np.array([1], np.int32)]],
                      [np.zeros(1, np.int32)])
    m = M.build(ArrayRecord("x", np.zeros(6, np.float32), 0, {0: write, 1: read}, {}, True), {id(op): 0})
    cells = m.flags.reshape(-1)
    assert (cells[:4] & M.RACE).all() and (m.wblock.reshape(-1)[:4] == 2).all()
    assert (cells[6:8] & M.PADDING).all() and not (cells[4:6] & M.PADDING).any()


@pytest.mark.parametrize("seed", range(30))
def test_the_compiled_cell_codes_give_the_numpy_pictures(seed, monkeypatch):
    """Random maps, every flag, one slice or several (a gap colour between them), some with no
    cell written or none read: the PNG is the same, byte for byte."""
    rng = np.random.default_rng(seed)
    shape = [(50,), (9, 13), (3, 5, 6), (40, 70)][seed % 4]
    m = M.build(ArrayRecord("x", np.zeros(shape, np.float32), 0), {})
    n = m.wblock.size
    kinds = seed % 3                                    # 0: none written, 1: none read, 2: both
    if kinds != 0:
        m.wblock[...] = np.where(rng.random(n) < 0.5, rng.integers(0, 30, n), -1).reshape(m.wblock.shape)
    if kinds != 1:
        m.rblock[...] = np.where(rng.random(n) < 0.6, rng.integers(0, 30, n), -1).reshape(m.rblock.shape)
    m.rcount[...] = rng.integers(0, 400, n).reshape(m.rcount.shape)
    m.flags[...] = (rng.integers(0, 64, n) * (rng.random(n) < 0.4)).reshape(m.flags.shape)
    calls = []
    compiled_codes = png_c.cell_codes
    monkeypatch.setattr(png_c, "cell_codes", lambda *a: calls.append(1) or compiled_codes(*a))
    compiled = array_png(m)
    assert calls
    monkeypatch.setattr(png_c, "cell_codes", lambda *a: None)
    assert compiled == array_png(m)


def test_a_tile_grid_past_what_a_thread_keeps_is_folded_alike(monkeypatch):
    """Scratch for more than TS_KEPT_TILES tiles is made per call (a 2048 x 1024 grid of single
    elements): the maps are NumPy's still."""
    op = object()
    rng = np.random.default_rng(7)
    n = 5000
    ev = TileEvents(op, False, (1, 1), (0, 1), [rng.integers(0, 50, n).astype(np.int32)],
                    [[rng.integers(0, 2048, n).astype(np.int32), rng.integers(0, 1024, n).astype(np.int32)]],
                    [np.zeros(n, np.int32)])
    rec = ArrayRecord("x", np.zeros((2048, 1024), np.float32), 0, {0: ev}, {}, False)
    folded = []
    compiled_fold = maps_c.fold_tiles
    monkeypatch.setattr(maps_c, "fold_tiles", lambda *a: folded.append(compiled_fold(*a)) or folded[-1])
    compiled = M.build(rec, {id(op): 0})
    assert folded == [True]
    monkeypatch.setattr(maps_c, "fold_tiles", lambda *a: False)
    reference = M.build(rec, {id(op): 0})
    assert compiled.rblock.max() >= 0
    for name in FIELDS:
        assert np.array_equal(getattr(compiled, name), getattr(reference, name)), name
