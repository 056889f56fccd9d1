"""Model version 6: the block schedule read from tileiras's cubin (threads, registers, shared
memory, spills, code) and what it changes in the prediction."""
import dataclasses
import json
import os
import struct
import subprocess
import sys

import pytest

import tilescope
from tilescope.backends.tileir.toolchain import find_toolchain
from tilescope.costmodel import CubinFacts, read_cubin_facts
from tilescope.costmodel.counts import count
from tilescope.costmodel.cubin_facts import CubinFactsError, _decode, _loads_in_flight
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.model import predict
from tilescope.costmodel.schedule import LOADED_LATENCY_US, access_chain_us, blocks_per_sm, in_flight_us
from tilescope.launch_args import normalize_grid
from tilescope.lang.shim import load_file
from tilescope.meta import parse_args

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLCHAIN = find_toolchain(required=False)
needs_tileiras = pytest.mark.skipif(TOOLCHAIN is None, reason="tileiras not found")
N = 1 << 24
VECTOR_ADD = f"f32[{N}], f32[{N}], f32[{N}], 1024"


def _vector_add():
    return load_file(os.path.join(ROOT, "examples", "vector_add.py")).vector_add


def _kernels():
    return load_file(os.path.join(ROOT, "tests", "cost", "kernels_cost.py"))


@pytest.fixture(scope="module")
def vector_add_cubin():
    if TOOLCHAIN is None:
        pytest.skip("tileiras not found")
    return tilescope.compile(_vector_add(), parse_args(VECTOR_ADD)).cubin("sm_90")


def _counts(kernel, spec, grid):
    return count(tilescope.compile(kernel, parse_args(spec)).final, normalize_grid(grid))


def _facts(**changes):
    base = CubinFacts("k", threads=128, registers=32, shared_bytes=0, local_bytes=0, instructions=300,
                      global_loads=16, global_stores=8, local_loads=0, local_stores=0)
    return dataclasses.replace(base, **changes)


@needs_tileiras
def test_the_reader_agrees_with_the_launcher_and_counts_the_code(vector_add_cubin):
    from tilescope.gpu.cubin import kernel_info
    facts = read_cubin_facts(vector_add_cubin)
    info = kernel_info(vector_add_cubin)
    assert facts.kernel == info.name
    assert facts.threads == info.block[0] * info.block[1] * info.block[2]
    assert facts.shared_bytes == info.static_shared
    assert 16 <= facts.registers <= 255 and facts.local_bytes == 0
    # 1024 f32 elements over 128 threads: 8 per thread, each its own load (two arrays) and store
    assert facts.global_loads >= 2 and facts.global_stores >= 1 and facts.local_loads == 0
    assert facts.instructions > facts.global_accesses
    assert 1.0 <= facts.loads_in_flight <= facts.global_loads
    assert facts.global_load_bytes == facts.global_access_bytes == 4.0       # f32 loads and stores, one a thread
    assert read_cubin_facts(vector_add_cubin, arch="sm_100").global_loads is None     # opcodes known for sm_90


@needs_tileiras
def test_a_kernel_name_that_is_not_in_the_cubin_is_named(vector_add_cubin):
    with pytest.raises(CubinFactsError, match="'nope' is not in the cubin"):
        read_cubin_facts(vector_add_cubin, "nope")


@pytest.mark.parametrize("data, message", [(b"", "not an ELF"), (b"\x7fELF" + bytes(60), "ELF64"),
                                           (b"\x7fELF\x02\x01" + bytes(58), "EM_CUDA")])
def test_bytes_that_are_no_cubin_are_refused(data, message):
    with pytest.raises(CubinFactsError, match=message):
        read_cubin_facts(data)


@needs_tileiras
def test_cost_with_the_cubin_says_so_in_its_report(vector_add_cubin):
    r = tilescope.cost(_vector_add(), VECTOR_ADD, (N // 1024,), aligned=False, cubin=vector_add_cubin)
    j = r.to_json()
    assert j["schedule"] == "from the cubin" and j["cubin"]["threads"] == 128
    facts = read_cubin_facts(vector_add_cubin)
    assert j["blocks_per_sm"] == blocks_per_sm(r.counts, gpu_named("h200"), facts)
    assert "schedule from the cubin" in r.text()
    ir = tilescope.cost(_vector_add(), VECTOR_ADD, (N // 1024,), aligned=False)
    assert ir.to_json()["schedule"] == "estimated from the IR" and ir.to_json()["cubin"] is None
    auto = tilescope.cost(_vector_add(), VECTOR_ADD, (N // 1024,), aligned=False, cubin="auto")
    assert auto.to_json()["cubin"] == j["cubin"]                 # tileiras built the same cubin


def test_auto_falls_back_to_the_estimate_and_says_why(monkeypatch):
    compiled = tilescope.compile(_vector_add(), parse_args(VECTOR_ADD))

    def no_tileiras(*a, **k):
        raise RuntimeError("tileiras not found (install the tileiras extra)")
    monkeypatch.setattr(compiled, "cubin", no_tileiras)
    r = tilescope.costmodel.cost_of_compiled(compiled, (N // 1024,), cubin="auto")
    assert r.prediction.schedule == "estimated from the IR"
    assert any("no cubin (tileiras not found" in a for a in r.to_json()["assumptions"])
    with pytest.raises(RuntimeError):
        tilescope.costmodel.cost_of_compiled(compiled, (N // 1024,), cubin=True)


def test_occupancy_follows_threads_registers_and_shared_memory():
    counts = _counts(_vector_add(), VECTOR_ADD, (N // 1024,))
    h200 = gpu_named("h200")
    assert blocks_per_sm(counts, h200, _facts(registers=32)) == 16            # the 64-warp limit
    assert blocks_per_sm(counts, h200, _facts(registers=128)) == 4            # 4 warps x 128 x 32 regs
    assert blocks_per_sm(counts, h200, _facts(threads=256, registers=255)) == 1
    assert blocks_per_sm(counts, h200, _facts(shared_bytes=100 * 1024)) == 2   # 228 KiB per SM


def test_fewer_resident_warps_hide_less_of_the_access_latency():
    counts = _counts(_vector_add(), VECTOR_ADD, (N // 1024,))
    h200 = gpu_named("h200")
    many = predict(counts, h200, facts=_facts(registers=32))
    few = predict(_counts(_vector_add(), VECTOR_ADD, (N // 1024,)), h200, facts=_facts(registers=255))
    assert (many.blocks_per_sm, few.blocks_per_sm) == (16, 2)
    assert few.terms["latency"] > 3 * many.terms["latency"]
    assert few.schedule == "from the cubin" and predict(counts, h200).schedule == "estimated from the IR"


def test_loads_in_flight_beyond_the_copy_loops_share_the_access_wait():
    h200 = gpu_named("h200")
    counts = _counts(_vector_add(), VECTOR_ADD, (N // 1024,))
    chain = lambda **f: access_chain_us(counts, _facts(**f), h200, 4, 0.0, 1.0)     # noqa: E731
    assert chain(loads_in_flight=4.0) == chain(loads_in_flight=8.0) == chain() > 0   # as the copy loops
    assert chain(loads_in_flight=32.0) == pytest.approx(chain() / 4)


def test_spill_reloads_add_round_trips_and_code_sets_the_issue_time():
    h200 = gpu_named("h200")
    plain = predict(_counts(_vector_add(), VECTOR_ADD, (N // 1024,)), h200, facts=_facts())
    spilled = predict(_counts(_vector_add(), VECTOR_ADD, (N // 1024,)), h200, facts=_facts(local_loads=16))
    assert spilled.block_us > plain.block_us
    longer = predict(_counts(_vector_add(), VECTOR_ADD, (N // 1024,)), h200, facts=_facts(instructions=600))
    assert longer.terms["issue"] == pytest.approx(2 * plain.terms["issue"], rel=1e-6)


def _instruction(opcode, write_barrier=7, wait_mask=0):
    """One sm_90 instruction: its opcode in the low 12 bits, the scoreboard it releases and the
    scoreboards it waits on in the scheduling bits of the high word."""
    return struct.pack("<QQ", opcode, (write_barrier << 46) | (wait_mask << 52))


LDG, FADD = 0x981, 0x221


@pytest.mark.parametrize("code, in_flight", [
    ([_instruction(LDG, b) for b in range(4)] + [_instruction(FADD, wait_mask=0b1111)], 4.0),
    ([_instruction(LDG, 0), _instruction(FADD, wait_mask=1)] * 3, 1.0),
    # a wait on a scoreboard no load holds does not end a run of loads
    ([_instruction(LDG, 1), _instruction(FADD, wait_mask=0b100), _instruction(LDG, 2),
      _instruction(FADD, wait_mask=0b110)], 2.0),
    ([_instruction(FADD)] * 2, None)])
def test_loads_in_flight_are_read_from_the_scoreboards(code, in_flight):
    assert _loads_in_flight(_decode(b"".join(code))) == in_flight


def test_with_the_scoreboards_loads_in_flight_replace_the_element_rate_law():
    h200 = gpu_named("h200")
    spec = "f16[16777216], f16[16777216], f32[16777216], 4096"
    counts = lambda: _counts(_vector_add(), spec, (N // 4096,))            # noqa: E731
    serial = predict(counts(), h200, facts=_facts(loads_in_flight=1.0, global_access_bytes=2.0))
    overlapped = predict(counts(), h200, facts=_facts(loads_in_flight=8.0, global_access_bytes=2.0))
    unknown = predict(counts(), h200, facts=_facts())
    dram = overlapped.bytes["dram_read"] + overlapped.bytes["dram_write"]
    for p in (serial, overlapped):                     # the DRAM rate: no tile-length law with a cubin
        assert p.terms["memory"] == pytest.approx(dram / (4.8e12 * 0.8678) * 1e6, rel=1e-6)
    assert unknown.terms["memory"] > 2 * overlapped.terms["memory"]     # without scoreboards the law stays
    assert serial.terms["latency"] > 2 * overlapped.terms["latency"] and serial.bound == "latency"


def test_little_s_law_scales_with_loads_in_flight_warps_and_width():
    h200 = gpu_named("h200")
    counts = _counts(_vector_add(), "f32[16777216], f32[16777216], f32[16777216], 4096", (N // 4096,))
    predict(counts, h200, facts=_facts())              # sets each access's DRAM bytes
    floor = lambda per_sm=6, **f: in_flight_us(counts, _facts(global_access_bytes=4.0, **f), h200, per_sm)  # noqa: E731
    one = floor(loads_in_flight=1.0)
    assert one > 0 and floor(loads_in_flight=8.0) == pytest.approx(one / 8)
    assert floor(loads_in_flight=1.0, per_sm=2) == pytest.approx(3 * one)      # 8 warps instead of 24
    assert in_flight_us(counts, _facts(loads_in_flight=1.0, global_access_bytes=16.0), h200, 6) == pytest.approx(one / 4)
    assert in_flight_us(counts, _facts(), h200, 6) == 0.0                       # no scoreboards read
    loads = 2 * 16777216 * 4                            # a and b, read once from DRAM
    assert one == pytest.approx(loads / (132 * 24 * 32 * 4) * LOADED_LATENCY_US, rel=1e-6)


@pytest.mark.parametrize("n, contiguous", [(4096, True), (32, True), (16, False)])
def test_a_lane_index_split_by_a_constant_keeps_rows_contiguous(n, contiguous):
    rows = (1 << 20) // n
    r = tilescope.cost(_kernels().flat_rows, f"f16[{rows},{n}], f16[{rows},{n}], {n}, 256", ((1 << 20) // 256,))
    assert [a.contiguous for a in r.counts.accesses if a.kind in ("gather", "scatter")] == [contiguous] * 2


def test_a_gather_whose_masked_lanes_read_one_element_still_streams():
    n = 1 << 20
    r = tilescope.cost(_kernels().reverse_masked, f"f32[{n}], f32[{n}], {n}, 1024", (n // 1024,))
    gather = [a for a in r.counts.accesses if a.kind == "gather"]
    assert [a.contiguous for a in gather] == [True]
    assert gather[0].dram_bytes == pytest.approx(4 * n)                  # not a 32-byte sector per element


def test_blocks_that_walk_their_own_tiles_of_a_flat_array_share_none():
    rows, tiles, tile = 4096, 4, 1024
    n = rows * tiles * tile
    r = tilescope.cost(_kernels().row_sum_flat, f"f32[{n}], f32[{rows}], {tiles}, {tile}", (rows,))
    assert r.prediction.bytes["dram_read"] == pytest.approx(4 * n)        # every tile read once from DRAM
    assert r.prediction.bytes["l2_absorbed"] == pytest.approx(0)


@needs_tileiras
def test_cli_reads_the_cubin_unless_told_not_to():
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "src"))
    base = [sys.executable, "-m", "tilescope", "cost", "examples/vector_add.py", "--args", VECTOR_ADD,
            "--grid", str(N // 1024), "--format", "json"]
    with_cubin = json.loads(subprocess.run(base, capture_output=True, text=True, env=env, cwd=ROOT).stdout)
    without = json.loads(subprocess.run(base + ["--no-cubin"], capture_output=True, text=True, env=env,
                                        cwd=ROOT).stdout)
    assert with_cubin["schedule"] == "from the cubin" and with_cubin["cubin"]["registers"] > 0
    assert without["schedule"] == "estimated from the IR" and without["cubin"] is None
