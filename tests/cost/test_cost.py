"""tilescope.cost: counts from metadata, the bound it names, advice, the CLI and the hover."""
import json
import os
import subprocess
import sys

import pytest

import tilescope
from tilescope.costmodel.grid import infer_grid
from tilescope.lang.shim import load_file

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EX = os.path.join(ROOT, "examples")


def example(name):
    return load_file(os.path.join(EX, f"{name}.py"))


def test_vector_add_bytes_and_memory_bound():
    n = 1 << 26
    r = tilescope.cost(example("vector_add").vector_add, f"f32[{n}], f32[{n}], f32[{n}], 1024", (n // 1024,))
    b = r.prediction.bytes
    assert b["read_requested"] == 2 * 4 * n and b["write_requested"] == 4 * n
    assert b["dram_read"] == 2 * 4 * n and b["padding"] == 0
    assert r.bound == "memory"
    # 805 MB at the H200's 4.8 TB/s datasheet rate times the measured copy efficiency, and a little
    # more: the loads estimated in flight bring the round trip near the knee (version 18)
    dram = 12 * n / (4.8e12 * 0.8678) * 1e6
    assert r.prediction.terms["memory"] == pytest.approx(dram, rel=1e-3)
    assert dram + 0.71 < r.predicted_us < 1.01 * dram + 0.71


def test_padding_from_sizes_that_are_not_multiples_of_the_tile():
    r = tilescope.cost(example("vector_add").vector_add, "f32[1000], f32[1000], f32[1000], 256", (4,))
    (load, *_), = [r.counts.accesses[:1]]
    assert load.pad_fraction == pytest.approx(24 / 1024)
    r = tilescope.cost(example("softmax").softmax, "f32[512,600], f32[512,600], 1024", (512,))
    assert r.prediction.bytes["padding"] > 0
    assert any(a.code == "padding" and a.line == 9 for a in r.advice)


def test_matmul_counts_exact_trip_counts_flops_and_reuse():
    m, n, k = 512, 256, 384
    r = tilescope.cost(example("matmul").matmul, f"f16[{m},{k}], f16[{k},{n}], f32[{m},{n}], 64, 64, 32",
                       (m // 64, n // 64))
    blocks = (m // 64) * (n // 64)
    loads = [a for a in r.counts.accesses if a.kind == "load"]
    assert [a.executions for a in loads] == [blocks * (k // 32)] * 2
    assert all(a.feeds_mma for a in loads)
    assert r.prediction.flops == {"tensor float16": 2 * m * n * k}
    b = r.prediction.bytes
    assert b["reread_by_blocks"] > 0 and b["l2_absorbed"] > 0
    assert b["dram_read"] == pytest.approx(2 * (m * k + k * n))      # small arrays: read once


def test_attention_counts_transcendentals_and_names_the_transposed_operand():
    r = tilescope.cost(example("attention").attention,
                       "f16[4,1024,64], f16[4,1024,64], f16[4,1024,64], f16[4,1024,64], f32, 64, 64, 64", (16, 4))
    per_block = 1024 // 64
    assert r.prediction.flops["transcendental"] == (16 * 4) * per_block * (64 * 64 + 64)   # blocks × trips × exps
    assert any(a.code == "transposed-load" for a in r.advice)


def test_bounds_named_by_the_model():
    va = example("vector_add").vector_add
    assert tilescope.cost(va, "f32[8192], f32[8192], f32[8192], 1024", (8,)).bound == "too few blocks"
    mm = example("matmul").matmul
    big = tilescope.cost(mm, "f16[4096,4096], f16[4096,4096], f32[4096,4096], 64, 64, 32", (64, 64))
    assert big.bound == "latency"
    small = tilescope.cost(mm, "f16[256,256], f16[256,256], f32[256,256], 64, 64, 32", (4, 4))
    assert small.bound == "too few blocks"
    assert any(a.code == "small-grid" for a in small.advice)


def test_a_part_filled_last_wave_is_advised_only_where_it_idles_the_gpu_long():
    mm = example("matmul").matmul
    few = tilescope.cost(mm, "f16[1024,4096], f16[4096,640], f32[1024,640], 64, 64, 32", (16, 10))
    assert few.prediction.waves == pytest.approx(160 / 132)
    tail = [a for a in few.advice if a.code == "tail-wave"]
    assert len(tail) == 1 and "39% of the SMs' time idle" in tail[0].message
    many = tilescope.cost(mm, "f16[4096,4096], f16[4096,4096], f32[4096,4096], 64, 64, 32", (64, 64))
    assert many.prediction.waves % 1 < 0.25 and not any(a.code == "tail-wave" for a in many.advice)


def test_float32_mma_and_small_tiles_are_advised():
    mm = example("matmul").matmul
    r = tilescope.cost(mm, "f32[1024,1024], f32[1024,1024], f32[1024,1024], 32, 32, 8", (32, 32))
    codes = {a.code for a in r.advice}
    assert {"float32-mma", "tensor-core-underfill"} <= codes


def test_unknown_trip_counts_are_stated_as_assumptions():
    src = os.path.join(ROOT, "tests", "cost", "kernels_cost.py")
    mod = load_file(src)
    r = tilescope.cost(mod.until_small, "f32[4096], f32[4096], 256", (16,))
    assert any("while loop" in a for a in r.to_json()["assumptions"])
    r = tilescope.cost(mod.per_block_trips, "f32[65536], f32[64], 1024", (64,))
    loop = [reg for reg in r.counts.regions if reg.op is not None][0]
    assert list(loop.trips[:4]) == [0, 1, 2, 3]            # range(bid): exact per block


def test_aligned_metadata_selects_the_tma_path():
    from tilescope.meta import MetaTensor
    mm = example("matmul").matmul
    arr = lambda dt: MetaTensor((4096, 4096), dt, (None, 1), static_strides=(False, True),  # noqa: E731
                                base_addr_divisible_by=16)
    r = tilescope.cost(mm, [arr("f16"), arr("f16"), arr("f32"), 64, 64, 32], (64, 64))
    assert r.prediction.tma and not any(a.code == "no-tma" for a in r.advice)
    spec = "f16[4096,4096], f16[4096,4096], f32[4096,4096], 64, 64, 32"
    plain = tilescope.cost(mm, spec, (64, 64), aligned=False)         # the metadata as written: dynamic
    assert not plain.prediction.tma and any(a.code == "no-tma" for a in plain.advice)
    assert not any("as a launch allocates them" in n for n in plain.to_json()["assumptions"])
    # by default a spec's arrays are taken as a launch allocates them, and the report says so
    launched = tilescope.cost(mm, spec, (64, 64))
    assert launched.prediction.tma and not any(a.code == "no-tma" for a in launched.advice)
    assert any("as a launch allocates them" in n for n in launched.to_json()["assumptions"])
    assert launched.predicted_us < plain.predicted_us / 3           # vector loads, TMA-fed `mma` pipeline


def test_other_gpus_scale_with_their_peaks():
    va = example("vector_add").vector_add
    spec, grid = "f32[67108864], f32[67108864], f32[67108864], 1024", (65536,)
    h100 = tilescope.cost(va, spec, grid, "h100").predicted_us
    h200 = tilescope.cost(va, spec, grid, "h200").predicted_us
    b200 = tilescope.cost(va, spec, grid, "b200").predicted_us
    assert h100 > h200 > b200
    with pytest.raises(ValueError, match="unknown GPU"):
        tilescope.cost(va, spec, grid, "v100")


def test_grid_inferred_from_bid_indexed_tiles():
    c = tilescope.compile(example("matmul").matmul, "f16[1000,512], f16[512,300], f32[1000,300], 64, 64, 32")
    assert infer_grid(c.final) == (16, 5, 1)


def _cli(*args):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    return subprocess.run([sys.executable, "-m", "tilescope", "cost", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT)


def test_cli_json_and_text():
    p = _cli("examples/matmul.py", "--kernel", "matmul", "--args",
             "f16[2048,2048], f16[2048,2048], f32[2048,2048], 128, 128, 32", "--grid", "16,16", "--format", "json")
    assert p.returncode == 0, p.stderr
    j = json.loads(p.stdout)
    # as launched: 256-thread, TMA-fed blocks at the register ceiling, one per SM, so 256 blocks are ~2 waves
    assert j["grid"] == [16, 16, 1] and j["predicted_us"] > 0 and j["tma"] and j["bound"] == "latency"
    assert j["flops"]["tensor float16"] == 2 * 2048 ** 3
    p = _cli("examples/matmul.py", "--kernel", "matmul", "--args", "f16[2048,2048], f16[2048,2048], f32[2048,2048], "
             "128, 128, 32", "--grid", "16,16", "--format", "json", "--as-written", "--no-cubin")
    j = json.loads(p.stdout)           # the dynamically shaped build: two 128-thread blocks per SM
    assert not j["tma"] and j["bound"] == "too few blocks"     # 256 blocks < 264 slots
    p = _cli("examples/vector_add.py", "--as-written", "--format", "json")
    # dynamically shaped, 1,024 blocks are 0.65 of a wave of element-by-element code; its 12.6 MB stay in L2
    # from one launch to the next, so its loads in flight wait L2's round trip (version 78): set A's
    # vector_add_f32_1M measured 4.45 µs
    assert p.returncode == 0 and json.loads(p.stdout)["predicted_us"] == pytest.approx(4.45, rel=0.3)
    p = _cli("examples/vector_add.py")
    assert p.returncode == 0 and "grid inferred" in p.stdout and "bound by memory bandwidth" in p.stdout
    assert "as a launch allocates them" in p.stdout


@pytest.mark.parametrize("args, message", [
    (["examples/matmul.py", "--grid", "0,4"], "bad --grid"),
    (["examples/matmul.py", "--grid", "4", "--gpu", "v100"], "unknown GPU"),
    (["examples/matmul.py", "--grid", "4", "--args", "f16[?"], "bad --args"),
    (["examples/matmul.py", "--kernel", "nope", "--grid", "4"], "no kernel named"),
])
def test_cli_bad_input_is_a_clear_error(args, message):
    p = _cli(*args)
    assert p.returncode == 2 and message in p.stderr and "Traceback" not in p.stderr


def test_language_server_hover_on_a_kernel_name_shows_its_cost():
    from tilescope.tools.lsp.features import hover
    from tilescope.tools.lsp.summary import summarize
    path = os.path.join(EX, "matmul.py")
    with open(path) as f:
        text = f.read()
    line = 1 + text.splitlines().index("def matmul(a, b, c, TM: ct.Constant[int], TN: ct.Constant[int], "
                                       "TK: ct.Constant[int]):")
    h = hover(summarize(text, path), line, 6)
    assert h is not None and "cost on H200" in h.markdown and "bound by" in h.markdown and "GFLOP" in h.markdown


def _kernels():
    return load_file(os.path.join(ROOT, "tests", "cost", "kernels_cost.py"))


def test_gathers_along_rows_stream_and_strided_ones_cost_a_sector_per_element():
    rows = 65536                                                     # arrays of 128 MB: beyond the L2
    r = tilescope.cost(_kernels().gather_rows, f"f16[{rows},1024], f16[1024,{rows}], 1024", (rows,))
    gather, scatter = [a for a in r.counts.accesses if a.kind in ("gather", "scatter")]
    assert gather.contiguous and gather.row_bytes == 2048 and gather.rows == 1
    assert gather.dram_bytes == rows * 1024 * 2                      # the array, once
    assert not scatter.contiguous                                    # lanes strided by a row
    assert scatter.dram_bytes == rows * 1024 * 32                    # a sector per element


def test_whole_row_tiles_are_one_run_of_memory():
    t = tilescope.cost(example("transpose").transpose, "f32[4096,128], f32[128,4096], 64, 128", (64, 1))
    load = [a for a in t.counts.accesses if a.kind == "load"][0]
    assert load.rows == 1 and load.row_bytes == 64 * 128 * 4        # 64 whole rows of 128
    part = tilescope.cost(example("transpose").transpose, "f32[4096,256], f32[256,4096], 64, 128", (64, 2))
    load = [a for a in part.counts.accesses if a.kind == "load"][0]
    assert load.rows == 64 and load.row_bytes == 128 * 4            # half rows: 64 runs


def test_min_of_a_runtime_scalar_bounds_the_loop_and_is_stated():
    r = tilescope.cost(_kernels().until_limit, "f32[65536], f32[8192], i32, 1024", (8,))
    loop = [reg for reg in r.counts.regions if reg.op is not None][0]
    assert list(loop.trips) == [64] * 8                              # at most the 64 tiles
    assert any("upper bound" in a for a in r.to_json()["assumptions"])


def test_loops_bounded_by_runtime_scalars_walk_the_tiles_their_variable_indexes():
    # M, N, K are runtime scalars: the persistent loop covers c's 4x2 tiles from each block's index
    # by the grid's stride, the K loop a's 6 tiles along K (v14; before, each counted 1 iteration)
    r = tilescope.cost(_kernels().persistent_matmul_sized,
                       "f16[256,384], f16[384,128], f32[256,128], i32, i32, i32, 64, 64, 64", (3,))
    outer, inner = [reg for reg in r.counts.regions if reg.op is not None]
    assert list(outer.trips) == [3, 3, 2]                            # tiles 0..7 by a stride of 3
    assert list(inner.trips) == [18, 18, 12]                         # 6 K tiles per output tile
    assert r.prediction.flops["tensor float16"] == 2 * 256 * 128 * 384
    notes = r.to_json()["assumptions"]
    assert any("8 tiles of 'c'" in a for a in notes) and any("6 tiles of 'a'" in a for a in notes)
    # a runtime bound whose variable indexes no tile stays one stated iteration
    r = tilescope.cost(_kernels().scalar_bound_no_tiles, "f32[4096], f32[4096], i32, 1024", (4,))
    assert list(r.counts.regions[1].trips) == [1] * 4
    assert any("counted as 1 iteration" in a for a in r.to_json()["assumptions"])


def test_mma_operands_named_by_role_and_layout():
    r = tilescope.cost(_kernels().mma_layouts, "f16[8192,4096], f16[4096,64], f16[64,4096], f32[8192,64], 64, 64, 32",
                       (128,))
    roles = [a.operand for a in r.counts.accesses if a.feeds_mma]
    assert roles == ["a", "b", "b-kmajor", "b-kmajor"]
    # the same bytes cost less along K than along N (the operand-layout microbenchmarks)
    from tilescope.costmodel.calibration import H200
    rates = {role: r0 for role, r0, _ in H200.operand_rates}
    assert rates["b-kmajor"] > rates["b"]


def test_exp2_is_counted_at_its_own_rate():
    r = tilescope.cost(_kernels().exps, "f32[1048576], f32[1048576], 1024", (1024,))
    work = r.counts.total_work()
    assert work.sfu == 2 * 1024 * 1024 and work.exp2 == 1024 * 1024


def test_instructions_per_element_follow_bounds_checks():
    from tilescope.costmodel.instructions import PER_BLOCK, PER_ELEMENT, PER_ELEMENT_UNCHECKED, warp_instructions
    rows = 65536                                                     # arrays of 128 MB: beyond the L2
    spec = f"f16[{rows},1024], f16[{rows},1024], 1024"
    # the dynamically shaped build: element-by-element code (a launch's build loads vectors)
    checked = tilescope.cost(_kernels().row_copy, spec + ", True", (rows,), aligned=False)
    unchecked = tilescope.cost(_kernels().row_copy, spec + ", False", (rows,), aligned=False)
    per_block = lambda r: warp_instructions(r.counts, 128) / rows / 4        # noqa: E731 (per warp)
    assert per_block(checked) == pytest.approx(PER_BLOCK + 2 * 1024 / 128 * PER_ELEMENT)
    assert per_block(unchecked) == pytest.approx(PER_BLOCK + 2 * 1024 / 128 * PER_ELEMENT_UNCHECKED)
    # both stream at the DRAM rate (the gather-copy microbenchmarks: 81 µs checked, 80 unchecked); the
    # bounds tests are instructions: the estimated code issues more and its accesses wait longer
    assert checked.prediction.terms["memory"] == pytest.approx(unchecked.prediction.terms["memory"])
    assert checked.prediction.cubin is None and checked.prediction.schedule == "estimated from the IR"
    assert checked.prediction.terms["issue"] > 1.4 * unchecked.prediction.terms["issue"]
    assert checked.predicted_us > 1.4 * unchecked.predicted_us
    assert unchecked.prediction.terms["memory"] == pytest.approx(2 * rows * 1024 * 2 / (4.8e12 * 0.8678) * 1e6,
                                                               rel=1e-3)


def test_row_kernels_with_short_rows_wait_on_their_instructions():
    # dynamically shaped: element-by-element code; its accesses' chain includes issuing that code
    r = tilescope.cost(_kernels().row_softmax, "f16[131072,1024], f16[131072,1024], 1024", (131072,), aligned=False)
    t = r.prediction.terms
    assert t["issue"] > t["memory"] > 0
    assert r.bound == "latency" and t["latency"] > t["issue"]


def test_without_a_cubin_the_report_shows_the_estimated_schedule():
    mm = example("matmul").matmul
    spec = "f16[4096,4096], f16[4096,4096], f32[4096,4096], 64, 64, 32"
    r = tilescope.cost(mm, spec, (64, 64))                 # as launched, from the IR alone
    j = r.to_json()
    assert j["cubin"] is None and j["schedule"] == "estimated from the IR"
    est = j["estimated_schedule"]
    # an mma kernel of aligned arrays: warp-specialised 256-thread blocks fed by the accelerator
    assert est["threads"] == 256 and est["tma_loads"] >= 1 and est["registers"] == 255
    assert "likely 256 threads" in r.text() and "copied by the TMA" in r.text()
    dynamic = tilescope.cost(mm, spec, (64, 64), aligned=False).to_json()["estimated_schedule"]
    assert dynamic["tma_loads"] == 0                       # no alignment facts: no accelerator copies
