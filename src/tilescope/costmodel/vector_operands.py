"""Tensor-core operands loaded element by element, several elements a lane at once (version 100).

The operand-path laws (`Calibration.mma_rate*`, `operand_rates`) were measured on microbenchmarks
whose cubins load one 2-byte element a lane per LDG. Their time is the loads' instructions and
waits, not bandwidth (a few KiB per µs per SM), so a build whose LDGs move 16 bytes a lane, eight
float16 elements, issues and waits an eighth as many for the same tile. Found on set AE's launched
block-sparse attention (16-byte loads of its key and value tiles, 4.30x, history 113) and AB's
launched banded 1-D convolution (2.32x): with the operand path divided by the elements a load
moves, 0.76x and 0.80x. Float32 products on the CUDA cores read their operands another way and
keep the path as measured.
"""
import math
from typing import List, Optional

from .counts import Access
from .cubin_facts import CubinFacts


def lane_elements(operands: List[Access], facts: Optional[CubinFacts]) -> float:
    """Elements one lane's LDG moves for `operands`: the cubin's mean bytes a load over the widest
    operand's element size, down to a power of two (vector widths are; a mean between them is loads
    of several widths, whose operands' share the code does not tell); 1 without a cubin width or for
    a CUDA-core float32 product."""
    if facts is None or not facts.global_load_bytes or not operands:
        return 1.0
    if any(a.mma_dtype == "float32" for a in operands):
        return 1.0
    elements = facts.global_load_bytes / max(a.itemsize for a in operands)
    return 2.0 ** math.floor(math.log2(elements)) if elements >= 1 else 1.0
