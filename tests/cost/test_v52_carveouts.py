"""Model version 52: an SM's shared memory is one of the capacities it can be set to (Hopper:
0, 8, 16, 32, 64, 100, 132, 164, 196 or 228 KB), the least that holds its blocks' shared
memory; L1 is what is left of the combined array."""
from tilescope.costmodel import CubinFacts
from tilescope.costmodel.gpus import gpu_named
from tilescope.costmodel.schedule import reloads_missing_l1

KB = 1024


def test_the_shared_part_rounds_up_to_a_capacity_the_sm_can_be_set_to():
    h200 = gpu_named("h200")
    assert h200.l1_left_bytes(0) == 256 * KB
    assert h200.l1_left_bytes(1 * KB) == (256 - 8) * KB
    assert h200.l1_left_bytes(40 * KB) == (256 - 64) * KB
    assert h200.l1_left_bytes(100 * KB) == (256 - 100) * KB
    assert h200.l1_left_bytes(101 * KB) == (256 - 132) * KB
    assert h200.l1_left_bytes(228 * KB) == 28 * KB
    assert gpu_named("b200").l1_left_bytes(70 * KB) == (256 - 100) * KB


def test_a_gpu_without_a_list_keeps_the_remainder():
    a100 = gpu_named("a100")
    assert a100.l1_left_bytes(70 * KB) == (192 - 70) * KB


def _facts(shared_bytes, reload_bytes):
    return CubinFacts("k", threads=256, registers=255, shared_bytes=shared_bytes, local_bytes=reload_bytes,
                      instructions=5000, local_loads=100, local_stores=100, local_load_waits=40,
                      reload_bytes=reload_bytes)


def test_spills_that_fit_the_remainder_can_miss_the_l1_a_carveout_leaves():
    h200 = gpu_named("h200")
    # 69 KB of shared memory and 1 KB reserved: the SM is set to 100 KB, 156 KB of L1 left;
    # 256 threads reloading 680 bytes each need 170 KB: about 8% beyond L1
    facts = _facts(69 * KB, 680)
    assert 0.07 < reloads_missing_l1(facts, 1, h200) < 0.09
    # 0.6 KB each (150 KB) fit
    assert reloads_missing_l1(_facts(69 * KB, 600), 1, h200) == 0.0
