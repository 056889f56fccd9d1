"""Traced launches run on the compiled CPU backend, which logs each block's accesses
(backends/compiled/trace_log.py): the trace must record exactly what the NumPy executor's
access-by-access recording does, and the arrays must end the same."""
import os

import numpy as np
import pytest

import tilescope.trace as trace
from tilescope.backends.compiled import engine, trace_log
from tilescope.backends.numpy.launcher import run_kernel
from tilescope.lang.shim import load_file

from .test_trace import page_data

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
K = load_file(os.path.join(ROOT, "tests", "trace", "kernels_trace.py"))
f32 = np.float32
_rng = np.random.default_rng(7)
_A, _B = _rng.standard_normal((64, 128)).astype(f32), _rng.standard_normal((128, 16)).astype(f32)

CASES = {
    "tiles": ((4,), lambda: K.copy_tiles, lambda: (np.arange(256, dtype=f32), np.zeros(256, f32), 64)),
    "partial tiles": ((5,), lambda: K.copy_tiles, lambda: (np.arange(300, dtype=f32), np.zeros(300, f32), 64)),
    "loop": ((8,), lambda: K.row_sums, lambda: (np.ones((8, 100), f32), np.zeros(8, f32), 32)),
    "tiles out of bounds": ((4,), lambda: K.shifted_copy,
                            lambda: (np.arange(256, dtype=f32), np.zeros(256, f32), 64, 2, 3)),
    "unchecked gather": ((4,), lambda: K.gather_past_end, lambda: (np.arange(256, dtype=f32), np.zeros(256, f32), 64)),
    "masked gather and scatter": ((5,), lambda: K.masked_gather,
                                  lambda: (np.arange(600, dtype=f32), np.zeros(300, f32), 290, 64)),
    "atomics": ((8,), lambda: K.histogram, lambda: ((np.arange(512) * 7 % 50).astype(np.int32),
                                                    np.zeros(50, np.int32), 64)),
    "split-K product": ((4, 4), lambda: K.split_k, lambda: (_A.copy(), _B.copy(), np.zeros((64, 16), f32), 32)),
}


@pytest.fixture
def recorders(monkeypatch):
    """The recorder of each traced launch, as its page is written."""
    seen = []
    write = trace.TraceSession.write

    def keep(self, recorder, *a, **k):
        seen.append(recorder)
        return write(self, recorder, *a, **k)
    monkeypatch.setattr(trace.TraceSession, "write", keep)
    return seen


def events(recorder):
    """Per array: whether written, and the set of (line, kind, block, occurrence, where) of
    its tile and lane accesses."""
    out = {}
    for r in recorder.arrays.values():
        got = set()
        for ev in r.tiles.values():
            idx = [np.concatenate([i[k] for i in ev.index]) for k in range(len(ev.shape))]
            for row in zip(np.concatenate(ev.blocks).tolist(), np.concatenate(ev.occurrence).tolist(),
                           *[i.tolist() for i in idx]):
                got.add((ev.op.loc.line, "write" if ev.write else "read", ev.shape) + row)
        for ev in r.lanes.values():
            cs = [np.concatenate([c[k] for c in ev.coords]) for k in range(len(ev.coords[0]))]
            for row in zip(np.concatenate(ev.blocks).tolist(), np.concatenate(ev.occurrence).tolist(),
                           *[c.tolist() for c in cs]):
                got.add((ev.op.loc.line, ev.kind) + row)
        out[r.name] = (r.written, got)
    return out


@pytest.mark.parametrize("checks", [None, {"bounds": False, "races": False}], ids=["checked", "unchecked"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_compiled_trace_records_what_the_executor_records(case, checks, tmp_path, recorders, capsys):
    grid, kernel, make = CASES[case]
    runs = []
    for eng in ("numpy", "compiled"):
        args = make()
        run_kernel(grid, kernel(), args, trace=str(tmp_path / eng), engine=eng, checks=checks)
        runs.append((events(recorders[-1]), [a for a in args if isinstance(a, np.ndarray)]))
        if eng == "compiled":
            assert "declined" not in engine.last_launch()
    (ev_numpy, out_numpy), (ev_compiled, out_compiled) = runs
    assert ev_compiled == ev_numpy
    assert any(got for _, got in ev_compiled.values())
    for a, b in zip(out_numpy, out_compiled):
        np.testing.assert_array_equal(a, b)


def test_a_compiled_trace_page_does_not_say_races_went_unchecked(tmp_path, capsys):
    run_kernel((4,), K.copy_tiles, (np.arange(256, dtype=f32), np.zeros(256, f32), 64), trace=str(tmp_path),
               engine="compiled")
    with open(tmp_path / "01-copy_tiles" / "index.html") as f:
        assert "race checks were off" not in f.read()


def test_accesses_past_the_log_are_counted_and_said(tmp_path, monkeypatch, capsys):
    # one chunk of room: block 0's load takes it, its store finds no room; the loads of blocks
    # 1…63 fill the chunk; every later access is lost
    monkeypatch.setattr(trace_log, "LOG_ENTRIES", trace_log.LOG_CHUNK)
    y = np.zeros(100 * 16, f32)
    run_kernel((100,), K.copy_tiles, (np.arange(100 * 16, dtype=f32), y, 16), trace=str(tmp_path),
               engine="compiled", threads=1)
    np.testing.assert_array_equal(y, np.arange(100 * 16))     # the launch itself is whole
    lost = 2 * 100 - trace_log.LOG_CHUNK
    with open(tmp_path / "01-copy_tiles" / "index.html") as f:
        assert f"{lost} accesses made past the end of the trace log ({trace_log.LOG_CHUNK} entries) are not drawn" \
            in f.read()


def test_a_compiled_launch_that_fails_still_gets_its_page(tmp_path, capsys):
    x = np.arange(256, dtype=f32)
    with pytest.raises(Exception, match="bid too big"):
        run_kernel((4,), K.stop_at_two, (x, 64), trace=str(tmp_path), engine="compiled")
    np.testing.assert_array_equal(x, np.arange(256))          # put back as before the launch
    data = page_data(tmp_path / "01-stop_at_two" / "index.html")
    assert data["arrays"] and data["arrays"][0]["name"] == "x"
    with open(tmp_path / "01-stop_at_two" / "index.html") as f:
        assert "the launch failed" in f.read()


def test_the_pictures_do_not_depend_on_the_order_accesses_were_recorded_in(tmp_path, recorders, capsys):
    # compiled threads log blocks interleaved, the executor by groups: a cell's first reader and
    # last writer are the smallest and largest block however the records come
    from tilescope.trace import maps
    a, b = _rng.standard_normal((64, 128)).astype(f32), _rng.standard_normal((128, 64)).astype(f32)
    run_kernel((4, 4), K.split_k, (a, b[:, :16].copy(), np.zeros((64, 16), f32), 32), trace=str(tmp_path))
    rec = recorders[-1]
    before = {r.name: maps.build(r, {}) for r in rec.arrays.values()}
    shuffle = np.random.default_rng(3)
    for r in rec.arrays.values():
        for ev in list(r.tiles.values()) + list(r.lanes.values()):
            order = shuffle.permutation(len(ev.blocks))
            for name in ("blocks", "occurrence") + (("index",) if hasattr(ev, "index") else ("coords",)):
                setattr(ev, name, [getattr(ev, name)[i] for i in order])
            ev.blocks = [x[::-1].copy() for x in ev.blocks]
            ev.occurrence = [x[::-1].copy() for x in ev.occurrence]
            if hasattr(ev, "index"):
                ev.index = [[i[::-1].copy() for i in x] for x in ev.index]
            else:
                ev.coords = [[c[::-1].copy() for c in x] for x in ev.coords]
    after = {r.name: maps.build(r, {}) for r in rec.arrays.values()}
    for name, m in before.items():
        for field in ("wblock", "rblock", "wcount", "rcount", "flags", "op"):
            np.testing.assert_array_equal(getattr(m, field), getattr(after[name], field), err_msg=f"{name}.{field}")
    assert (before["a"].rblock >= 0).all() and len(set(before["a"].rblock.ravel().tolist())) > 1


@pytest.mark.parametrize("in_c", [True, False])
@pytest.mark.parametrize("blocks,most,nsites", [(300, 5, 7), (70_000, 5, 7), (60, 400, 2)])
def test_log_entries_are_ordered_by_site_then_block_keeping_each_blocks_order(blocks, most, nsites, in_c,
                                                                              monkeypatch):
    """A log as threads make it (ts_log): each takes ranges of blocks and, per site, a chunk of
    LOG_CHUNK entries (stored column by column) when it has none open or its open one fills;
    each range closes the open chunks, leaving their tails unused (site -1); the chunks of all
    threads and sites interleave. With up to 400 entries a block, a block fills several chunks
    of a site, which start at the same block. (Copied in C where a compiler is, else in NumPy.)"""
    if not in_c:
        monkeypatch.setattr(trace_log.toolchain, "helper", lambda *a: None)
    rng = np.random.default_rng(blocks)
    chunk, width = trace_log.LOG_CHUNK, trace_log.LOG_WIDTH
    per_block = rng.integers(0, most, blocks)              # entries each block makes
    ranges = [(s, min(s + 37, blocks)) for s in range(0, blocks, 37)]
    threads = [ranges[k::3] for k in range(3)]
    made, logs = 0, [[] for _ in threads]
    for t, mine in enumerate(threads):
        for lo, hi in mine:
            open_ = {}
            for blk in range(lo, hi):
                for _ in range(per_block[blk]):
                    site = int(rng.integers(0, nsites))
                    if site not in open_ or open_[site][1] == chunk:
                        part = np.zeros((width, chunk), np.int32)
                        part[0] = -1
                        open_[site] = [part, 0]
                        logs[t].append(part)
                    part, k = open_[site]
                    part[:3, k] = (site, blk, made)
                    part[3:, k] = rng.integers(-9, 9, width - 3)
                    open_[site][1] += 1
                    made += 1
    pieces, queues = [], [list(t) for t in logs]
    while any(queues):                                     # the threads' chunks interleave, each's in order
        t = rng.choice([k for k, q in enumerate(queues) if q])
        pieces.append(queues[t].pop(0))
    chunks = np.stack(pieces)
    widths = [3 + s % 4 for s in range(nsites)]
    by_site = trace_log.site_columns(chunks, widths)
    used = chunks.transpose(0, 2, 1).reshape(-1, width)
    used = used[used[:, 0] >= 0]
    assert sum(c.shape[1] for c in by_site.values()) == len(used) == made
    for s in range(nsites):
        want = used[used[:, 0] == s]
        want = want[np.lexsort((want[:, 2], want[:, 1]))][:, :widths[s]].T
        np.testing.assert_array_equal(by_site[s], want)
        assert all(row.flags.c_contiguous for row in by_site[s])


@pytest.mark.parametrize("threads", ["1", "2", "4"])
def test_a_compiled_trace_hands_over_each_sites_accesses_in_block_order(threads, tmp_path, recorders, monkeypatch):
    """Threads take ranges of blocks and their log chunks interleave; each range starts a chunk
    (ts_log_close in ts_run_shared), so the chunks sorted by first block are the log in block
    order: every site's accesses reach the recorder by block, a block's loop steps in order."""
    monkeypatch.setenv("TILESCOPE_THREADS", threads)
    x = np.arange(512 * 300, dtype=np.float32).reshape(512, 300)
    run_kernel((512,), K.row_sums, (x, np.zeros(512, np.float32), 64), trace=str(tmp_path), engine="compiled")
    assert "declined" not in engine.last_launch() and engine.last_launch()["threads"] == int(threads)
    (ev,) = [ev for r in recorders[-1].arrays.values() for ev in r.tiles.values() if not ev.write]
    blocks, occ = np.concatenate(ev.blocks), np.concatenate(ev.occurrence)
    assert len(blocks) == 512 * 5
    np.testing.assert_array_equal(blocks, np.repeat(np.arange(512), 5))
    np.testing.assert_array_equal(occ, np.tile(np.arange(5), 512))
