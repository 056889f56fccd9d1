"""Per-block tile indices recognised as a regular grid of tiles (tiles.regular_tiles): loads and
stores then use one strided view of the array instead of gathering tile by tile."""
import itertools

import numpy as np
import pytest

from tilescope.backends.numpy.tiles import blocks_to_grid, grid_to_blocks, regular_tiles


def _block_ids(grid):
    """(x, y, z) of every block of `grid`, x fastest."""
    return np.array([(x, y, z) for z, y, x in itertools.product(*(range(n) for n in reversed(grid)))])


@pytest.mark.parametrize("grid,components", [
    ((6, 1, 1), (0,)),                 # a row of blocks
    ((3, 4, 1), (0, 1)),               # (bid(0), bid(1))
    ((3, 4, 1), (1, 0)),               # (bid(1), bid(0)): the first component is the slow one
    ((2, 3, 4), (2, 0, 1)),            # (batch, bm, bn) on a 3-d grid
    ((2, 3, 4), (2, None, 1, 0)),      # with a fixed component in between
])
def test_grids_of_tiles_are_views(grid, components):
    ids = _block_ids(grid)
    index = [np.array([5]) if c is None else ids[:, c] + 1 for c in components]     # offset by one tile
    t = regular_tiles(index, len(ids))
    assert t is not None
    view = np.arange(np.prod([8] * len(index)) * 2).reshape((8,) * len(index) + (2,))    # tile view: (*tile idx, 2)
    gathered = view[tuple(np.broadcast_to(i, (len(ids),)) for i in index)]
    assert np.array_equal(grid_to_blocks(view[t.key], t), gathered)
    back = np.zeros_like(view)
    back[t.key] = blocks_to_grid(gathered, t, 1)
    want = np.zeros_like(view)
    want[tuple(np.broadcast_to(i, (len(ids),)) for i in index)] = gathered
    assert np.array_equal(back, want)


def test_irregular_indices_are_not():
    ids = _block_ids((4, 2, 1))
    nb = len(ids)
    assert regular_tiles([ids[:, 0][::-1].copy()], nb) is None                 # descending
    assert regular_tiles([ids[:, 0] * 2], nb) is None                          # every other tile
    assert regular_tiles([ids[:, 0], ids[:, 0]], nb) is None                   # the same pace twice
    assert regular_tiles([ids[:, 0]], nb) is None                              # repeats: blocks share tiles


@pytest.mark.numpy_executor
def test_components_are_analysed_once_per_index_array(monkeypatch):
    from tilescope.backends.numpy import tiles
    ids = _block_ids((4, 3, 1))
    rows, cols = ids[:, 0].copy(), ids[:, 1].copy()
    want = [regular_tiles([rows, np.array([k]), cols], len(ids)) for k in range(3)]
    calls = []
    real = tiles._component
    monkeypatch.setattr(tiles, "_component", lambda i, nb: calls.append(id(i)) or real(i, nb))
    seen = {}
    for k in range(3):                       # a loop: the same block indices, a new loop index
        t = regular_tiles([rows, np.array([k]), cols], len(ids), seen)
        assert t == want[k] and t.key == (slice(0, 4), k, slice(0, 3))
    assert calls.count(id(rows)) == 1 and calls.count(id(cols)) == 1
