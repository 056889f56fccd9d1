"""Launch traces: what the pages and PNGs say about blocks, padding, races, bounds and loops."""
import base64
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import tilescope
from tilescope.lang.shim import load_file
from tilescope.trace import maps as M
from tilescope.trace.png import _hue_rgb, decode
from tilescope.trace.recorder import ArrayRecord, TileEvents

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
K = load_file(os.path.join(ROOT, "tests", "trace", "kernels_trace.py"))


def page_data(path):
    with open(path) as f:
        text = f.read()
    m = re.search(r'<script type="application/json" id="trace-data">(.*?)</script>', text, re.S)
    return json.loads(m.group(1).replace("<\\/", "</"))


def cells(arr, name):
    n = arr["slices"] and len(arr["slices"]) * arr["rows"] * arr["cols"]
    dt = {"wblock": np.int32, "rblock": np.int32, "wcount": np.uint8, "rcount": np.uint8, "flags": np.uint8,
          "op": np.int8 if arr["op_narrow"] else np.int16}[name]
    if arr[name] == "":                     # a map with nothing in it
        out = np.full(n, -1 if name in ("wblock", "rblock", "op") else 0, np.int32)
        return out.reshape(len(arr["slices"]), arr["rows"], arr["cols"])
    if name in ("wblock", "rblock") and arr["narrow"]:
        dt = np.uint16
    if isinstance(arr[name], dict):         # runs of equal cells
        out = np.repeat(np.frombuffer(base64.b64decode(arr[name]["values"]), dt), ints(arr[name]["runs"]))
    else:
        out = np.frombuffer(base64.b64decode(arr[name]), dt)
    assert out.size == n
    if dt == np.uint16:
        out = np.where(out == 65535, -1, out.astype(np.int32))
    return out.reshape(len(arr["slices"]), arr["rows"], arr["cols"])


def ints(text):
    """A footprint's integers (page.ints: "u8:" or "u16:" before the base64 text, else int32)."""
    for prefix, dt in (("u8:", np.uint8), ("u16:", np.uint16)):
        if text.startswith(prefix):
            return np.frombuffer(base64.b64decode(text[len(prefix):]), dt).astype(np.int32)
    return np.frombuffer(base64.b64decode(text), np.int32)


def tile_index(arr, r, k):
    """Tile record r's index k (sent as `ints`, or as [r', k']: the same as record r''s index k')."""
    i = arr["tiles"][r]["index"][k]
    return tile_index(arr, *i) if isinstance(i, list) else ints(i)


def occurrences(arr, r):
    """Tile record r's occurrences ("occ": "" all 0, a number: equal to that tile index)."""
    t = arr["tiles"][r]
    if isinstance(t["occ"], int):
        return tile_index(arr, r, t["occ"])
    return ints(t["occ"]) if t["occ"] else np.zeros(len(tile_index(arr, r, 0)), np.int32)


def flat_cells(arr, name, n):
    """Per element of a 1-D array (cells are elements here): the first n of the wrapped grid."""
    return cells(arr, name)[0].reshape(-1)[:n]


def test_each_element_names_its_block_and_padding_is_marked(tmp_path):
    x = np.arange(1000, dtype=np.float32)
    y = np.zeros(1000, np.float32)
    tilescope.launch((4,), K.copy_tiles, (x, y, 256), trace=str(tmp_path))
    page = tmp_path / "01-copy_tiles" / "index.html"
    data = page_data(page)
    xs, ys = data["arrays"]
    assert (xs["name"], ys["name"]) == ("x", "y")
    written = flat_cells(ys, "wblock", 1000)
    assert list(written) == [i // 256 for i in range(1000)]
    assert (flat_cells(xs, "rblock", 1000) == written).all()
    assert not (cells(ys, "flags") & (M.RACE | M.UNWRITTEN)).any()
    # the last tile of x reaches 24 elements past the end: padding, drawn in the margin
    xf = cells(xs, "flags")[0].reshape(-1)
    assert (xf[1000:1024] & M.PADDING).all() and not (xf[:1000] & M.PADDING).any()
    png = decode((tmp_path / "01-copy_tiles" / "x.png").read_bytes())
    assert png.shape[2] == 3 and png.std() > 0
    assert (tmp_path / "index.html").read_text().count("01-copy_tiles/index.html") == 1


def test_a_race_shows_both_blocks_and_the_elements(tmp_path):
    x = np.arange(1024, dtype=np.float32)
    y = np.zeros(256, np.float32)
    tilescope.launch((4,), K.shared_tile, (x, y, 256), trace=str(tmp_path))
    data = page_data(tmp_path / "01-shared_tile" / "index.html")
    ys = [a for a in data["arrays"] if a["name"] == "y"][0]
    assert (flat_cells(ys, "flags", 256) & M.RACE).all()
    (report,) = data["reports"]
    assert "race on array 'y'" in report["text"] and len(report["blocks"]) == 2
    assert report["array"] == "y" and report["element"] == [0]


def test_out_of_bounds_lanes_are_red_with_their_block(tmp_path):
    x = np.arange(1000, dtype=np.float32)
    y = np.zeros(1024, np.float32)
    tilescope.launch((4,), K.gather_past_end, (x, y, 256), trace=str(tmp_path))
    data = page_data(tmp_path / "01-gather_past_end" / "index.html")
    xs = [a for a in data["arrays"] if a["name"] == "x"][0]
    flags = cells(xs, "flags")[0].reshape(-1)
    # lanes of block 3 ask for elements 1000…1027
    assert (flags[1000:1028] & M.OOB).all() and not (flags[:1000] & M.OOB).any()
    oob = [ln for ln in xs["lanes"] if ln["kind"] == "oob"]
    assert set(ints(oob[0]["blocks"])) == {3}
    assert "out of bounds" in data["reports"][0]["text"]


def test_never_written_elements_of_an_output(tmp_path):
    x = np.arange(1024, dtype=np.float32)
    y = np.zeros(1024, np.float32)
    tilescope.launch((3,), K.copy_tiles, (x, y, 256), trace=str(tmp_path))
    ys = [a for a in page_data(tmp_path / "01-copy_tiles" / "index.html")["arrays"] if a["name"] == "y"][0]
    flags = flat_cells(ys, "flags", 1024)
    assert (flags[768:] & M.UNWRITTEN).all() and not (flags[:768] & M.UNWRITTEN).any()


def test_loop_iterations_are_occurrences_of_the_load(tmp_path):
    x = np.ones((4, 1000), np.float32)
    out = np.zeros(4, np.float32)
    tilescope.launch((4,), K.row_sums, (x, out, 256), trace=str(tmp_path))
    data = page_data(tmp_path / "01-row_sums" / "index.html")
    xs = data["arrays"][0]
    (t,) = xs["tiles"]
    occ = occurrences(xs, 0)
    col = tile_index(xs, 0, 1)
    assert sorted(set(occ)) == [0, 1, 2, 3] and (occ == col).all() and t["occ"] == 1     # sent as index 1
    assert data["ops"][t["op"]]["loop"] and data["ops"][t["op"]]["line"] == 27
    assert data["source"]["27"].strip().startswith("acc += ct.load(x")


def test_joined_matmul_loads_are_split_back_into_iterations(tmp_path):
    mm = load_file(os.path.join(ROOT, "examples", "matmul.py"))
    a = np.ones((128, 256), np.float16)
    b = np.ones((256, 128), np.float16)
    c = np.zeros((128, 128), np.float32)
    tilescope.launch((2, 2), mm.matmul, (a, b, c, 64, 64, 32), trace=str(tmp_path))
    data = page_data(tmp_path / "01-matmul" / "index.html")
    aa = data["arrays"][0]
    assert {tuple(t["shape"]) for t in aa["tiles"]} == {(64, 32)}
    occ = np.concatenate([occurrences(aa, r) for r in range(len(aa["tiles"]))])
    assert sorted(set(occ)) == list(range(8))
    assert (cells(aa, "flags") & M.SHARED).all()          # each tile of a is read by two blocks


def test_big_arrays_are_summarised(tmp_path):
    n = 1 << 22
    x = np.ones(n, np.float32)
    y = np.zeros(n, np.float32)
    tilescope.launch((n // 1024,), K.copy_tiles, (x, y, 1024), trace=str(tmp_path))
    data = page_data(tmp_path / "01-copy_tiles" / "index.html")
    for arr in data["arrays"]:
        assert arr["rows"] * arr["cols"] <= M.CELL_BUDGET
        assert any("stands for" in note for note in arr["notes"])
    assert os.path.getsize(tmp_path / "01-copy_tiles" / "index.html") < 8 << 20


def test_rank_three_arrays_are_slices(tmp_path):
    mm = load_file(os.path.join(ROOT, "examples", "matmul.py"))
    a = np.ones((3, 64, 64), np.float16)
    b = np.ones((3, 64, 64), np.float16)
    c = np.zeros((3, 64, 64), np.float32)
    tilescope.launch((1, 1, 3), mm.batch_matmul, (a, b, c, 64, 64, 32), trace=str(tmp_path))
    data = page_data(tmp_path / "01-batch_matmul" / "index.html")
    cc = data["arrays"][2]
    assert [s["label"] for s in cc["slices"]] == ["[0, :, :]", "[1, :, :]", "[2, :, :]"]
    assert [set(cells(cc, "wblock")[s].ravel()) for s in range(3)] == [{0}, {1}, {2}]
    # one PNG per array: its slices left to right, then top to bottom, a black cell apart
    assert sorted(os.listdir(tmp_path / "01-batch_matmul")) == ["a.png", "b.png", "c.png", "index.html"]
    data = (tmp_path / "01-batch_matmul" / "c.png").read_bytes()
    png = decode(data)
    assert png.shape == (129, 129, 3)                      # 2 × 2 places for 3 slices of 64 × 64 cells
    full = _hue_rgb(np.arange(3))[1]
    for s, (y, x) in enumerate([(0, 0), (0, 65), (65, 0)]):
        assert (png[y:y + 64, x:x + 64] == full[s]).all()
    assert (png[64] == 0).all() and (png[:, 64] == 0).all() and (png[65:, 65:] == 0).all()
    assert b"slices [0, :, :], [1, :, :], [2, :, :] in 2 row(s) of 2" in data


def test_cli_run_trace(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    p = subprocess.run([sys.executable, "-m", "tilescope", "run", "--trace", str(tmp_path),
                        os.path.join(ROOT, "examples", "vector_add.py")], capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    assert "trace of vector_add written to" in p.stderr
    assert (tmp_path / "01-vector_add" / "index.html").exists()
    p = subprocess.run([sys.executable, "-m", "tilescope", "run", "--trace", str(tmp_path), "--device", "gpu",
                        os.path.join(ROOT, "examples", "vector_add.py")], capture_output=True, text=True, env=env)
    assert p.returncode == 2 and "--trace" in p.stderr and "Traceback" not in p.stderr


def test_results_are_the_same_with_and_without_a_trace(tmp_path):
    mm = load_file(os.path.join(ROOT, "examples", "matmul.py"))
    rng = np.random.default_rng(0)
    a = rng.standard_normal((128, 96)).astype(np.float16)
    b = rng.standard_normal((96, 64)).astype(np.float16)
    c1, c2 = np.zeros((128, 64), np.float32), np.zeros((128, 64), np.float32)
    tilescope.launch((2, 1), mm.matmul, (a, b, c1, 64, 64, 32))
    tilescope.launch((2, 1), mm.matmul, (a, b, c2, 64, 64, 32), trace=str(tmp_path))
    assert np.array_equal(c1, c2)


@pytest.mark.parametrize("folder, message", [
    ("{tmp}/a_file", "exists and is not a folder"),
    ("{tmp}/a_file/sub", "cannot make the folder"),
    ("", "needs a folder"),
])
def test_run_trace_to_a_folder_it_cannot_use_is_a_usage_error_before_the_script_runs(tmp_path, capsys, folder,
                                                                                       message):
    from tilescope.tools.cli import main
    (tmp_path / "a_file").write_text("not a folder\n")
    script = tmp_path / "s.py"
    script.write_text("open(__file__ + '.ran', 'w').close()\n")
    assert main(["run", "--trace", folder.format(tmp=tmp_path), str(script)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "s.py.ran").exists()


def test_run_trace_of_a_script_without_launches_says_so(tmp_path):
    script = tmp_path / "s.py"
    script.write_text("print('no kernels here')\n")
    # in a process of its own: `run` turns on the CPU device layer for the rest of its process
    p = subprocess.run([sys.executable, "-m", "tilescope", "run", "--trace", str(tmp_path / "t"), str(script)],
                       capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src")))
    assert p.returncode == 0, p.stderr
    assert "no kernel was launched" in p.stderr
    assert "No kernel was launched" in (tmp_path / "t" / "index.html").read_text()


def _traced_vector_add(folder):
    """examples/vector_add.py launched with a trace into `folder`; its result must be right."""
    mm = load_file(os.path.join(ROOT, "examples", "vector_add.py"))
    a = np.arange(2048, dtype=np.float32)
    c = np.zeros_like(a)
    tilescope.launch((2,), mm.vector_add, (a, a, c, 1024), trace=str(folder))
    assert np.array_equal(c, 2 * a)


def test_a_page_that_cannot_be_written_costs_the_launch_nothing(tmp_path, capsys, monkeypatch):
    from tilescope import trace as T
    def fail(*a, **k):                      # (the disk filled up while the page was written)
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(T, "write_launch", fail)
    _traced_vector_add(tmp_path)
    err = capsys.readouterr().err
    assert "trace of vector_add not written" in err and "No space left on device" in err and "Traceback" not in err


def test_a_cost_model_failure_leaves_the_page_without_its_cost(tmp_path, monkeypatch):
    from tilescope.trace import writer
    def fail(*a, **k):
        raise RuntimeError("model bug")
    monkeypatch.setattr(writer, "cost_of_compiled", fail)
    _traced_vector_add(tmp_path)
    assert "the cost model failed on this launch: RuntimeError: model bug" in \
        (tmp_path / "01-vector_add" / "index.html").read_text()


def test_launches_alike_share_one_cost_report_and_others_get_their_own(tmp_path, monkeypatch):
    from tilescope.trace import writer
    made = []

    def counted(compiled, grid, gpu, values=None):
        made.append(tuple(grid))
        return cost_of_compiled(compiled, grid, gpu, values=values)
    cost_of_compiled = writer.cost_of_compiled
    monkeypatch.setattr(writer, "cost_of_compiled", counted)
    x = np.arange(512, dtype=np.float32)
    for grid in ((8,), (8,), (4,)):
        tilescope.launch(grid, K.copy_tiles, (x, np.zeros(512, np.float32), 64), trace=str(tmp_path))
    assert made == [(8, 1, 1), (4, 1, 1)]
    pages = [(tmp_path / f"0{n}-copy_tiles" / "index.html").read_text() for n in (1, 2, 3)]
    cost = [re.search(r'<div class="cost">(.*?)</div>', p, re.S).group(1) for p in pages]
    assert cost[0] == cost[1] != cost[2] and "8 blocks" in cost[0] and "4 blocks" in cost[2]


def test_a_kernel_without_arrays_gets_a_page_that_says_there_is_nothing_to_draw(tmp_path):
    import textwrap
    f = tmp_path / "hello.py"
    f.write_text(textwrap.dedent('''\
        import cuda.tile as ct

        @ct.kernel
        def hello():
            ct.print(f"block {ct.bid(0)}")
        '''))
    tilescope.launch((2,), load_file(str(f)).hello, (), trace=str(tmp_path / "t"))
    assert "no array arguments" in (tmp_path / "t" / "01-hello" / "index.html").read_text()


@pytest.mark.parametrize("folder", ["", 3])
def test_launch_with_a_trace_that_is_not_a_folder_is_refused_before_it_runs(folder):
    mm = load_file(os.path.join(ROOT, "examples", "vector_add.py"))
    a = np.ones(1024, np.float32)
    c = np.zeros_like(a)
    with pytest.raises(ValueError, match="trace= takes the folder"):
        tilescope.launch((1,), mm.vector_add, (a, a, c, 1024), trace=folder)
    assert not c.any()


def _lane_blocks(arr, kind):
    return [ints(ln["blocks"]) for ln in arr["lanes"] if ln["kind"] == kind]


def test_tiles_entirely_out_of_bounds_are_red_with_their_block_not_writes_or_padding(tmp_path):
    x = np.arange(1024, dtype=np.float32)
    y = np.zeros(1024, np.float32)
    # block b loads tile b + 10 of x (far past the end) and stores tile b + 2 of y: blocks 2 and 3 store
    # tiles 4 and 5, elements 1024…1535, all outside y
    tilescope.launch((4,), K.shifted_copy, (x, y, 256, 10, 2), trace=str(tmp_path))
    data = page_data(tmp_path / "01-shifted_copy" / "index.html")
    xs, ys = data["arrays"]
    yf, yw = cells(ys, "flags")[0].reshape(-1), cells(ys, "wblock")[0].reshape(-1)
    assert (yf[1024:1280] & M.OOB).all() and not (yf[:1024] & M.OOB).any()
    assert (yw[1024:] == -1).all() and list(yw[512:1024]) == [i // 256 - 2 for i in range(512, 1024)]
    (yb,) = _lane_blocks(ys, "oob")
    assert list(yb) == [2] * 256 + [3] * 256
    (xb,) = _lane_blocks(xs, "oob")          # past the drawn margin, but each block's attempt is kept
    assert sorted(set(xb)) == [0, 1, 2, 3] and not (cells(xs, "flags") & M.PADDING).any()


def test_a_tile_load_from_an_empty_array_is_out_of_bounds_not_padding(tmp_path):
    x = np.ones(0, np.float32)
    tilescope.launch((1,), K.copy_tiles, (x, x.copy(), 64), trace=str(tmp_path))
    for arr in page_data(tmp_path / "01-copy_tiles" / "index.html")["arrays"]:
        f = cells(arr, "flags")[0].reshape(-1)[:64]
        assert (f & M.OOB).all() and not (f & M.PADDING).any(), arr["name"]
        assert [set(b) for b in _lane_blocks(arr, "oob")] == [{0}]


def test_a_tile_outside_a_slice_view_is_out_of_bounds_where_it_would_land(tmp_path):
    x = np.arange(1024, dtype=np.float32)
    y = np.zeros(512, np.float32)
    tilescope.launch((2,), K.slice_copy, (x, y, 256), trace=str(tmp_path))
    xs = page_data(tmp_path / "01-slice_copy" / "index.html")["arrays"][0]
    f = cells(xs, "flags")[0].reshape(-1)
    assert (f[512:768] & M.OOB).all() and not (f[:512] & M.OOB).any() and not (f[768:] & M.OOB).any()
    assert [set(b) for b in _lane_blocks(xs, "oob")] == [{1}]


def test_the_page_of_a_failed_launch_says_it_failed_and_why(tmp_path, capsys):
    from tilescope.backends.numpy.executor import ExecutionError
    x = np.arange(1024, dtype=np.float32)
    with pytest.raises(ExecutionError, match="bid too big"):
        tilescope.launch((4,), K.stop_at_two, (x, 256), trace=str(tmp_path))
    text = (tmp_path / "01-stop_at_two" / "index.html").read_text()
    assert "the launch failed: ExecutionError:" in text and "bid too big" in text
    line = [ln for ln in capsys.readouterr().err.splitlines() if "trace of stop_at_two" in ln]
    assert len(line) == 1 and "the launch failed: ExecutionError:" in line[0] and "bid too big" in line[0]
    assert "failed (ExecutionError)" in (tmp_path / "index.html").read_text()


def test_a_launch_that_touches_no_element_does_not_say_the_kernel_has_no_arrays(tmp_path):
    x = np.ones(64, np.float32)
    tilescope.launch((1,), K.load_unused, (x, x.copy()), trace=str(tmp_path))
    text = (tmp_path / "01-load_unused" / "index.html").read_text()
    assert "no array arguments" not in text and "no array element was read or written" in text


def test_a_race_through_overlapping_views_is_drawn_in_both(tmp_path):
    z = np.arange(1040, dtype=np.float32)
    # y = z[8:1032] is x = z[:1024] shifted by 8: block b reads x[256b…256b+255] (z[256b…]) while
    # block b-1 writes y[256b-8…256b-1], the same z[256b…256b+7]
    tilescope.launch((4,), K.copy_tiles, (z[:1024], z[8:1032], 256), trace=str(tmp_path))
    data = page_data(tmp_path / "01-copy_tiles" / "index.html")
    assert any("race on array" in r["text"] for r in data["reports"])
    xs, ys = data["arrays"]
    want_x = np.zeros(1024, bool)
    for b in (1, 2, 3):
        want_x[256 * b:256 * b + 8] = True
    assert list(flat_cells(xs, "flags", 1024) & M.RACE > 0) == list(want_x)
    assert list(flat_cells(ys, "flags", 1024) & M.RACE > 0) == list(np.roll(want_x, -8))


@pytest.mark.parametrize("engine", ["numpy", "compiled"])
def test_an_unchecked_lane_out_of_bounds_says_what_happens_here(engine, capsys):
    x = np.arange(1000, dtype=np.float32)
    y = np.zeros(1024, np.float32)
    tilescope.launch((4,), K.gather_past_end, (x, y, 256), engine=engine)
    assert "element (1000,) (lane (228,)): undefined behaviour on the GPU; here the lane reads the padding value" in \
        capsys.readouterr().err


@pytest.mark.parametrize("engine", ["numpy", "compiled"])
def test_out_of_bounds_attempts_outside_the_picture_are_counted_in_a_note(tmp_path, engine):
    x = np.arange(1024, dtype=np.float32)
    y = np.zeros(1024, np.float32)
    tilescope.launch((4,), K.gather_before_start, (x, y, 256), trace=str(tmp_path), engine=engine)
    xs = [a for a in page_data(tmp_path / "01-gather_before_start" / "index.html")["arrays"] if a["name"] == "x"][0]
    # block 0's first 100 lanes ask for elements -100…-1: nothing before the start is drawn
    assert not (flat_cells(xs, "flags", 1024) & M.OOB).any()
    (note,) = [n for n in xs["notes"] if "out-of-bounds" in n]
    assert note.startswith("100 out-of-bounds attempt(s) land outside the picture") and \
        "block 0 at element (-100,)" in note


def test_an_array_passed_to_two_parameters_is_one_picture_named_by_both(tmp_path):
    # (aliased arguments run on the NumPy executor, whichever engine is asked for)
    a = np.arange(1024, dtype=np.float32)
    tilescope.launch((4,), K.shift_into, (a, a, 256), trace=str(tmp_path))
    data = page_data(tmp_path / "01-shift_into" / "index.html")
    (arr,) = data["arrays"]
    assert arr["name"] == "x" and arr["also"] == ["y"]
    # the writes through y are drawn on x's picture: block b's store lands on tile b + 1
    wblock = flat_cells(arr, "wblock", 1024)
    assert list(wblock[256:]) == [b for b in range(3) for _ in range(256)]
    # the report says 'y' (the parameter the store went through); the page points it at the picture
    (report,) = [r for r in data["reports"] if "out of bounds" in r["text"]]
    assert "array 'y'" in report["text"] and report["array"] == "x" and report["blocks"] == [3]


def test_launches_past_the_per_kernel_limit_run_untraced_and_are_counted(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TILESCOPE_TRACE_LIMIT", "2")
    for _ in range(4):
        _traced_vector_add(tmp_path)            # (each checks its result, traced or not)
    pages = sorted(p.name for p in tmp_path.iterdir() if p.is_dir())
    assert pages == ["01-vector_add", "02-vector_add"]
    index = (tmp_path / "index.html").read_text()
    assert "2 more launches of vector_add, run untraced (the first 2 were traced)" in index
    err = capsys.readouterr().err
    assert err.count("later launches run untraced") == 1 and err.count("trace of vector_add written") == 2
    monkeypatch.setenv("TILESCOPE_TRACE_LIMIT", "0")       # 0: every launch traced
    _traced_vector_add(tmp_path / "all")
    _traced_vector_add(tmp_path / "all")
    assert len([p for p in (tmp_path / "all").iterdir() if p.is_dir()]) == 2


def _tiles(op, write, shape, blocks, index):
    return TileEvents(op, write, shape, (0, 1), [np.asarray(blocks, np.int32)],
                      [[np.asarray([i[k] for i in index], np.int32) for k in range(2)]],
                      [np.zeros(len(blocks), np.int32)])


@pytest.mark.parametrize("between", [False, True])
def test_a_cell_keeps_its_first_reader_and_last_writer_whatever_order_the_ops_come_in(between):
    """Blocks as if run one after another: a cell's reader is the least block that read it and its
    writer the largest that wrote it, whether the ops fold as one run (alike tilings next to each
    other) or apart; its op is the last op that touched it."""
    ops = [object() for _ in range(5)]
    events = [_tiles(ops[0], False, (4, 4), [7], [(0, 0)]), _tiles(ops[1], False, (4, 4), [3, 5], [(0, 0), (1, 1)]),
              _tiles(ops[2], True, (4, 4), [6], [(0, 1)]), _tiles(ops[3], True, (4, 4), [2], [(0, 1)])]
    if between:                      # a different tiling between the reads: they fold apart
        events.insert(1, _tiles(ops[4], False, (2, 4), [9], [(2, 0)]))
    rec = ArrayRecord("x", np.zeros((8, 8), np.float32), 0, {k: ev for k, ev in enumerate(events)}, {}, True)
    op_index = {id(op): k for k, op in enumerate(ops)}
    m = M.build(rec, op_index)
    assert (m.rblock[0, :4, :4] == 3).all() and (m.rcount[0, :4, :4] == 2).all()
    assert (m.flags[0, :4, :4] & M.SHARED).all() and (m.op[0, :4, :4] == 1).all()
    assert (m.rblock[0, 4:, 4:] == 5).all() and not (m.flags[0, 4:, 4:] & M.SHARED).any()
    assert (m.wblock[0, :4, 4:] == 6).all() and (m.wcount[0, :4, 4:] == 2).all()
    assert (m.flags[0, :4, 4:] & M.RACE).all() and (m.op[0, :4, 4:] == 3).all()


def test_a_count_map_goes_as_one_number_only_when_it_holds_that_value_at_exactly_the_accessed_cells():
    from tilescope.trace.page import _packed
    accessed = np.array([[True, True, False, False]])
    one = np.array([[3, 3, 0, 0]], np.uint16)
    assert _packed(one, 0, None, lambda: accessed) == 3
    for other in ([[3, 2, 0, 0]],        # another value at an accessed cell
                  [[3, 3, 0, 1]],        # a value at a cell not accessed
                  [[3, 0, 0, 3]]):       # the value, but at other cells
        packed = _packed(np.array(other, np.uint16), 0, None, lambda: accessed)
        assert isinstance(packed, bytes)
        assert np.array_equal(np.frombuffer(base64.b64decode(packed), np.uint16), np.array(other).reshape(-1))
    ops = np.array([[5, 5, -1, -1]], np.int16)                 # an op map: -1 where nothing ran
    assert _packed(ops, -1, None, lambda: accessed) == 5


def test_the_slices_of_an_array_of_rank_four_are_labelled_by_their_leading_indices():
    rec = ArrayRecord("a", np.zeros((2, 3, 4, 5), np.float32), 0)
    m = M.build(rec, {})
    assert [s.lead for s in m.slices] == [(i, j) for i in range(2) for j in range(3)]
    assert m.slices[4].label == "[1, 1, :, :]"


def test_a_map_of_few_runs_goes_as_runs_and_comes_back_whole():
    from tilescope.trace.page import _packed, payload_json
    rows = np.repeat(np.arange(64, dtype=np.int32), 256).reshape(1, 64, 256)     # a block per row
    packed = json.loads(b"".join(payload_json({"m": _packed(rows, -1)})))["m"]    # (as the page has it)
    assert isinstance(packed, dict)
    arr = {"rblock": packed, "narrow": False, "slices": [{}], "rows": 64, "cols": 256, "op_narrow": True}
    assert np.array_equal(cells(arr, "rblock"), rows)
    noisy = np.random.default_rng(0).integers(0, 9, (1, 64, 256)).astype(np.int32)
    assert isinstance(_packed(noisy, -1), bytes)                                  # runs would be no smaller
