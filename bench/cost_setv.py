"""Validation set V: seven public cuTile kernels of two sources no earlier set (A-U) used, chosen
for kinds the sets have few of (float64 sparse products and a float64 reduction by one-address
atomics, a histogram by tile atomics, a row gather and a scatter-add by 2-D index tiles, a single
block walking a whole array) and fixed before any prediction for them was looked at (model
version 31 frozen first, the predictions committed before the device run).

- tavakkoliamirmohammad/cutile-stencil-dsl (`--repo stencil=DIR`): the solver kernels its
  generators emit (`cutile_stencil/solvers/kernels.py` at blob 5c2a102: `generate_dia_spmv`,
  `generate_bsr_spmv`, `generate_dot`), each module written out as its generator returns it
  (`generated/dia_spmv.py`, `bsr_spmv.py`, `dot.py`; the modules import CuPy, stood in here, and
  the DIA kernel takes `cp.int32` as its `arange` dtype), with the launchers' tile sizes:
  - `dia_spmv_kernel`: y = A x with A in diagonal format, each diagonal's values a (1, 256) tile
    and x gathered at the row plus the diagonal's offset (a scalar loaded from `offsets_arr`;
    lanes past the vector read the padding, zero), float64; a 2-D Laplacian's 5 diagonals over
    2^24 rows (its offsets are random in [0, 4,096) here: each diagonal is still one contiguous
    run); grid (65,536,);
  - `bsr_spmv_kernel`: block-sparse y = A x, one block row a block, its loop over the row's
    blocks bounded by `indptr` (read at run time), each an 8 x 8 float64 block times the gathered
    8 x 1 slice of x by `ct.mma`; 3 blocks a row over 2^19 block rows (the columns random);
  - `dot_kernel`: a float64 dot product, each 256-element block's partial sum added into one
    element by `atomic_add` (2^26 elements; grid (262,144,)).
- MaximumBeings/cutile-python-from-first-principles (`--repo book=DIR`): a book whose kernels are
  code blocks of its chapters; the blocks of each kernel used, with their `import cuda.tile as ct`
  and without the chapters' demo statements, written to a file per chapter (the chapters' blobs
  are named in the folder's SOURCE.md); sizes chosen here (the book's own are 8-element toys):
  - ch. 20 `kernel_histogram`: 1,024 int32 values a block used as bin indices, one relaxed
    `atomic_add` of ones (2^26 values into 4,096 bins; grid (65,536,));
  - ch. 37 `kernel_gather_forward_multiblock`: 64 rows of a float32 embedding table a block,
    gathered by a (64, 1) index tile against a (1, 256) column tile (a 65,536 x 256 table, 2^20
    indices; grid (16,384,));
  - ch. 37 `kernel_scatter_backward_atomic_multiblock`: its backward, 64 rows of gradients a
    block added into the table's gathered rows by `atomic_add` (2^19 rows; grid (8,192,));
  - ch. 13 `row_sum_dynamic`: one block sums a whole float32 array through a tiled view, its
    tile count a runtime property of the view (2^24 elements, tiles of 1,024; grid (1,)).
Each kernel is built dynamically shaped (`validate-v`) and as tilescope's launch builds it
(`validate-v-launch`), as sets M-U.
"""
from __future__ import annotations

from typing import List

import numpy as np

from costval_case import A, Case, K

STENCIL = "stencil:generated/"
BOOK = "book:"
COMMITS = {"stencil": "tavakkoliamirmohammad/cutile-stencil-dsl cutile_stencil/solvers/kernels.py@5c2a102",
           "book": "MaximumBeings/cutile-python-from-first-principles (chapter blobs in the folder's SOURCE.md)"}

# Host modules the checkouts' files import, stood in while a kernel module loads (the DIA kernel
# names CuPy's int32 as a dtype inside the kernel)
HOST_MODULES = {"stencil": {"cupy": {"int32": np.int32}}}


def setv_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    k = "validate-v"
    f64, i32 = "float64", "int32"

    # -- tavakkoliamirmohammad/cutile-stencil-dsl's solver kernels (float64)
    n = (1 << 24) // d
    add(Case("V_stencil_dia_spmv_f64_16M_5diag", k, STENCIL + "dia_spmv.py", "dia_spmv_kernel",
             [A((5, n), f64), A((5,), i32, "index:4096"), A((n,), f64), A((n,), f64, "zeros"), K(5), K(256)],
             (n // 256,)))
    rows = (1 << 19) // d
    add(Case("V_stencil_bsr_spmv_f64_8x8_512k_rows", k, STENCIL + "bsr_spmv.py", "bsr_spmv_kernel",
             [A((3 * rows, 8, 8), f64), A((3 * rows,), i32, f"index:{rows}"), A((rows + 1,), i32, "ramp:3"),
              A((8 * rows,), f64), A((8 * rows,), f64, "zeros"), K(8), K(8)], (rows,)))
    m = (1 << 26) // d
    add(Case("V_stencil_dot_f64_64M", k, STENCIL + "dot.py", "dot_kernel",
             [A((m,), f64), A((m,), f64), A((1,), f64, "zeros"), K(256)], (m // 256,)))

    # -- MaximumBeings/cutile-python-from-first-principles
    h = (1 << 26) // d
    add(Case("V_book_histogram_i32_64M_4096bins", k, BOOK + "ch20_atomics.py", "kernel_histogram",
             [A((h,), i32, "index:4096"), A((4096,), i32, "zeros"), K(1024)], (h // 1024,)))
    vocab, idx = 65536 // d, (1 << 20) // d
    add(Case("V_book_gather_rows_f32_65536x256_1M", k, BOOK + "ch37_multiblock_gather.py",
             "kernel_gather_forward_multiblock",
             [A((vocab, 256)), A((idx,), i32, f"index:{vocab}"), A((idx, 256), init="zeros"), K(64), K(256)],
             (idx // 64,)))
    g = (1 << 19) // d
    add(Case("V_book_scatter_add_f32_512k_into_65536x256", k, BOOK + "ch37_multiblock_gather.py",
             "kernel_scatter_backward_atomic_multiblock",
             [A((g, 256)), A((g,), i32, f"index:{vocab}"), A((vocab, 256), init="zeros"), K(64), K(256)],
             (g // 64,)))
    s = (1 << 24) // d
    add(Case("V_book_row_sum_one_block_f32_16M", k, BOOK + "ch13_loops.py", "row_sum_dynamic",
             [A((s,)), A((1,), init="zeros"), K(1024)], (1,)))

    for x in list(out):
        add(x.launched("validate-v-launch"))
    return out
