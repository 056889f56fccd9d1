"""Model version 73: a cubin with accelerator loads and not one LDG makes none of its reads element
by element, gathers included (tileiras copies their rows to shared memory, LDGSTS): they leave the
element-access chain and Little's law for the loads in flight (docs/cost-model.md history 115: set
AE's launched 1-D convolution by gathered windows was charged 1,536 warp accesses a block it does
not make, 2.30x)."""
import dataclasses
import os

import pytest

import tilescope
from tilescope.costmodel import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.schedule import access_chain_us, element_accesses
from tilescope.lang.shim import load_file

KERNELS = load_file(os.path.join(os.path.dirname(__file__), "kernels_lanes.py"))
N = 1 << 24
FACTS = CubinFacts("k", threads=128, registers=64, shared_bytes=0, local_bytes=0, instructions=400,
                   global_loads=0, global_stores=8, local_loads=0, local_stores=0, tma_loads=2, tma_stores=0,
                   global_access_bytes=2.0, global_load_bytes=None)


def _counts():
    return tilescope.cost(KERNELS.gather_by_table, f"f16[{N}], i32[{N}], f16[{N}], 1024", (N // 1024,),
                          "h200").counts


def test_without_an_ldg_no_read_is_element_by_element():
    counts = _counts()
    kinds = {a.kind for a in element_accesses(counts, FACTS)}
    assert kinds == {"store"}
    with_ldg = dataclasses.replace(FACTS, global_loads=8)           # the index tile stays a copy
    assert {a.kind for a in element_accesses(counts, with_ldg)} == {"gather", "store"}
    no_copies = dataclasses.replace(FACTS, tma_loads=0)       # a cubin that loads nothing at all
    assert {a.kind for a in element_accesses(counts, no_copies)} == {"gather", "load", "store"}


def test_the_gathers_leave_the_access_chain():
    counts, h200 = _counts(), gpu_named("h200")
    copied = access_chain_us(counts, FACTS, h200, 1, 0.0, 0.0356)
    loaded = access_chain_us(counts, dataclasses.replace(FACTS, global_loads=8), h200, 1, 0.0, 0.0356)
    # of a block's 32 gather and 32 store warp accesses, only the stores wait
    assert copied == pytest.approx(loaded / 2)
