"""What a block draws when few blocks share the GPU (version 85).

The per-block load laws of calibration.py were measured with a block on every SM (`load_chain_*_g132`):
each load's round trip and transfer include the queues the other SMs' traffic builds in L2 and DRAM.
A launch of fewer blocks than SMs leaves most of them idle, and its blocks wait less. The
microbenchmarks of bench/results/cost_micro85_lone_h100.json time `load_chain` on 1 to 132 blocks
(element loads, dynamic and aligned builds) and a one-tile column sum whose launched build has the
accelerator copy a 256 KiB to 2 MiB tile (straight code): alone, a block's element loads take 0.31
of the loaded round trip and 0.80 of its time per KiB (the shares that fit the four lone launches
best), and the accelerator moves a lone block's tile at 0.25 of the loaded law's time per KiB (its
copy engine's rate; with more blocks DRAM's rate, the memory term, takes over). The loaded laws hold
from a quarter of the SMs busy (`load_chain` of 16 KiB a step reaches 80-95% of its loaded step by 16
to 33 blocks; set AI's 48-block and AG's 96-block column sums stay at the loaded law's time), and
below that the shares grow with the blocks.

Version 87: the element law was measured with the dynamic `load_chain`, whose lanes do not read
neighbouring elements. A gather of consecutive elements has a warp's lanes read one line (coalesced
LDGs, as the aligned `load_chain` loads): alone, its time per KiB is 0.19 of the loaded element
law's (the aligned build's lone 0.0157 µs a KiB over the dynamic build's loaded 0.081), where set
AP's and AQ's one-block means of such gathers ran at about 0.018.
"""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Dict, Tuple

from .calibration import Calibration, _line

LONE_LOAD_SHARE = (0.31, 0.80)     # element loads, one block alone: (round trip, µs per KiB) of the loaded law
LONE_GATHER_SHARE = 0.19           # a gather of consecutive elements (coalesced LDGs), one block alone:
                                   # µs per KiB of the loaded element law
LONE_COPY_SHARE = 0.25             # the accelerator's copies, one block alone: µs per KiB of the loaded law
LOADED_FROM = 0.25                 # the share of SMs with a block from which the loaded laws hold
LOADED_BLOCKS = 132                # the grid of the loaded laws: a block on every SM of the H100/H200
CHAIN_ITERATIONS = 256             # load_chain's loop trips
CHAIN_TILES = (1024, 4096)         # float32 elements a step: 4 and 16 KiB
COLUMN_ROWS = (1024, 4096, 8192)   # column_sum_tile's (rows, 64) float32 tiles


def crowded_laws(cal: Calibration, blocks: int, sms: int) -> Calibration:
    """`cal` with the load laws a block of a launch of `blocks` blocks waits by: the loaded laws where
    every SM is busy, the lone block's where one is, in between by the share of SMs kept busy."""
    busy = min(1.0, blocks / (sms * LOADED_FROM)) if sms else 1.0
    if busy >= 1.0:
        return cal
    share = lambda lone: lone + (1.0 - lone) * busy        # noqa: E731
    (lat, per_kib), (lat_tma, per_kib_tma) = cal.load_us, cal.load_us_tma
    return replace(cal, load_us=(lat * share(LONE_LOAD_SHARE[0]), per_kib * share(LONE_LOAD_SHARE[1])),
                   load_us_tma=(lat_tma, per_kib_tma * share(LONE_COPY_SHARE)),
                   gather_share=share(LONE_GATHER_SHARE) / share(LONE_LOAD_SHARE[1]))


def derive(cases: Dict[str, dict], tma_per_kib: float) -> Tuple[Tuple[float, float], float, float]:
    """(LONE_LOAD_SHARE, LONE_GATHER_SHARE, LONE_COPY_SHARE) from the microbenchmark times `cases`
    (name -> {"us"}), the accelerator's share over `tma_per_kib`, the loaded law's µs per KiB at the
    run's clock."""
    step = lambda name: cases[name]["us"] / CHAIN_ITERATIONS       # noqa: E731
    line = lambda grid, build: _line([(t * 4 / 1024, step(f"lone_chain_t{t}_g{grid}{build}"))  # noqa: E731
                                      for t in CHAIN_TILES])
    points = []                     # (loaded round trip, loaded µs per KiB, KiB, lone µs a step)
    for build in ("", "_tma"):
        lat, per_kib = line(LOADED_BLOCKS, build)
        points += [(lat, per_kib, t * 4 / 1024, step(f"lone_chain_t{t}_g1{build}")) for t in CHAIN_TILES]
    def misfit(shares):
        return sum(math.log((shares[0] * lat + shares[1] * kib * per_kib) / lone) ** 2
                   for lat, per_kib, kib, lone in points)
    grid = [i / 100 for i in range(5, 101)]
    load = min(((a, b) for a in grid for b in grid), key=misfit)
    _, lone_per_kib = _line([(rows * 64 * 4 / 1024, cases[f"lone_column_sum_f32_{rows}x64_g1_launch"]["us"])
                             for rows in COLUMN_ROWS])
    gather = round(line(1, "_tma")[1] / line(LOADED_BLOCKS, "")[1], 2)
    return load, gather, round(lone_per_kib / tma_per_kib, 2)
