"""Validation set L: eleven kernels of two public cuTile repositories that no earlier set (A-K) used,
chosen for the variety of what people write with cuTile and fixed before any prediction for them
was looked at (the model frozen first, the predictions committed before the device run).

- NVIDIA/TileGym (src/tilegym/ops/cutile at 75a1430, `--tilegym DIR`):
  - `mma`: the causal attention forward that also writes the log-sum-exp (`attention.py`), the
    attention backward's dK/dV kernel with grouped-query heads (LSE and Delta gathered, four
    chained `mma` per tile), the static persistent batched GEMM (`bmm.py`, 128x128x64 f16) and
    the MLA decode in its transposed layout (`mla_decoding.py`: 512-wide latent keys, queries
    loaded with `order=` as (D, heads) tiles, `ct.transpose` of V, bf16);
  - reductions: the attention backward's preprocessing (Delta = rowsum(O * dO), scattered), the
    split-KV combine of decode attention (`splitk_reduce.py`: LSE gathered, a 1-row `mma` over
    64 splits) and the online-softmax cross entropy over a 262,144-word vocabulary that gathers
    and scatters the logits in place (`experimental/fused_linear_cross_entropy.py`);
  - the RMS norm written with `gather`/`scatter` (`rms_norm.py`, its multi-wave-reload mode),
    the mHC residual mix (`experimental/mhc.py`: element-wise products broadcast over 4
    streams) and the MoE routing count (`moe_align_block.py` stage 1: one serial, dependent
    gather/scatter chain per block, integer only).
- falcons-eyes/cutileGPT (cutile_gpt/kernels at cd96169, `--cutilegpt DIR`): the causal
  attention, float32 with 64x64 tiles.

Each kernel is built dynamically shaped (`validate-l`) and as tilescope's launch builds it
(`validate-l-launch`), as sets G-K. Nothing is copied here: the files are read from the
checkouts. Tile sizes, constants and grids are those of each source's launch code (TileGym's
autotuned kernels: the configuration its code uses with autotuning off, else an entry of its
list for sm_90, named per case); hints a launch adds with `replace_hints` (occupancy, num_ctas) are not part
of the kernel object and are left out, those in `@ct.kernel(...)` are kept. Neither repository
ships benchmark sizes for these kernels, so sizes are common model shapes (named per case)
scaled to fill the H200. Two arguments differ from the source's launch in memory only: the MLA
decode receives its latent cache as two arrays (K and V) where TileGym passes one buffer twice,
and the mHC mix receives `Y_post`/`Y_res` as their own small contiguous arrays where TileGym
passes strided views of one; index arrays (expert ids) are uniform random in their range.

Every case built (tileiras 13.4, sm_90) and ran on the CPU executor at the small sizes with no
bounds report; all but the dK/dV and MLA kernels were also checked there against a NumPy
reference and agreed. One size was changed when first run: the cross entropy over Llama 3's
128,256 words leaves a partial last vocabulary tile, whose masked lanes the executor reports as
padding reads, so it uses Gemma 3's 262,144 (a multiple of TILE_V).

Considered and left out: TileGym's grouped GEMM and upstream's (lists of arrays as arguments),
TileGym's NVFP4 quantizer (float4 types, kernel made inside a factory), upstream's
`layer_norm_bwd_dwdb` (8 blocks at its launch: microseconds), upstream's samples (the same kernels
as its test/kernels, used by sets C and K), and TileBench (every operation used by sets F-K).
"""
from __future__ import annotations

import math
from typing import List

from costval_case import A, Case, K, S

SMS = 132
TG, GPT = "tilegym:", "cutilegpt:cutile_gpt/kernels/"


def setl_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    k = "validate-l"
    f16, bf16, i32 = "float16", "bfloat16", "int32"

    # TileGym _fmha_fwd_kernel_with_lse (fmha_forward_with_lse, causal by default): its sm_90 list's
    # first entry TILE_M 256, TILE_N 128; a Llama-style training step, 4 x 32 heads x 4,096 x 128, f16
    b, h, s, dh = 4, 32 // d, 4096 // d, 128
    add(Case("L_fmha_fwd_lse_causal_f16_4x32x4096x128", k, TG + "attention.py", "_fmha_fwd_kernel_with_lse",
             [A((b, h, s, dh), f16), A((b, h, s, dh), f16), A((b, h, s, dh), f16), A((b, h, s, dh), f16, "zeros"),
              A((b * h * s,), init="zeros"), S(1 / math.sqrt(dh)), S(0, i32), K(dh), K(h), K(b), K(s), K(256),
              K(128), K(1), K(True), K(True)], (s // 256, b * h)))

    # TileGym _fmha_bwd_dkdv_kernel (_fmha_backward with autotuning off: the first head_dim-128
    # config, TILE_M 16, TILE_N 32), causal; 32 query heads sharing 8 KV heads, 4,096 x 128, f16
    hq, hkv, s2 = 32 // d, 8 // d, 4096 // d
    add(Case("L_fmha_bwd_dkdv_gqa_f16_32q8kv_4096x128", k, TG + "attention.py", "_fmha_bwd_dkdv_kernel",
             [A((1, hq, s2, dh), f16), A((1, hkv, s2, dh), f16), A((1, hkv, s2, dh), f16), A((1, hq, s2, dh), f16),
              A((1, hkv, s2, dh), f16, "zeros"), A((1, hkv, s2, dh), f16, "zeros"), A((hq * s2,)), A((hq * s2,)),
              S(1 / math.sqrt(dh)), K(dh), K(hq), K(hkv), K(s2), K(16), K(32), K(hq // hkv), K(True)],
             (s2 // 32, hkv)))

    # TileGym _fmha_bwd_preprocess_kernel (Delta = rowsum(O * dO); _fmha_backward's TILE_M, the
    # first of its head_dim-128 tile list: 16), the forward's 4 x 32 heads x 4,096 x 128, f16
    add(Case("L_fmha_bwd_delta_f16_4x32x4096x128", k, TG + "attention.py", "_fmha_bwd_preprocess_kernel",
             [A((b, h, s, dh), f16), A((b, h, s, dh), f16), A((b * h * s,), init="zeros"), K(16), K(dh), K(h), K(s)],
             (s // 16, b * h)))

    # TileGym _static_persistent_bmm_kernel: its sm_90 list's 128x128x64 entry with occupancy 2
    # (GROUP_SIZE_M 8), grid min(SMs // num_ctas 2, tiles) * occupancy; 32 x 2,048 x 2,048 x 512 f16
    # (M, N and K are constants: tileiras unrolls the whole K loop, and at K 2,048 ptxas did not
    # finish in 15 minutes here)
    nb, mn, kk = 32 // d, 2048 // d, 512
    tiles = nb * math.ceil(mn / 128) ** 2
    add(Case("L_persistent_bmm_f16_32x2048x2048x512", k, TG + "bmm.py", "_static_persistent_bmm_kernel",
             [A((nb, mn, kk), f16), A((nb, kk, mn), f16), A((nb, mn, mn), f16, "zeros"), S(nb, i32),
              K(mn), K(mn), K(kk), K(128), K(128), K(64), K(8), K(False), K(False)],
             (min(SMS // 2, tiles) * 2,)))

    # TileGym _naive_absorb_mla_transpose_kernel (mla_decoding: TILE_H 16, TILE_N 128): DeepSeek-V3's
    # 128 heads, latent 512 + rope 64, 32 sequences of 4,096 cached tokens, bf16
    mb, mh, ms = 32 // d, 128, 4096 // d
    add(Case("L_mla_decode_transposed_bf16_32x128h_4096", k, TG + "mla_decoding.py",
             "_naive_absorb_mla_transpose_kernel",
             [A((mb, mh, 512), bf16), A((mb, mh, 64), bf16), A((mb, ms, 512), bf16), A((mb, ms, 512), bf16),
              A((mb, ms, 64), bf16), A((mb, mh, 512), bf16, "zeros"), A((mb, mh), init="zeros"),
              S(1 / math.sqrt(576)), K(512), K(16), K(128), K(64), K(ms), K(True)], (mh // 16, mb)))

    # TileGym _splitk_reduce_kernel: decode attention's combine, 64 KV splits (USE_DOT on sm_90),
    # head_dim 128 (TILE_D 128), 256 sequences x 32 heads; partial outputs f16 as flash_decode's
    sb, sh, splits = 256 // d, 32, 64
    add(Case("L_splitk_reduce_f16_256x32x64x128", k, TG + "splitk_reduce.py", "_splitk_reduce_kernel",
             [A((sb, sh, splits, dh), f16), A((sb, sh, splits)), A((sb, sh, dh), f16, "zeros"),
              K(sb), K(131072), K(sh), K(dh), K(splits), K(splits), K(128), K(True)], (sb, sh, 1)))

    # TileGym _ce_online_kernel (_ce_cutile: TILE_V 4096, grid min(4 x SMs, rows)): a 2,048-token
    # chunk of Gemma 3's 262,144-word vocabulary, bf16 logits
    rows, vocab = 2048 // d, 262144 // d
    add(Case("L_ce_online_bf16_2048x262144", k, TG + "experimental/fused_linear_cross_entropy.py",
             "_ce_online_kernel",
             [A((rows, vocab), bf16), A((rows,), init="zeros"), A((rows,)), K(rows), K(vocab), K(4096)],
             (min(4 * SMS, rows),)))

    # TileGym _rms_norm_kernel_gather (multi_wave_reload: TILE_SIZE min(4096 // 2 bytes, N)):
    # Llama-70B's hidden 8,192, 16,384 tokens, bf16
    rm, rn = 16384 // d, 8192 // d
    add(Case("L_rms_norm_gather_bf16_16384x8192", k, TG + "rms_norm.py", "_rms_norm_kernel_gather",
             [A((rm, rn), bf16), A((rn,), bf16), A((rm, rn), bf16, "zeros"), A((rm,), init="zeros"),
              K(rn), K(1e-6), K(0.0), K(min(2048, rn))], (rm,)))

    # TileGym _mhc_apply_residual_kernel (TILE_SIZE_C 1024): 4 residual streams of hidden 4,096,
    # 16,384 tokens, bf16 stream, float32 mixing weights
    tb, n, c = 16384 // d, 4, 4096
    add(Case("L_mhc_apply_residual_bf16_16384x4x4096", k, TG + "experimental/mhc.py", "_mhc_apply_residual_kernel",
             [A((tb, n, c), bf16), A((tb, c), bf16), A((tb, n)), A((tb, n, n)), A((tb, n, c), bf16, "zeros"),
              S(c, i32), K(n), K(1024)], (tb, c // 1024)))

    # TileGym _moe_align_block_size_stage1_kernel: one block per expert, each counting its
    # ceil(numel / experts) tokens; 64 experts, top-8 of 8,192 tokens
    experts, numel = 64, 65536 // d
    add(Case("L_moe_align_count_i32_64x65536", k, TG + "moe_align_block.py", "_moe_align_block_size_stage1_kernel",
             [A((numel,), i32, f"index:{experts}"), A(((experts + 1) * experts,), i32, "zeros"),
              K(experts), K(numel), K(math.ceil(numel / experts))], (experts,)))

    # cutileGPT causal_attention_kernel (cutile_causal_attention: 64x64 tiles), float32: GPT-2
    # medium's 16 heads of 64 at its 1,024 context, 16 sequences
    gb, gh, gs, gd = 16 // d, 16, 1024, 64
    add(Case("L_causal_attention_f32_16x16x1024x64", k, GPT + "attention.py", "causal_attention_kernel",
             [A((gb, gh, gs, gd)), A((gb, gh, gs, gd)), A((gb, gh, gs, gd)), A((gb, gh, gs, gd), init="zeros"),
              S(1 / math.sqrt(gd)), K(gd), K(gh), K(64), K(64)], (gs // 64, gb * gh)))

    for x in list(out):
        add(x.launched("validate-l-launch"))
    return out
