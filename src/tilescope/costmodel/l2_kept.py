"""What L2 keeps of a launch's data for the next launch (back-to-back launches, as the validation
times them and a training step repeats them): all of it where it fits a share of L2 (version 78),
a part of it where it does not (version 105). `model._dram` sets each access's answer."""
from __future__ import annotations

from typing import Dict, List, Optional

from .counts import Access, Counts
from .gpus import GPU

# back-to-back launches find a launch's arrays in L2 where what it moves fits this share of L2, as the
# far partition's lines are kept twice (version 78; model.L2_RESIDENT_SHARE is the same half)
IN_L2_SHARE = 0.5


def l2_kept_share(counts: Counts, gpu: GPU, held: Optional[Dict[int, float]] = None) -> float:
    """The share of a launch's data (its DRAM bytes, or what accesses hold in L2, by `id`, where
    `held` says: v104) that L2 keeps from one launch to the next (the validation's back-to-back
    launches, a training step's repeated kernel): all of it where it fits IN_L2_SHARE of the L2
    (version 78: set AG's (8192, 32) column sum waits 1,024 round trips of 0.157 µs, L2's, not
    DRAM's 0.54, history 125), else that share of the L2 over the data (version 105)."""
    footprint = sum((held or {}).get(id(a), a.dram_bytes) for a in counts.accesses)
    room = IN_L2_SHARE * gpu.l2_mb * 1e6
    return 1.0 if footprint <= room else room / footprint


def left_in_l2(accesses: List[Access]) -> bool:
    """Whether the launch before left these accesses' data in L2, all of them: from the share
    `model._dram` sets on each access (`Access.l2_kept_share`), so every rule asks the one answer."""
    return bool(accesses) and all(a.l2_kept_share >= 1.0 for a in accesses)
