"""Validation set N: kernels of three public cuTile repositories that no earlier set (A-M) used,
chosen for variety and fixed before any prediction for them was looked at (the model frozen
first, the predictions committed before the device run).

- Weili-0234/cutile-puzzles (the puzzles' answers, `ans/` at d350208, `--repo puzzles=DIR`):
  - `09-flash-attention.py` `ct_tiled_attention`: single-head attention without a mask, one
    64-query tile per block walking every 64-key tile (two `mma`, online softmax with `exp2`),
    head dim 64, float16;
  - `11-quantized-matmul.py` `ct_fp8_matmul`: float8_e4m3fn GEMM (128x128x64 tiles), per-row and
    per-column float32 scales gathered in the epilogue, bfloat16 output;
  - `07-rmsnorm.py` `ct_rmsnorm_weighted`: one 1,024-wide float16 row per block, weight tile;
  - `10-persistent-scheduling.py` `ct_persistent_softmax` (occupancy 4, a grid of 4 blocks per
    SM striding over 256-wide float16 rows loaded by `gather`) and `ct_persistent_gemm`
    (occupancy 2, 2 blocks per SM striding over 128x128 output tiles, K tiles of 64).
- goooxu/cuTileForge (its hand-written `golden/` solutions at 43a6e67, `--repo forge=DIR`) for
  KernelBench level-1 problems, float32:
  - `level1_3_bmm.py` `bmm_kernel`: batched GEMM with rank-3 tiles (64x64x32, batch on grid z);
  - `level1_23_softmax.py` `softmax_kernel`: rows of 393,216 streamed three times (max, sum of
    exponentials, normalise) in 4,096-wide tiles with a runtime trip count;
  - `level1_42_maxpool2d.py` `maxpool2d_kernel`: 2-D max pooling by `gather` over runtime
    window loops (kernel 4, stride 1, padding 1) and a masked `scatter`, 16x16 output tiles.
- KindRoach/learn-cuTile (repository root at 46c86ba, `--repo learn=DIR`), float32:
  - `02_vector/02_vector_dot.py` `vector_dot`: 2^30 + 123 elements, tile 1024, each block
    `atomic_add`-ing its partial dot product into one float;
  - `03_matrix/01_matrix_transpose.py` `matrix_transpose`: 128x64 tiles over a matrix whose
    sides are not multiples of the tile (the source's 4,097 x 4,098, scaled to 16,385 x 16,386 to
    fill the H200);
  - `02_vector/01_vector_add.py` `vector_add`: 2^30 + 123 elements, tile 1024, no padding mode.

Each kernel is built dynamically shaped (`validate-n`) and as tilescope's launch builds it
(`validate-n-launch`), as set M. Nothing is copied here: the files are read from the checkouts
(`cost_setm.load_checkout`; torch stood in, the puzzles' `common` helpers imported from the
checkout). Grids, tiles and constants are those of each source's launch code. Sizes: the
sources' own where they fill the H200 (learn-cuTile's vectors), KernelBench-sized shapes for
cuTileForge (softmax 4,096 rows of 393,216, the width its solution states; bmm 128 x 512x1024 @
1024x2048; max pool 32x64x512x512), and for the puzzles (whose tests use toy shapes) 16,384
queries and keys, 8,192-cube FP8 and float16 GEMMs, 262,144 rows of 1,024 and 4,194,304 of 256.

Every case built (tileiras 13.4, sm_90) and ran on the CPU executor at the small sizes with no
bounds report, and all eleven agreed there with a NumPy reference (largest relative error 2e-3,
the FP8 GEMM's bfloat16 output; the others 5e-4 or less). None was replaced.

Considered and left out: cutile-puzzles' scalar attention, outer products, reduce-sum and
backward puzzles (element-wise or reductions already covered), learn-cuTile's GEMM
(its occupancy comes from `replace_hints`, which a case cannot state), Apsod/cutilereduce,
libing64/flashattn_cutile and ZhangZhiPku/cutile-examples (no snapshot to read).
"""
from __future__ import annotations

import math
from typing import List

from costval_case import A, Case, K, S

PZ, FG, LC = "puzzles:ans/", "forge:golden/", "learn:"
SMS = 132
COMMITS = {"puzzles": "Weili-0234/cutile-puzzles@d350208",
           "forge": "goooxu/cuTileForge@43a6e67",
           "learn": "KindRoach/learn-cuTile@46c86ba"}


def setn_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    k = "validate-n"
    f16, bf16, f8, i32 = "float16", "bfloat16", "float8_e4m3fn", "int32"

    # cutile-puzzles ct_tiled_attention (launch_tiled_attention: TILE_M 64, TILE_N 64, TILE_D = D)
    m, n, dh = 16384 // d, 16384 // d, 64
    add(Case("N_puzzle_flash_attn_f16_16384x16384x64", k, PZ + "09-flash-attention.py", "ct_tiled_attention",
             [A((m, dh), f16), A((n, dh), f16), A((n, dh), f16), A((m, dh), f16, "zeros"), S(n, i32),
              S(1 / math.sqrt(dh)), K(64), K(64), K(dh)], (m // 64,)))

    # cutile-puzzles ct_fp8_matmul (launch_fp8_matmul: 128x128x64, bfloat16 output)
    g = 8192 // d
    add(Case("N_puzzle_fp8_matmul_8192", k, PZ + "11-quantized-matmul.py", "ct_fp8_matmul",
             [A((g, g), f8), A((g, g), f8), A((g, g), bf16, "zeros"), A((g,), init="rand"), A((g,), init="rand"),
              K(128), K(128), K(64)], (g // 128, g // 128)))

    # cutile-puzzles ct_rmsnorm_weighted (launch_rmsnorm_weighted: TILE_N 1024, EPS 1e-6, grid rows)
    rows = 262144 // d // d
    add(Case("N_puzzle_rmsnorm_weighted_f16_262144x1024", k, PZ + "07-rmsnorm.py", "ct_rmsnorm_weighted",
             [A((rows, 1024), f16), A((rows, 1024), f16, "zeros"), A((1024,), f16), K(1024), K(1024), K(1e-6)],
             (rows,)))

    # cutile-puzzles ct_persistent_softmax (@ct.kernel(occupancy=4); launch_persistent_softmax:
    # TILE_N 256, grid min(SMs x 4, rows), rows by `gather`/`scatter` with bounds checks)
    pr = 4194304 // d // d // d
    add(Case("N_puzzle_persistent_softmax_f16_4Mx256", k, PZ + "10-persistent-scheduling.py", "ct_persistent_softmax",
             [A((pr, 256), f16), A((pr, 256), f16, "zeros"), K(pr), K(256)], (min(SMS * 4, pr),)))

    # cutile-puzzles ct_persistent_gemm (@ct.kernel(occupancy=2); launch_persistent_gemm: 128x128x64,
    # grid min(SMs x 2, tiles), M, N, K constants)
    pg = 8192 // d
    add(Case("N_puzzle_persistent_gemm_f16_8192", k, PZ + "10-persistent-scheduling.py", "ct_persistent_gemm",
             [A((pg, pg), f16), A((pg, pg), f16), A((pg, pg), f16, "zeros"), K(pg), K(pg), K(pg),
              K(128), K(128), K(64)],
             (min(SMS * 2, (pg // 128) ** 2),)))

    # cuTileForge bmm_kernel (TM 64, TN 64, TK 32; grid (m/64, n/64, batch)): KernelBench level 1 #3
    bt, bm, bk, bn = 128 // d, 512, 1024, 2048
    add(Case("N_forge_bmm_f32_128x512x1024x2048", k, FG + "level1_3_bmm.py", "bmm_kernel",
             [A((bt, bm, bk)), A((bt, bk, bn)), A((bt, bm, bn), init="zeros"), S(bk // 32, i32)],
             (bm // 64, bn // 64, bt)))

    # cuTileForge softmax_kernel (ROW_TILE 4096, grid rows): KernelBench level 1 #23, 4,096 x 393,216
    sr, sc = 4096 // d // d, 393216 // d
    add(Case("N_forge_softmax3pass_f32_4096x393216", k, FG + "level1_23_softmax.py", "softmax_kernel",
             [A((sr, sc)), A((sr, sc), init="zeros"), S(-(-sc // 4096), i32)], (sr,)))

    # cuTileForge maxpool2d_kernel (TH 16, TW 16; N*C folded): KernelBench level 1 #42,
    # 32x64x512x512, kernel 4, stride 1, padding 1, dilation 1
    nc, hw, ks, st, pd, dl = 32 * 64 // d // d, 512 // d, 4, 1, 1, 1
    ow = (hw + 2 * pd - dl * (ks - 1) - 1) // st + 1
    add(Case("N_forge_maxpool2d_gather_f32_32x64x512", k, FG + "level1_42_maxpool2d.py", "maxpool2d_kernel",
             [A((nc * hw * hw,)), A((nc * ow * ow,), init="zeros"), S(ks, i32), S(st, i32), S(pd, i32), S(dl, i32),
              S(hw, i32), S(hw, i32), S(ow, i32), S(ow, i32)], (nc, -(-ow // 16), -(-ow // 16))))

    # learn-cuTile vector_dot (tile 1024, 2^30 + 123, atomic into one float)
    nv = (1 << 30) // d // d // d + 123
    add(Case("N_learn_vector_dot_atomic_f32_2p30", k, LC + "02_vector/02_vector_dot.py", "vector_dot",
             [A((nv,), init="rand"), A((nv,), init="rand"), A((1,), init="zeros"), K(1024)], (-(-nv // 1024),)))

    # learn-cuTile matrix_transpose (128x64 tiles, sides not multiples of the tile)
    tm, tn = 16384 // d + 1, 16384 // d + 2
    add(Case("N_learn_transpose_f32_16385x16386_t128x64", k, LC + "03_matrix/01_matrix_transpose.py",
             "matrix_transpose", [A((tm, tn)), A((tn, tm), init="zeros"), K(128), K(64)],
             (-(-tm // 128), -(-tn // 64))))

    # learn-cuTile vector_add (tile 1024, 2^30 + 123)
    add(Case("N_learn_vector_add_f32_2p30", k, LC + "02_vector/01_vector_add.py", "vector_add",
             [A((nv,)), A((nv,)), A((nv,), init="zeros"), K(1024)], (-(-nv // 1024),)))

    for x in list(out):
        add(x.launched("validate-n-launch"))
    return out
