"""Validation set T: eleven kernels of four public cuTile repositories that no earlier set (A-S)
used, chosen for variety (GQA flash attention, a rotary embedding over five-dimensional views,
chunked and recurrent linear attention, three image stencils over shifted views, an FP8 GEMM
with per-block scales, attention without a running maximum, a one-element random gather over a
huge grid, an integer generator that only stores) and fixed before any prediction for them was
looked at (the model frozen first, the predictions committed before the device run).

- Da1sypetals/cutile-typeviz (examples/sample02.cutile.py at fddb027, `--repo typeviz=DIR`; a
  type visualiser's sample, itself taken from iori2333/kernels' `flash_sdpa.py`), on the sizes its
  own `<typecheck>` directives state (5 sequences of 16,384 tokens, 16 query and 4 KV heads of
  128, bfloat16):
  - `flash_sdpa`: non-causal grouped-query attention, 32x64 tiles, keys loaded transposed by an
    `order=` permutation, exp2 online softmax (grid (B * H, S / 32));
  - `apply_rope`: rotary embedding of all 16 query and 4 KV heads of a token at once, the halves
    of each head a separate axis of [B, S, H, 2, 64] views, float32 cos/sin (grid (B, S)).
- YJMSTR/cutile-flash-linear-attention (fla/ops/cutile/linear_attn/ at 2b621bb, `--repo fla=DIR`):
  the cuTile ports of flash-linear-attention's fused chunk and fused recurrent forward passes,
  with the tiles their launchers choose on sm_90 with autotuning off, no initial or final state,
  not varlen (the unused state and offset arguments are one-element arrays where the launcher
  passes empty ones), 16 heads of 128 (K = V = 128), bfloat16 in, float32 out:
  - `cutile_fused_chunk_fwd_kernel`: per 64-token chunk the masked intra-chunk product, the
    inter-chunk product with the carried 128x64 state and its update (BT 64, BK 128, BV 64;
    8 sequences of 8,192 tokens; grid (V / 64, 1, B * H));
  - `cutile_recurrent_linear_attn_fwd_kernel`: the token-by-token recurrence, an outer product
    into a 128x16 state and a row-vector product per token (BK 128, BV 16; 4 sequences of 2,048
    tokens, the steps running one after another; grid (V / 16, 1, B * H)).
- SoftEng751-2026/group5-canny-cutile (src/gpu/, `--repo canny=DIR`): Canny edge detection's
  stages as cuTile kernels over flattened shifted views of an image (each view a contiguous copy,
  padded to a whole tile), an 8,192 x 8,192 float32 image, the pipeline's tile 256:
  - `cutile_full_pipeline.py` `_gauss_k5` (88ff716): a pass of the 5-tap Gaussian blur, five
    shifted views of the edge-padded image in, their sum weighted by the pipeline's k = 5,
    sigma = 1.4 weights (float constants) out (67,108,864 pixels);
  - `sobel_cutile_benchmark.py` `sobel_magnitude_from_neighbors_cutile` (67d1fee): 8 neighbour
    views of the interior (8,190 squared pixels padded to 67,076,352) in, the gradient magnitude
    out;
  - `nms_cutile_benchmark.py` `_nms_cutile_kernel` (87f0cd0): 9 magnitude views and the angle in,
    the four-direction local-maximum test, the suppressed magnitude out (angles whole degrees
    spread uniformly over [0, 180): every direction taken).
- ZhangZhiPku/cutile-examples (the repository root, `--repo zzp=DIR`): one person's numbered
  exercises (those that Along-whu/cutile, used by sets P, R and S, follows were not taken); two
  of these files launch a demo when imported, after their kernels: only their statements
  through the last definition run (`DEMO_AT_IMPORT`):
  - `_08_linear_fp8_perchannel.py` `linear` (cc56dd8): float8_e4m3fn x @ w^T, w [N, K] read as
    [K, N] by `order="F"`, 128-cubed tiles, the float32 accumulator scaled by one scale per row
    block and one per column block, bfloat16 out; 8,192 cubed (the demo's 4,096 doubled to fill
    the GPU; grid (64, 64));
  - `_09_fused_attention(no running max).py` `flash_attention` (cc56dd8): softmax attention that
    sums exp2 of the raw logits without subtracting a running maximum, 64x128 tiles, [tokens,
    heads, 64] layouts, 16,384 queries and keys, 32 heads (the demo's ragged 423 x 5,356 made
    whole and long; grid (256, 32));
  - `_05_random_generator.py` `sample` (17fd825): per block one element at a pseudo-random offset
    inside its 64-element stretch (an int32 LCG of the block index and the demo's seed 10,086),
    2^28 float32 in, 2^22 out (grid 4,194,304 blocks);
  - `_05_random_generator.py` `device_rnd`: 512 LCG values of the element index per block,
    int32, stored only; 2^28 elements (grid 524,288).
  Sizes: arrays of 0.25-1 GiB (the sample's input 1 GiB, the linear attention's float32 output
  0.5 GiB; the FP8 GEMM's 64 MiB operands, 1.1 TFLOP; the GQA attention's 2.8 TFLOP); grid axes 2
  and 3 at most 16,384.

Where `fetch` has no snapshot (fla, canny, zzp), the checkout is the files the cases read, each
the public file at the commit named (read from the code index; its length checked against the
stored one), at its path in the repository; typeviz is a git checkout. Each kernel is built
dynamically shaped (`validate-t`) and as tilescope's launch builds it (`validate-t-launch`), as
sets M-S. Nothing is copied here: the files are read from the checkouts
(`cost_setm.load_checkout`; the host modules the files import stood in while a module loads:
`HOST_MODULES`).

Every case built (tileiras 13.4, sm_90; the slowest, the chunked linear attention, in 14-41 s as
the machine's load varied, the others in 11 s or less; 50 s in all on a quiet 2-core machine) and
ran on the CPU executor at the small sizes (`sett_cases(8)`) with no bounds report, and all eleven
agreed there with a NumPy reference: relative error 1.1e-7 and 1.3e-7 (Gaussian, Sobel, float32),
the suppression exact, the sample's gather and the generator's integers exact; 1.6e-3 to 3.8e-3
where bfloat16 is involved (GQA attention, RoPE, both linear attentions, the FP8 GEMM's output);
the attention without a running maximum 2.7e-3 against a reference that rounds as it does (its
INV_LOG_2 adapts to the bfloat16 q tile, 1.4453, and q times it is rounded to bfloat16: 6.5e-3
against exact softmax attention, whose weights are peaked as the kernel applies no 1/sqrt(d)).

Considered and left out: typeviz's other examples (upstream's layer norm and batch matmul
samples, a copy of upstream's matmul sample); ZhangZhiPku's exercises with Along-whu
counterparts, its `_21_nsa.py` (`.item()` of block ids, a tile reshape given loose arguments) and
`_mhc_sinkhorn_bwd.py` (its demo runs between its kernel and its last definition);
tavakkoliamirmohammad/cutile-stencil-dsl (hand-written kernels held in source strings, the others
generated), Apsod/cutilereduce (kernels generated from fold specifications), jvkec/csa-cutile (no
kernel in the stored files), caolong-whu/cutile (merged into Along-whu/cutile), 99syl/cutile (a C
library), MaximumBeings/cutile-python-from-first-principles and eliossou/cutile (no stored Python
files).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K, S

TV = "typeviz:examples/"
FLA = "fla:fla/ops/cutile/linear_attn/"
CANNY = "canny:src/gpu/"
ZZP = "zzp:"
COMMITS = {"typeviz": "Da1sypetals/cutile-typeviz@fddb027",
           "fla": "YJMSTR/cutile-flash-linear-attention@2b621bb (chunk.py, recurrent.py)",
           "canny": "SoftEng751-2026/group5-canny-cutile@88ff716 (cutile_full_pipeline.py), "
                    "@67d1fee (sobel_cutile_benchmark.py), @87f0cd0 (nms_cutile_benchmark.py)",
           "zzp": "ZhangZhiPku/cutile-examples@cc56dd8 (_08, _09), @17fd825 (_05)"}

# Files that launch a demo when imported (their kernels come first): only their definitions run.
DEMO_AT_IMPORT = {"zzp": ("_08_linear_fp8_perchannel.py", "_09_fused_attention(no running max).py")}

# Host modules the checkouts' files import, stood in while a kernel module loads.
HOST_MODULES = {"fla": ("fla", "fla.ops", "fla.ops.cutile", "fla.ops.cutile.utils"),
                "canny": ("paths", "cv2", "cupy", "gaussian_benchmark", "sobel_benchmark", "sobel_cutile_benchmark",
                          "nms_cupy_benchmark", "canny_frontend_benchmark")}


def sett_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    k = "validate-t"
    bf16, f8, i32 = "bfloat16", "float8_e4m3fn", "int32"

    # -- Da1sypetals/cutile-typeviz sample02: its <typecheck> sizes, 5 x 16,384 tokens, 16 query and
    # 4 KV heads of 128, bfloat16
    b, s, hq, hk, dh = 5, 16384 // d, 16, 4, 128
    # flash_sdpa (br 32, bc 64, groups 4; grid (B * H, S / br)): non-causal GQA, exp2 online softmax
    add(Case("T_typeviz_flash_sdpa_bf16_5x16384_16q4kv", k, TV + "sample02.cutile.py", "flash_sdpa",
             [A((b, s, hq, dh), bf16), A((b, s, hk, dh), bf16), A((b, s, hk, dh), bf16),
              A((b, s, hq, dh), bf16, "zeros"), S(dh ** -0.5), K(hq // hk), K(32), K(64), K(hq), K(dh)],
             (b * hq, s // 32)))
    # apply_rope (thq 16, thk 4, td 64; grid (B, S)): every head of a token rotated at once, float32
    # cos/sin [B, S, 2, 64]
    add(Case("T_typeviz_apply_rope_bf16_5x16384_16q4kv", k, TV + "sample02.cutile.py", "apply_rope",
             [A((b, s, hq, 2, dh // 2), bf16), A((b, s, hk, 2, dh // 2), bf16), A((b, s, 2, dh // 2)),
              A((b, s, 2, dh // 2)), A((b, s, hq, 2, dh // 2), bf16, "zeros"),
              A((b, s, hk, 2, dh // 2), bf16, "zeros"), K(hq), K(hk), K(dh // 2)], (b, s)))

    # -- YJMSTR/cutile-flash-linear-attention: 8 sequences, 16 heads, K = V = 128, bfloat16 in,
    # float32 out [NK = 1, B, T, H, V]; no initial/final state, not varlen (one-element stand-ins
    # for the launcher's empty tensors)
    lb, lh, lk = 8 // d, 16, 128
    lt = 8192 // d
    # cutile_fused_chunk_fwd_kernel (sm_90 without autotuning: BT 64, BK 128, BV 64; grid (2, 1, B * H))
    add(Case("T_fla_chunk_fwd_bf16_8x8192x16h_128", k, FLA + "chunk.py", "cutile_fused_chunk_fwd_kernel",
             [A((lb, lt, lh, lk), bf16), A((lb, lt, lh, lk), bf16), A((lb, lt, lh, lk), bf16),
              A((1, lb, lt, lh, lk), init="zeros"), A((1,), init="zeros"), A((1,), init="zeros"),
              A((1,), init="zeros"), S(lk ** -0.5), S(lt, i32), K(lb), K(lh), K(lk), K(lk), K(64), K(128), K(64),
              K(False), K(False), K(False)], (lk // 64, 1, lb * lh)))
    # cutile_recurrent_linear_attn_fwd_kernel (BK 128; BV 16 as BK >= 128 and V >= 64; grid (8, 1, B * H))
    # (4 sequences of 2,048 tokens: the steps run one after another)
    rb, rt = max(1, 4 // d), 2048 // d
    add(Case("T_fla_recurrent_fwd_bf16_4x2048x16h_128", k, FLA + "recurrent.py",
             "cutile_recurrent_linear_attn_fwd_kernel",
             [A((rb, rt, lh, lk), bf16), A((rb, rt, lh, lk), bf16), A((rb, rt, lh, lk), bf16),
              A((1, rb, rt, lh, lk), init="zeros"), A((1,), init="zeros"), A((1,), init="zeros"),
              A((1,), init="zeros"), S(lk ** -0.5), S(rb, i32), S(rt, i32), K(lh), K(lk), K(lk), K(128), K(16),
              K(False), K(False), K(False)], (lk // 16, 1, rb * lh)))

    # -- SoftEng751-2026/group5-canny-cutile: an 8,192 x 8,192 float32 image, its 8,190 x 8,190
    # interior flattened and padded to whole 256-element tiles (the pipeline's tile)
    side = 8192 // d
    npx = -(-(side - 2) * (side - 2) // 256) * 256
    add(Case("T_canny_sobel_f32_8192x8192_t256", k, CANNY + "sobel_cutile_benchmark.py",
             "sobel_magnitude_from_neighbors_cutile",
             [A((npx,)) for _ in range(8)] + [A((npx,), init="zeros"), K(256)], (npx // 256,)))
    add(Case("T_canny_nms_f32_8192x8192_t256", k, CANNY + "nms_cutile_benchmark.py", "_nms_cutile_kernel",
             [A((npx,)) for _ in range(9)] + [A((npx,), init="index:180"), A((npx,), init="zeros"), K(256)],
             (npx // 256,)))

    # cutile_full_pipeline.py _gauss_k5 (the pipeline's k = 5, sigma 1.4 weights as float constants, tile 256):
    # a blur pass, five shifted views of the edge-padded image in, their weighted sum out
    npix = side * side
    weights = [K(w) for w in (0.11020945757627487, 0.23691202700138092, 0.305757075548172, 0.23691202700138092,
                              0.11020945757627487)]
    add(Case("T_canny_gauss_k5_f32_8192x8192_t256", k, CANNY + "cutile_full_pipeline.py", "_gauss_k5",
             [A((npix,)) for _ in range(5)] + [A((npix,), init="zeros")] + weights + [K(256)], (npix // 256,)))

    # -- ZhangZhiPku/cutile-examples
    # linear (FP8 per-block scales; 128-cubed tiles; grid (M / 128, N / 128)): 8,192 cubed
    g = 8192 // d
    add(Case("T_zzp_linear_fp8_perchannel_e4m3_8192", k, ZZP + "_08_linear_fp8_perchannel.py", "linear",
             [A((g, g), f8), A((g, g), f8), A((g, g), bf16, "zeros"), A((g // 128,)),
              A((g // 128,)), K(128), K(128), K(128)], (g // 128, g // 128)))
    # flash_attention without a running maximum (tileQ 64, tileKV 128, head_dim 64; grid (q / 64, heads))
    fq, fh = 16384 // d, 32
    add(Case("T_zzp_flash_attention_nomax_bf16_16384x32hx64", k, ZZP + "_09_fused_attention(no running max).py",
             "flash_attention",
             [A((fq, fh, 64), bf16), A((fq, fh, 64), bf16), A((fq, fh, 64), bf16), A((fq, fh, 64), bf16, "zeros"),
              S(fq, i32), K(64), K(128), K(64)], (fq // 64, fh)))
    # sample (tile_size 64, the demo's seed 10,086; grid (n / 64,)): one element per block at an LCG offset
    sn = (1 << 28) // d // d
    add(Case("T_zzp_sample_f32_2p28_t64", k, ZZP + "_05_random_generator.py", "sample",
             [A((sn,)), A((sn // 64,), init="zeros"), K(64), S(10086, i32)], (sn // 64,)))
    # device_rnd (the file's tile 512; grid (n / 512,)): int32 LCG of the element index, stored
    add(Case("T_zzp_device_rnd_i32_2p28_t512", k, ZZP + "_05_random_generator.py", "device_rnd",
             [A((sn,), i32, "zeros"), K(512)], (sn // 512,)))

    for x in list(out):
        add(x.launched("validate-t-launch"))
    return out
