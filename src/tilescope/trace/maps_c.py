"""The fold of one run of tile accesses into an array's maps (maps._fold_tiles), in C.

A run's accesses are first summed up per tile (last and first block, count, last op), then
looked up per cell, each cell's maps updated as maps._add does: two passes in all, where
NumPy takes a dozen over the cells. Used where the compiled backend's C compiler is (or its
library is cached); maps._fold_tiles's NumPy passes are the reference and the fallback.
"""
from __future__ import annotations

import ctypes
from typing import Optional

import numpy as np

from ..backends.compiled import toolchain

_SOURCE = r"""
#include <stdint.h>
#include <stdlib.h>

#define TS_KEPT_TILES (1 << 20)

/* one cell's update, the access's kind and the ops' source fixed for each loop (no branch on
   them inside it) */
static inline void fold_cell(int64_t i, int32_t k, int write, const int16_t *lastop, int16_t op,
                             const int32_t *last, const int32_t *first, const uint32_t *cnt,
                             const uint8_t *outside, int32_t *bmap, uint16_t *cmap, uint8_t *flags,
                             int16_t *opmap, uint8_t several_flag, uint8_t padding_flag)
{
    int32_t lb = last[k], fb = first[k], prev = bmap[i];
    int several = lb != fb;
    if (write) {
        several |= prev >= 0 && prev != lb;
        if (lb > prev) bmap[i] = lb;
    } else {
        several |= prev >= 0 && prev != fb;
        if (prev < 0 || fb < prev) bmap[i] = fb;
        if (outside[i]) flags[i] |= padding_flag;
    }
    uint32_t c = (uint32_t)cmap[i] + cnt[k];
    cmap[i] = c > 65535 ? 65535 : (uint16_t)c;
    if (several) flags[i] |= several_flag;
    opmap[i] = lastop ? lastop[k] : op;
}

#define FOLD_CELLS(WRITE, LASTOP) \
    for (int64_t i = 0; i < ncells; i++) { \
        int32_t k = cell[i]; \
        if (k < nkeys && cnt[k]) \
            fold_cell(i, k, WRITE, LASTOP, op, last, first, cnt, outside, bmap, cmap, flags, opmap, \
                      several_flag, padding_flag); \
    }

/* entries: n accesses, each its tile `key` (in [0, nkeys)), its block and (op_of, when given)
   its op; cells: each cell's tile (nkeys: none), `outside` where its element lies past the
   array. The maps of the access's kind (block, count) and the shared flags and ops. */
__attribute__((visibility("default")))
int ts_fold_tiles(int64_t n, const int32_t *key, const int32_t *block, const int16_t *op_of, int16_t op,
                  int64_t nkeys, int64_t ncells, const int32_t *cell, const uint8_t *outside, int write,
                  int32_t *bmap, uint16_t *cmap, uint8_t *flags, int16_t *opmap,
                  uint8_t several_flag, uint8_t padding_flag)
{
    /* per tile: last and first block, count, last op; kept for the thread's next call up to
       TS_KEPT_TILES tiles (fresh memory would page-fault on every call, as long as the fold
       itself), made and freed per call past it */
    static __thread int32_t *kept_last, *kept_first;
    static __thread uint32_t *kept_cnt;
    static __thread int16_t *kept_lastop;
    static __thread int64_t room;
    int kept = nkeys <= TS_KEPT_TILES;
    if (kept && nkeys > room) {
        free(kept_last); free(kept_first); free(kept_cnt); free(kept_lastop);
        kept_last = malloc(nkeys * sizeof(int32_t)); kept_first = malloc(nkeys * sizeof(int32_t));
        kept_cnt = malloc(nkeys * sizeof(uint32_t)); kept_lastop = malloc(nkeys * sizeof(int16_t));
        room = kept_last && kept_first && kept_cnt && kept_lastop ? nkeys : 0;
    }
    int32_t *last = kept ? (room ? kept_last : NULL) : malloc(nkeys * sizeof(int32_t));
    int32_t *first = kept ? kept_first : malloc(nkeys * sizeof(int32_t));
    uint32_t *cnt = kept ? kept_cnt : malloc(nkeys * sizeof(uint32_t));
    int16_t *lastop = kept ? kept_lastop : malloc(nkeys * sizeof(int16_t));
    if (!last || !first || !cnt || !lastop) {
        if (!kept) { free(last); free(first); free(cnt); free(lastop); }
        return -1;
    }
    for (int64_t k = 0; k < nkeys; k++) { last[k] = -1; first[k] = INT32_MAX; cnt[k] = 0; }
    for (int64_t j = 0; j < n; j++) {
        int32_t k = key[j], b = block[j];
        if (k < 0 || k >= nkeys) continue;     /* (none: the caller keeps tiles in the grid) */
        if (cnt[k] < UINT32_MAX) cnt[k]++;
        if (b > last[k]) last[k] = b;
        if (b < first[k]) first[k] = b;
        if (op_of) lastop[k] = op_of[j];    /* the later entry wins */
    }
    if (write && op_of) FOLD_CELLS(1, lastop)
    else if (write) FOLD_CELLS(1, NULL)
    else if (op_of) FOLD_CELLS(0, lastop)
    else FOLD_CELLS(0, NULL)
    if (!kept) { free(last); free(first); free(cnt); free(lastop); }
    return 0;
}
"""


def _function():
    """The C function, or None where no compiler (or cached library) is at hand."""
    p, i64 = ctypes.c_void_p, ctypes.c_int64
    return toolchain.helper(_SOURCE, "ts_fold_tiles", [i64, p, p, p, ctypes.c_int16, i64, i64, p, p, ctypes.c_int,
                                                        p, p, p, p, ctypes.c_uint8, ctypes.c_uint8], ctypes.c_int)


def fold_tiles(m, flat: np.ndarray, blocks: np.ndarray, op_of: Optional[np.ndarray], op: int, size: int,
               cell: np.ndarray, outside: np.ndarray, write: bool, several_flag: int, padding_flag: int) -> bool:
    """Fold the run's accesses (`flat`: each one's tile, in [0, size); `op_of`: each one's op, or
    None when all are `op`) into the maps `m`, `cell` giving each cell's tile (`size`: none);
    cells where several blocks met get `several_flag`, padding read `padding_flag`. False where
    C is not at hand or the arguments do not fit it: the caller folds them in NumPy."""
    fn = _function()
    if fn is None or flat.dtype != np.int32 or cell.dtype != np.int32 or not cell.flags.c_contiguous or \
            not outside.flags.c_contiguous:
        return False
    block, count = (m.wblock, m.wcount) if write else (m.rblock, m.rcount)
    blocks = np.ascontiguousarray(blocks, np.int32)
    op_of = None if op_of is None else np.ascontiguousarray(op_of, np.int16)
    return fn(flat.size, flat.ctypes.data, blocks.ctypes.data, None if op_of is None else op_of.ctypes.data, op,
              size, cell.size, cell.ctypes.data, None if write else outside.ctypes.data, int(write),
              block.ctypes.data, count.ctypes.data, m.flags.ctypes.data, m.op.ctypes.data,
              several_flag, padding_flag) == 0
