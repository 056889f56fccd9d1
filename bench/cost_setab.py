"""Validation set AB: iterations of one operator, the question a developer asks while changing a
kernel ("will this version be faster?"). Model-written TileBench implementations
(Deep-Learning-Profiling-Tools/Tilebench, as set AA) of two of set AA's operators, each version at
the same case, so the measured order of the versions can be set against the predicted one. Chosen
before any prediction for them was looked at (model version 64 frozen; predictions committed
before any device run, bench/results/cost_setab_predictions.json).

- 1d_conv, float16, 20,000,000 samples and 127 taps (the benchmark's largest case): five of the
  fourteen other files, one of each way the files compute the float16 path: taps by shifted
  tile loads (claude-opus-4-7 iteration 0), a Toeplitz tile of gathered windows times the taps in
  one product of 64x256x16 (iteration 2), the same over K steps of 64x256x32 (iteration 5), and of
  64x128x64 (gpt-5.5 iteration 0), and windows times a prebuilt dense Toeplitz matrix of
  128x64x64 (iteration 4; its small build kernel is left out). Set AA holds gpt-5.5 iteration 1.
- flash_decode, float32, set AA's 128 sequences of 320 blocks, 8 heads of 128: five of the fifteen
  other files, one of each layout of the merge: a block per (sequence, head), two passes over
  64 blocks (claude-opus-4-7 iteration 0); a block per 16 columns of the head, one online pass
  over 128 blocks (iteration 4) and over 256 with the column slices adjacent in the grid
  (iteration 8); groups of 32 blocks over the whole head, the first of two kernels (gpt-5.5
  iteration 5) and groups of 16 (iteration 8). Set AA holds gpt-5.5 iteration 1.
Tile sizes and `@ct.kernel(...)` hints are the files'; hints a launch adds with `.with_hints(...)`
are left out, as in sets F-J and AA. Each kernel is built dynamically shaped (`validate-ab`) and as
tilescope's launch builds it (`validate-ab-launch`). The files: docs/cost-validation-checkouts.md.
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K, S, cdiv, tilebench_impl


def setab_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    f = tilebench_impl
    g = "validate-ab"
    n, taps = 20_000_000 // d, 127
    m = n - taps + 1
    x, w, y = A((n,), "float16"), A((taps,), "float16"), A((m,), "float16", "zeros")
    sizes = [S(n, "int32"), S(m, "int32")]
    add(Case("AB_conv1d_taps_f16_t1024", g, f("1d_conv/claude_i0"), "_conv1d_kernel",
             [x, w, y] + sizes + [K(taps), K(1024)], (cdiv(m, 1024),)))
    add(Case("AB_conv1d_toeplitz_64x256x16", g, f("1d_conv/claude_i2"), "_conv1d_kernel",
             [x, w, y] + sizes + [K(64), K(256), K(16)], (cdiv(m, 64 * 16),)))
    add(Case("AB_conv1d_toeplitz_k_64x256x32", g, f("1d_conv/claude_i5"), "_conv1d_kernel",
             [x, w, y] + sizes + [K(64), K(256), K(32), K(cdiv(256 + taps - 1, 32)), K(taps)],
             (cdiv(m, 64 * 256),)))
    add(Case("AB_conv1d_toeplitz_k_64x128x64", g, f("1d_conv/gpt_i0"), "_conv1d_kernel",
             [x, w, y, K(cdiv(taps + 128 - 1, 64) * 64), K(64), K(128), K(64)], (cdiv(cdiv(m, 128), 64),)))
    kp = cdiv(taps + 64 - 1, 64) * 64
    add(Case("AB_conv1d_dense_toeplitz_128x64x64", g, f("1d_conv/gpt_i4"), "_conv1d_mma_dense_kernel",
             [x, A((kp, 64), "float16"), y, K(kp), K(128), K(64), K(64)], (cdiv(m, 128 * 64),)))

    b, h, blocks, hd = 128 // d, 8, 320, 128
    mid, lse, seq = A((b, h, blocks, hd)), A((b, h, blocks)), A((b,), "int32", "fill:40960")
    o = A((b, h, hd), init="zeros")
    for name, author, tiles, grid in (("AB_flash_decode_head_2pass_k64", "claude_i0", (64, 128), (b, h, 1)),
                                      ("AB_flash_decode_d16_online_k128", "claude_i4", (128, 16), (b, h, hd // 16)),
                                      ("AB_flash_decode_d16_online_k256_dfirst", "claude_i8", (256, 16),
                                       (hd // 16, h, b))):
        add(Case(name, g, f(f"flash_decode/{author}"), "_flash_decode_kernel",
                 [mid, lse, seq, o, S(128, "int32"), K(blocks), K(hd), K(tiles[0]), K(tiles[1])], grid))
    for name, author, group in (("AB_flash_decode_groups32", "gpt_i5", 32), ("AB_flash_decode_groups16", "gpt_i8", 16)):
        groups = cdiv(blocks, group)
        add(Case(name, g, f(f"flash_decode/{author}"), "_partial_flash_decode_kernel",
                 [mid, lse, seq, A((b, h, groups, hd), init="zeros"), A((b, h, groups), init="zeros"),
                  A((b, h, groups), init="zeros"), K(128), K(blocks), K(h), K(hd), K(group), K(128)],
                 (groups, b * h, 1)))
    for c in list(out):
        add(c.launched("validate-ab-launch"))
    return out
