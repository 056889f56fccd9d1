"""Tensor-core operands loaded element by element, several elements a lane at once (version 101).

The operand-path laws (`Calibration.mma_rate*`, `operand_rates`) were measured on microbenchmarks
whose cubins load one 2-byte element a lane per LDG. A launch's build of tiles loaded without the
accelerator (`allow_tma=False`) over aligned arrays loads eight float16 elements a lane with one
16-byte LDG, and runs faster than those laws say: set AE's launched block-sparse attention 4.30x,
AB's launched banded 1-D convolution 2.32x. Fewer instructions, but not by the whole width: the
loop still waits for each load and lays the tile out in shared memory for the tensor cores. Divided
by the elements a load moves (version 100), the `vecop_*` microbenchmarks as launched came to
0.21-0.77x; by the square root of them, 0.44-1.79x (6 of 12 within 30%, against 1 of 12 for
version 99), and the two launches 1.70x and 1.21x. Float32 products on the CUDA cores read
their operands another way and keep the path as measured.
"""
import math
from typing import List, Optional

from .counts import Access
from .cubin_facts import CubinFacts

# the operand path's time is divided by (elements a lane's LDG moves) ** ELEMENTS_EXPONENT (the
# vecop_* microbenchmarks, bench/results/cost_micro_vecop_h100.json, docs history 174)
ELEMENTS_EXPONENT = 0.5


def vector_gain(operands: List[Access], facts: Optional[CubinFacts]) -> float:
    """What vector loads divide the operand path's time by: the elements one lane's LDG moves (the
    cubin's mean bytes a load over the widest operand's element size, down to a power of two: vector
    widths are, and a mean between them is loads of several widths whose share the code does not
    tell) to the ELEMENTS_EXPONENT; 1 without a cubin width or for a CUDA-core float32 product."""
    if facts is None or not facts.global_load_bytes or not operands:
        return 1.0
    if any(a.mma_dtype == "float32" for a in operands):
        return 1.0
    elements = facts.global_load_bytes / max(a.itemsize for a in operands)
    return (2.0 ** math.floor(math.log2(elements))) ** ELEMENTS_EXPONENT if elements >= 1 else 1.0
