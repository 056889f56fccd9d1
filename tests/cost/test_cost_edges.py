"""Edges a new user reaches with `tilescope cost`: empty arrays, grids the tiling cannot tell,
grids past the tiles, out-of-range `values`, and which metadata the report was made for."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

import tilescope
from tilescope.costmodel.advice import _share
from tilescope.costmodel.grid import infer_grid
from tilescope.lang.shim import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

COPY = '''
import cuda.tile as ct

@ct.kernel
def copy(x, y, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    ct.store(y, index=(bid,), tile=ct.load(x, index=(bid,), shape=(TILE,)))
'''

HEADS = '''
import cuda.tile as ct

# tilescope: args f16[8,16,1024,64], f16[8,16,1024,64], 16, 64
@ct.kernel
def heads(q, o, H: ct.Constant[int], TM: ct.Constant[int]):
    bx = ct.bid(0)
    by = ct.bid(1)
    t = ct.load(q, index=(by // H, by % H, bx, 0), shape=(1, 1, TM, 64))
    ct.store(o, index=(by // H, by % H, bx, 0), tile=t)
'''

LOOP = '''
import cuda.tile as ct

# tilescope: args f32[512,4096], f32[512], 512, i32
@ct.kernel
def rowsum(x, y, TILE: ct.Constant[int], n: int):
    row = ct.bid(0)
    acc = ct.zeros((1, TILE), dtype=ct.float32)
    for k in range(n):
        acc += ct.load(x, index=(row, k), shape=(1, TILE))
    ct.store(y, index=(row,), tile=ct.sum(acc, axis=1))
'''


def _module(tmp_path, name, text):
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(text))
    return path, load_file(str(path))


def _cli(*args):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    return subprocess.run([sys.executable, "-m", "tilescope", "cost", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT)


def test_empty_arrays_are_costed_as_all_padding(tmp_path):
    _, mod = _module(tmp_path, "copy_empty", COPY)
    r = tilescope.cost(mod.copy, "f32[0], f32[0], 256", (1,))
    assert r.predicted_us > 0 and r.prediction.bytes["dram_read"] == 0
    assert any(a.code == "padding" and a.message.startswith("100%") for a in r.advice)


def test_a_bid_axis_reaching_tiles_through_arithmetic_leaves_the_grid_to_the_user(tmp_path):
    path, mod = _module(tmp_path, "heads", HEADS)
    c = tilescope.compile(mod.heads, "f16[8,16,1024,64], f16[8,16,1024,64], 16, 64")
    assert infer_grid(c.final) is None          # taking 1 along axis 1 would cost 1/128 of the launch
    p = _cli(str(path))
    assert p.returncode == 2 and "pass --grid" in p.stderr and "Traceback" not in p.stderr
    p = _cli(str(path), "--grid", "16,128", "--no-cubin")
    assert p.returncode == 0 and "(2048 blocks," in p.stdout


def test_a_grid_past_the_tiles_is_named_as_such_and_shares_round_below_all():
    va = load_file(os.path.join(ROOT, "examples", "vector_add.py")).vector_add
    spec = "f32[1048576], f32[1048576], f32[1048576], 1024"
    r = tilescope.cost(va, spec, (100000,))
    pad = [a.message for a in r.advice if a.code == "padding"]
    assert pad and all("more blocks than the array has tiles" in m and m.startswith("99%") for m in pad)
    assert "1 block," in tilescope.cost(va, spec, (1,)).text()
    assert _share(255 / 256) == "99%" and _share(1.0) == "100%" and _share(0.5) == "50%"


def test_values_outside_the_scalars_range_are_refused(tmp_path):
    _, mod = _module(tmp_path, "rowsum", LOOP)
    spec = "f32[512,4096], f32[512], 512, i32"
    with pytest.raises(ValueError, match=r"'n' of kernel 'rowsum' is int32; 1000000000000 is outside"):
        tilescope.cost(mod.rowsum, spec, (512,), values={"n": 10 ** 12})
    assert tilescope.cost(mod.rowsum, spec, (512,), values={"n": 8}).predicted_us > 0


def test_the_report_says_which_metadata_it_was_made_for():
    p = _cli("examples/matmul.py", "--no-cubin")
    assert p.returncode == 0 and p.stdout.startswith("args from the directive on line ")
    p = _cli("examples/matmul.py", "--no-cubin", "--format", "json")
    j = json.loads(p.stdout)
    assert j["args_from"] == "directive" and j["args"].startswith("f16[")
    p = _cli("examples/matmul.py", "--no-cubin", "--args", "f16[256,256], f16[256,256], f32[256,256], 64, 64, 32")
    assert p.returncode == 0 and "args from" not in p.stdout


def test_an_assumption_several_ops_note_is_said_once():
    from tilescope.costmodel.report import CostReport
    va = load_file(os.path.join(ROOT, "examples", "vector_add.py")).vector_add
    r = tilescope.cost(va, "f32[1048576], f32[1048576], f32[1048576], 1024", (1024,))
    r.prediction.notes.extend(["a note", "a note"])
    assert CostReport.assumptions(r).count("a note") == 1
    assert r.text().count("a note") == 1 and r.to_json()["assumptions"].count("a note") == 1


def test_data_arrays_are_costed_as_the_spec_of_their_sizes():
    import numpy as np
    va = load_file(os.path.join(ROOT, "examples", "vector_add.py")).vector_add
    a = np.zeros(1 << 20, np.float32)
    from_arrays = tilescope.cost(va, (a, a, a, 1024), (1024,))
    from_spec = tilescope.cost(va, "f32[1048576], f32[1048576], f32[1048576], 1024", (1024,))
    assert from_arrays.predicted_us == from_spec.predicted_us
    assert [x.code for x in from_arrays.advice] == [x.code for x in from_spec.advice]
    assert "no-tma" in [x.code for x in tilescope.cost(va, (a, a, a, 1024), (1024,), aligned=False).advice]


LISTS = '''
import cuda.tile as ct

@ct.kernel
def add_two(xs, out, T: ct.Constant[int]):
    b = ct.bid(0)
    ct.store(out, index=(b,), tile=ct.load(xs[0], index=(b,), shape=(T,)) + ct.load(xs[1], index=(b,), shape=(T,)))

@ct.kernel
def sum_all(xs, out, N: ct.Constant[int], T: ct.Constant[int]):
    acc = ct.zeros((T,), dtype=ct.float32)
    for i in range(N):
        acc += ct.load(xs[i], index=(ct.bid(0),), shape=(T,))
    ct.store(out, index=(ct.bid(0),), tile=acc)
'''


def test_the_items_of_a_list_of_arrays_are_arrays_of_their_own(tmp_path):
    _, mod = _module(tmp_path, "lists", LISTS)
    n = 1 << 20
    two = tilescope.cost(mod.add_two, f"list[f32[{n}]], f32[{n}], 1024", (1024,)).prediction.bytes
    assert two["dram_read"] == 2 * 4 * n and two["reread_by_blocks"] == 0
    # a loop over the items reads another array each step, small or not: nothing is read again
    for size, blocks in ((n, 1024), (4096, 4)):
        each = tilescope.cost(mod.sum_all, f"list[f32[{size}]], f32[{size}], 3, 1024", (blocks,)).prediction.bytes
        assert each["dram_read"] == 3 * 4 * size and each["l2_absorbed"] == 0


def test_the_hover_says_why_it_has_no_cost_when_the_grid_cannot_be_told(tmp_path):
    from tilescope.costmodel import kernel_hover
    _, mod = _module(tmp_path, "heads_hover", HEADS)
    text = kernel_hover(mod.heads, "f16[8,16,1024,64], f16[8,16,1024,64], 16, 64")
    assert text is not None and "grid cannot be told" in text and "--grid" in text


@pytest.mark.parametrize("step, sector_bytes", [(2, 8), (8, 32), (64, 64)])
def test_an_array_with_no_contiguous_axis_costs_its_sectors_not_its_bytes(step, sector_bytes):
    # a view of every k-th float32 element: each element brings min(k * 4, 64) bytes from DRAM, as the
    # lanes of a strided gather do (DRAM reads pairs of 32-byte sectors)
    va = load_file(os.path.join(ROOT, "examples", "vector_add.py")).vector_add
    n = 1 << 20
    plain = tilescope.cost(va, f"f32[{n}], f32[{n}], f32[{n}], 1024", 1024).to_json()
    strided = tilescope.cost(va, f"f32[{n}]:[{step}], f32[{n}], f32[{n}], 1024", 1024).to_json()
    assert plain["bytes"]["dram_read"] == 2 * 4 * n
    assert strided["bytes"]["dram_read"] == sector_bytes * n + 4 * n
    assert strided["bytes"]["read_requested"] == plain["bytes"]["read_requested"]
    assert strided["predicted_us"] > plain["predicted_us"] * (1 + (sector_bytes - 4) / 16)
    assert "strided-access" in [a["code"] for a in strided["advice"]]
    assert "strided-access" not in [a["code"] for a in plain["advice"]]


def test_strided_lanes_of_data_that_stay_in_l2_move_their_sectors():
    # version 104 (history 181, H100): a 256K-element float32 view of every 32nd element, read by
    # tiles of 1,024 (32 MB of buffer, 8 MB of its sectors) took 3.46 us launch after launch: L2
    # keeps the sectors, and a lane moves its 32 bytes, not DRAM's pair of sectors
    kernels = load_file(os.path.join(ROOT, "bench", "cost_kernels_strided.py"))
    n = 1 << 18

    def read(step, gpu="h100"):
        return tilescope.cost(kernels.strided_tile_read, f"f32[{n}]:[{step}], f32[{n}], 1024", n // 1024, gpu)
    small = read(32).to_json()
    assert small["bytes"]["dram_read"] == 32 * n
    assert abs(small["predicted_us"] / 3.46 - 1) < 0.3
    # where the launch's data do not stay in L2 the pairs come from DRAM, as before
    big = tilescope.cost(kernels.strided_tile_read, f"f32[{16 * n}]:[32], f32[{16 * n}], 1024", 16 * n // 1024,
                         "h100").to_json()
    assert big["bytes"]["dram_read"] == 64 * 16 * n
