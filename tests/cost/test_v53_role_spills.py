"""Model version 53: in warp-specialised code each warpgroup's role reloads only its own spills, so
the spill areas L2 has to hold are those of the roles that spill, not every thread's."""
import dataclasses
import os
import struct

import pytest

import tilescope
from tilescope.backends.tileir.toolchain import find_toolchain
from tilescope.costmodel import CubinFacts, as_launched, read_cubin_facts
from tilescope.costmodel.cubin_facts import _decode, _memory_instructions, _roles, _spill_area_bytes
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.schedule import reload_wait_us, spill_area_bytes
from tilescope.lang.shim import load_file
from tilescope.meta import parse_args

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
needs_tileiras = pytest.mark.skipif(find_toolchain(required=False) is None, reason="tileiras not found")
LDL, FADD, SETMAXREG = 0x983, 0x221, 0x9C8


def _ldl(offset):
    return struct.pack("<QQ", LDL | offset << 40, 4 << 9 | 7 << 46)


def _setmaxreg(budget):
    return struct.pack("<QQ", SETMAXREG | budget << 32, 0)


def _fadd(wait_mask=0):
    return struct.pack("<QQ", FADD, 7 << 46 | wait_mask << 52)


def _reload_and_wait(offset):
    """An LDL releasing scoreboard 0 and an add waiting on it: one stop for a spilled value."""
    return struct.pack("<QQ", LDL | offset << 40, 4 << 9 | 0 << 46) + _fadd(wait_mask=1)


def test_code_without_roles_gives_every_thread_a_spill_area():
    code = b"".join([_ldl(0), _ldl(4), _fadd()])
    assert _spill_area_bytes(_roles(_decode(code)), 256, 255) == 256 * 8


def test_each_role_counts_its_own_warpgroup_and_spills():
    # prologue, two computing roles (budget 232 above the kernel's 168), the producer (budget 32)
    prologue = [_fadd()]
    first = [_setmaxreg(232)] + [_ldl(4 * k) for k in range(10)]     # 40 bytes a thread
    second = [_setmaxreg(232), _fadd()]                               # no spills
    producer = [_setmaxreg(32), _ldl(0)]                              # 4 bytes
    words = _decode(b"".join(prologue + first + second + producer))
    assert _spill_area_bytes(_roles(words), 384, 168) == 128 * 40 + 128 * 4
    # no role raises its budget: the code before the producer's is the computing threads'
    words = _decode(b"".join(first[1:] + producer))
    assert _spill_area_bytes(_roles(words), 256, 255) == 128 * 40 + 128 * 4


def test_a_thread_stops_for_its_own_roles_reloads():
    first = [_setmaxreg(232)] + [_reload_and_wait(4 * k) for k in range(6)]
    second = [_setmaxreg(232)] + [_reload_and_wait(4 * k) for k in range(2)]
    producer = [_setmaxreg(32), _fadd()]
    counts = _memory_instructions(b"".join([_fadd()] + first + second + producer))
    assert counts["local_load_waits"] == 6 and counts["local_loads"] == 6
    # the same code without roles: one thread runs it all
    counts = _memory_instructions(b"".join(first[1:] + second[1:]))
    assert counts["local_load_waits"] == 8 and counts["local_loads"] == 8


def test_l2_holds_the_spills_of_the_roles_that_spill():
    h200 = gpu_named("h200")
    every = CubinFacts("k", threads=384, registers=168, shared_bytes=100_000, local_bytes=8000, instructions=20000,
                       local_loads=4000, local_stores=3000, local_load_waits=1000, reload_bytes=8000,
                       reload_wait_bytes=14.0)
    one_role = dataclasses.replace(every, spill_area_bytes=128 * 8000)
    assert spill_area_bytes(every) == 384 * 8000
    # 405 MB of areas over 132 SMs: 85% beyond the 60 MB of L2; a third of them, 135 MB: 56%
    far = reload_wait_us(every, 1, h200, 0.16, 0.33, 116_000)
    near = reload_wait_us(one_role, 1, h200, 0.16, 0.33, 116_000)
    assert 0.29 < far < 0.31 and 0.24 < near < 0.26


@needs_tileiras
def test_tileiras_spills_in_one_role_of_a_warp_specialised_build():
    kernels = load_file(os.path.join(ROOT, "bench", "cost_kernels.py"))
    spec = as_launched(parse_args("float8_e4m3fn[128,512], float8_e4m3fn[512,128], f32[16896,128], "
                                  "2048, 8, 128, 128, 64"))
    facts = read_cubin_facts(tilescope.compile(kernels.mw_summed, spec).cubin("sm_90"))
    assert facts.threads == 384 and facts.local_loads
    # one computing warpgroup of three holds the spills
    assert facts.spill_area_bytes < 0.4 * facts.reload_bytes * facts.threads
