"""The palette codes of an array's cells (png.codes) with only the colours that occur
(png._compact), in C: two passes over the cells, where NumPy takes a dozen. Used where the
compiled backend's C compiler is (or its library is cached); png.codes and png._compact are
the reference and the fallback."""
from __future__ import annotations

import ctypes
from typing import Optional, Tuple

import numpy as np

from ..backends.compiled import toolchain

_SOURCE = r"""
#include <stdint.h>

/* Per cell (S slices of rows x cols): the writer's full hue where a block wrote it, else the
   reader's pale hue (block -1: white), as png.codes orders the palette (`both`: 0 none
   written, 1 none read, 2 some of each), then the flags' colours over it in png.codes's
   order. Codes that occur (and `gap`, when >= 0) are numbered in palette order (`remap`,
   `used`); the cells get those numbers. Returns how many occur. */
__attribute__((visibility("default")))
int64_t ts_cell_codes(int64_t S, int64_t rows, int64_t cols, const int32_t *w, const int32_t *r,
                      const uint8_t *f, const uint16_t *rcount, int both, int32_t pale0, int32_t full0,
                      int32_t gap, int32_t greys, const int32_t *fixed, int32_t *code, int32_t *remap,
                      int32_t *used, int64_t npalette)
{
    /* fixed: RACE, PADDING, OOB, UNWRITTEN, ATOMIC, SHARED flags; then the colours
       UNWRITTEN_C, STRIPE_A, STRIPE_B, ATOMIC_C, RACE_C, OOB_C */
    const int32_t RACE = fixed[0], PADDING = fixed[1], OOB = fixed[2], UNWRITTEN = fixed[3],
                  ATOMIC = fixed[4], SHARED = fixed[5];
    int64_t i = 0;
    for (int64_t s = 0; s < S; s++)
        for (int64_t y = 0; y < rows; y++)
            for (int64_t x = 0; x < cols; x++, i++) {
                int32_t c = both == 0 ? r[i] + pale0 : both == 1 ? w[i] + full0
                          : w[i] >= 0 ? w[i] + full0 : r[i] + pale0;
                uint8_t g = f[i];
                if (g) {
                    if ((g & SHARED) && r[i] >= 0 && w[i] < 0) c = greys + (rcount[i] < 255 ? rcount[i] : 255);
                    if (g & UNWRITTEN) c = fixed[6];
                    if (g & PADDING) c = (y + x) % 4 < 2 ? fixed[7] : fixed[8];
                    if ((g & ATOMIC) && w[i] < 0) c = fixed[9];
                    if (g & RACE) c = fixed[10];
                    if (g & OOB) c = fixed[11];
                }
                code[i] = c;
                remap[c] = 1;
            }
    if (gap >= 0) remap[gap] = 1;
    int64_t n = 0;
    for (int64_t c = 0; c < npalette; c++)
        if (remap[c]) { used[n] = (int32_t)c; remap[c] = (int32_t)n++; }
    for (int64_t k = 0; k < i; k++) code[k] = remap[code[k]];
    return n;
}
"""


def _function():
    p = ctypes.c_void_p
    i64, i32 = ctypes.c_int64, ctypes.c_int32
    return toolchain.helper(_SOURCE, "ts_cell_codes", [i64, i64, i64, p, p, p, p, ctypes.c_int, i32, i32, i32, i32,
                                                       p, p, p, p, i64], i64)


def cell_codes(m, palette: np.ndarray, both: int, pale0: int, full0: int, gap: Optional[int], greys: int,
               fixed) -> Optional[Tuple[np.ndarray, np.ndarray, Optional[int]]]:
    """(codes, the palette's colours that occur in their order, `gap`'s new code) of the maps
    `m` (see _SOURCE; `fixed`: the flags and fixed colours it names), or None where C is not
    at hand: the caller works them out in NumPy."""
    fn = _function()
    if fn is None:
        return None
    code = np.empty(m.wblock.shape, np.int32)
    remap = np.zeros(len(palette), np.int32)
    used = np.empty(len(palette), np.int32)
    table = np.asarray(fixed, np.int32)
    n = fn(*m.wblock.shape, m.wblock.ctypes.data, m.rblock.ctypes.data, m.flags.ctypes.data, m.rcount.ctypes.data,
           both, pale0, full0, -1 if gap is None else gap, greys, table.ctypes.data, code.ctypes.data,
           remap.ctypes.data, used.ctypes.data, len(palette))
    return code, palette[used[:n]], None if gap is None else int(remap[gap])
