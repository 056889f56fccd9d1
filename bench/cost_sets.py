"""Validation set S: eleven kernels that no earlier set (A-R) used, three of Along-whu/cutile's
manifold hyper-connections and eight of NVIDIA/TileGym's suites and model kernels, chosen for
variety (a GEMM with an alpha/beta epilogue, an MoE grouped GEMM, neighborhood attention, a fused
residual-add RMSNorm, RoPE, a causal convolution, a distillation loss with its gradient, a
normalisation's backward with partial sums, the mHC projections and mixes) and fixed before any
prediction for them was looked at (the model frozen first, the predictions committed before the
device run).

- Along-whu/cutile (cutile-examples/ at 2eeee48, `--repo along=DIR`, the checkout of sets P and
  R): `_18_mHC.py`, which set R left out. Like set R's exercises it runs a demo when imported,
  after its kernels; only its statements through its last definition run (`DEMO_AT_IMPORT`),
  the torch module class and the allocator calls above the kernels stood in where torch is not
  installed. The demo's model (4 streams of 1,024, K = 4,096, float32, its tiles), 65,536 tokens:
  - `Fused_Compute_H_Matrix_Kernel`: per 512-wide chunk of a row, x @ phi (phi [4,096, 32]) by
    128x128 tiles and the sum of squares, stored per chunk (grid (M / 128, K / 512));
  - `Apply_Residual_Kernel`: the 4x4 stream mix as a batched `@` of a 4x4 by a 4x256 tile plus
    H_post times the pre-mixed row, one row a block (grid (M, 1,024 / 256));
  - `ApplyPreTransform_Kernel`: the streams weighted by H_pre and summed (grid (M, 1,024 / 256)).
  `Split_H_Kernel` was not taken and a further TileGym kernel (neighborhood attention) took its
  place: its `ct.extract` calls give element offsets where cuTile counts sub-tiles
  (`extract(raw, (4,), (16,))` of a 32-wide tile asks for the fifth 16-wide sub-tile of two),
  out of range, undefined on the GPU.
- NVIDIA/TileGym (src/tilegym at 75a1430, `--repo gym=DIR`, set Q's checkout): files no set read
  (sets D, E, K, L and Q read only src/tilegym/ops/cutile), each with its own launch's tiles
  (the sm_90 default without autotuning, or the first configuration of its autotune list, as
  with autotuning disabled), on a model's shapes, bfloat16:
  - `suites/flashinfer/cutile/gemm/gemm_alpha_beta.py` `_gemm_alpha_beta_kernel`: C = alpha A B^T
    + beta C in place, persistent over 8-row groups of 128x128 tiles (BLOCK_K 64; one block an
    SM), B as [N, K], 8,192 cubed, alpha and beta 1;
  - `suites/liger/cutile/fused_add_rms_norm.py` `_fused_add_rms_norm_fwd_large_ct` (8 worker
    warps): S = X + R stored, then RMSNorm of S (float32 rstd stored, llama casting) in two
    4,096-wide chunks by gather/scatter; 32,768 rows of 8,192 (grid (rows,));
  - `suites/liger/cutile/llama4_rope.py` `_llama4_rope_kernel`: interleaved complex rotation in
    place by strided gathers and scatters, Llama-4 Scout's 40 query and 8 KV heads of 128,
    4 sequences of 8,192 (grid (B, S, 40));
  - `transformers/qwen3_5/kernels/causal_conv1d_prefill_silu.py`: a width-4 depthwise causal
    convolution and SiLU, 8,192 channels over 32,768 tokens (grid (D, T / 256));
  - `suites/liger/cutile/jsd.py` `_jsd_kernel`: the generalized Jensen-Shannon divergence
    (beta 0.5) and its gradient per element over Llama-3's 128,256-token vocabulary in 4,096-wide
    chunks (the last one partial, masked), 2,048 rows, float32 loss (grid (rows,));
  - `suites/liger/cutile/dyt.py` `_dyt_bwd_kernel_nww8`: DyT's backward, a block per (column
    block, SM) striding over 65,536 rows of 4,096 with an approximate tanh, its partial sums of
    the three parameter gradients stored (grid (4, 132));
  - `suites/unsloth/cutile/grouped_gemm.py` `_grouped_gemm_fwd_kernel_ct`: an MoE layer's first
    GEMM, persistent, each tile's expert found by walking the expert sizes, token rows gathered
    (permute_x, top 8), 128x128x128 by its heuristic; Qwen3-30B-A3B's 128 experts (1,536 x
    2,048), 8,192 tokens routed evenly (512 rows an expert; `fill:`), the rows' source tokens
    spread uniformly (`index:`);
  - `suites/liger/cutile/fused_neighborhood_attention.py` `_fna_fused_forward_kernel`: 1-D
    neighborhood attention (window 7, dilation 1), the key loop over the band of tiles the window
    touches, exp2 online softmax, the log-sum-exp scattered; 64x32 tiles, 8 x 32 heads of 128,
    8,192 tokens (grid (B * H, S / 64)).
  Where a launch sets occupancy or warps by `replace_hints`, the kernel named is the one it
  launches (`_fwd_large_ct`, `_nww8`); hints that autotuning would pick stay the kernel's own.
  Loading these files stands in the host modules they import beyond set Q's (`HOST_MODULES`).
  Sizes: arrays of 0.3-1 GiB (the GEMM's 128 MiB operands: 1.1 TFLOP of work; the MoE GEMM's
  0.4 TFLOP); grid axes 2 and 3 at most 8,192.

Each kernel is built dynamically shaped (`validate-s`) and as tilescope's launch builds it
(`validate-s-launch`), as sets M-R. Nothing is copied here: the files are read from the checkouts.

Every case built (tileiras 13.4, sm_90; the slowest, the MoE GEMM's dynamic build, in 200-290 s on
a 2-core machine, its launch build in 37 s, the others in 12 s or less) and ran on the CPU executor at the small sizes
(`sets_cases(8)`) with no bounds report, and all eleven agreed there with a NumPy reference:
relative error 3.1e-7 or less in float32 (the mHC kernels), 2e-3 to 3.4e-3 in bfloat16 (GEMM
epilogue, fused RMSNorm, RoPE, convolution, JSD gradient, DyT's input gradient, the MoE GEMM,
neighborhood attention), 4.5e-7 or less for the float32 results (rstd, the JSD loss, DyT's
partial sums, the log-sum-exp); the residual sum S bit for bit. At the small sizes the JSD's
vocabulary is whole chunks, the MoE's width a whole tile and DyT's width 4,096 (ragged tails,
masked by the gathers' bounds checks, report as reads of padding there); the JSD also agreed with
a partial last chunk (2e-3).

Considered and left out: TileGym's `suites/flashinfer/cutile/per_token_group_quant_8bit.py` (set
P timed the kernels of that name in FlashInfer's cuTile port), `ops/cutile/moe.py` (a fused MoE
GEMM as upstream's, which set K timed; the grouped GEMM above stands for MoE) and
`ops/cutile/group_gemm.py` (lists of arrays, which a case cannot state).
"""
from __future__ import annotations

from typing import List

from cost_setq import HOST_MODULES as SETQ_HOST
from costval_case import A, Case, K, S

AL = "along:cutile-examples/"
GYM = "gym:src/tilegym/"
COMMITS = {"along": "Along-whu/cutile@2eeee48", "gym": "NVIDIA/TileGym@75a1430"}
SMS = 132

# Files that launch a demo when imported (their kernels come first): only their definitions run.
DEMO_AT_IMPORT = {"along": ("cutile-examples/_18_mHC.py",)}

# Host modules the TileGym suites' files import besides set Q's (the autotuner's search, the
# registry of implementations, the launch helpers), stood in while a module loads.
HOST_MODULES = {"gym": {**SETQ_HOST["gym"], "tilegym.kernel_utils": {}, "tilegym.ops": {},
                        "tilegym.ops.cutile": {}, "tilegym.ops.cutile.utils": {}}}


def sets_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    k = "validate-s"
    bf16, i32 = "bfloat16", "int32"

    # -- Along-whu/cutile _18_mHC.py: manifold hyper-connections over 4 streams of 1,024 (the
    # demo's mHC(dim=1024, n=4), K = 4,096), float32 as the demo; 65,536 tokens
    m, kk, dim = 65536 // d // d, 4096, 1024
    # Fused_Compute_H_Matrix_Kernel (Compute_H_RmsNorm: chunk 512, tiles 128x128; grid (M / 128, K / 512)):
    # a chunk's x @ phi and sum of squares per row, stored per chunk for Split_H
    add(Case("S_along_mhc_h_matrix_f32_65536x4096", k, AL + "_18_mHC.py", "Fused_Compute_H_Matrix_Kernel",
             [A((m, kk)), A((kk, 32)), A((kk // 512, m, 32), init="zeros"), K(4), K(128), K(128), K(512)],
             (m // 128, kk // 512)))
    # Apply_Residual_Kernel (Apply_Residual: tileM 1, tileK 256; grid (M, dim / 256)): a 4x4 mix of the
    # streams (`@` of a 4x4 by a 4x256 tile) plus H_post times the pre-mixed row
    add(Case("S_along_mhc_apply_residual_f32_65536x4x1024", k, AL + "_18_mHC.py", "Apply_Residual_Kernel",
             [A((m, 4, dim)), A((m, 4, 4)), A((m, dim)), A((m, 4)), A((m, 4, dim), init="zeros"), K(4), K(1),
              K(256)], (m, dim // 256)))
    # ApplyPreTransform_Kernel (Apply_Pre_Transformer: tile 256; grid (M, dim / 256)): the streams
    # weighted by H_pre and summed
    add(Case("S_along_mhc_pre_transform_f32_65536x4x1024", k, AL + "_18_mHC.py", "ApplyPreTransform_Kernel",
             [A((m, 4, dim)), A((m, 4)), A((m, dim), init="zeros"), K(256)], (m, dim // 256)))

    # -- NVIDIA/TileGym's suites and model kernels
    # _gemm_alpha_beta_kernel (FlashInfer suite; sm_90's default configuration without autotuning:
    # 128x128x64, GROUP_SIZE_M 8, one block an SM, no epilogue subtiling; grid (SMs,)): C = alpha A B^T
    # + beta C in place, B as [N, K] (a linear layer's weight); bfloat16 8,192 cubed
    g = 8192 // d
    add(Case("S_gym_gemm_alpha_beta_nt_bf16_8192", k, GYM + "suites/flashinfer/cutile/gemm/gemm_alpha_beta.py",
             "_gemm_alpha_beta_kernel",
             [A((g, g), bf16), A((g, g), bf16), A((g, g), bf16), S(1.0), S(1.0), K(0), K(1), K(128), K(128), K(64),
              K(8), K(0)], (SMS,)))

    # _fused_add_rms_norm_fwd_large_ct (Liger suite; 8 worker warps for blocks of 2,048 and more; the
    # block half of next_power_of_2(8,192), two chunks; llama casting; grid (rows,)): S = X + R stored,
    # RMSNorm of S with its float32 rstd stored; bfloat16, 32,768 rows of 8,192 (Llama-70B's hidden size)
    rn, rc = 32768 // d // d, 8192
    add(Case("S_gym_fused_add_rms_norm_bf16_32768x8192", k, GYM + "suites/liger/cutile/fused_add_rms_norm.py",
             "_fused_add_rms_norm_fwd_large_ct",
             [A((rn, rc), bf16, "zeros"), A((rn, rc), bf16, "zeros"), A((rn, rc), bf16), A((rn, rc), bf16),
              A((rc,), bf16), A((rn,), init="zeros"), K(rc), K(1e-6), K(0.0), K(rc // 2), K(0)], (rn,)))

    # _llama4_rope_kernel (Liger suite; head_dim 128 -> BLOCK_SIZE 64; grid (B, S, max heads)): complex
    # rotation of interleaved pairs in place by gather/scatter; Llama-4 Scout's 40 query heads and 8 KV
    # heads of 128, 4 sequences of 8,192, bfloat16 (float32 frequencies)
    b, s, hq, hk = 4, 8192 // d, 40, 8
    add(Case("S_gym_llama4_rope_bf16_4x8192_40q8kv", k, GYM + "suites/liger/cutile/llama4_rope.py",
             "_llama4_rope_kernel",
             [A((b * s * hq, 128), bf16), A((b * s * hk, 128), bf16), A((s, 128)), S(s, i32), K(64), K(hq), K(hk),
              S(1.0), K(64)], (b, s, hq)))

    # _causal_conv1d_prefill_silu_kernel (Qwen3.5's model kernels; BLOCK_T 256; grid (D, T / 256)): a
    # depthwise causal conv of width 4 and SiLU; the linear-attention conv of 8,192 channels over
    # 32,768 tokens (the input padded by 3), bfloat16
    cd, ctk = 8192 // d, 32768 // d
    add(Case("S_gym_causal_conv1d_silu_bf16_8192x32768", k,
             GYM + "transformers/qwen3_5/kernels/causal_conv1d_prefill_silu.py", "_causal_conv1d_prefill_silu_kernel",
             [A((cd, ctk + 3), bf16), A((cd, 4), bf16), A((cd, ctk), bf16, "zeros"), K(ctk), K(256)],
             (cd, ctk // 256)))

    # _jsd_kernel (Liger suite; BLOCK_SIZE 4,096, beta 0.5, no labels; grid (rows,)): the generalized
    # Jensen-Shannon loss per element and its gradient over a row in 4,096-wide chunks; a distillation
    # step over Llama-3's 128,256-token vocabulary, 2,048 rows, bfloat16 log-probabilities, float32 loss
    # (the vocabulary's last chunk is partial, masked by the gathers' bounds checks; smaller runs take
    # whole chunks)
    jr, jv = 2048 // d, 128256 if d == 1 else 128256 // d // 4096 * 4096
    add(Case("S_gym_jsd_bf16_2048x128256", k, GYM + "suites/liger/cutile/jsd.py", "_jsd_kernel",
             [A((jr, jv), bf16), A((jr, jv), bf16), A((jr, jv), init="zeros"), A((jr, jv), bf16, "zeros"),
              A((1,), "int64", "zeros"), K(0.5), S(1.0 / jr), K(-100), S(jv, i32), K(4096), K(0)], (jr,)))

    # _dyt_bwd_kernel_nww8 (Liger suite; BLOCK_N 1,024, 8 worker warps; grid (N / 1,024, SMs)): DyT's
    # backward, each block striding over rows (approximate tanh) and storing its partial sums of the
    # alpha, gamma and beta gradients; 65,536 rows of 4,096, bfloat16
    dm, dn = 65536 // d // d, 4096
    add(Case("S_gym_dyt_bwd_bf16_65536x4096", k, GYM + "suites/liger/cutile/dyt.py", "_dyt_bwd_kernel_nww8",
             [A((dm, dn), bf16), A((dm, dn), bf16, "zeros"), A((SMS, -(-dn // 1024)), init="zeros"),
              A((SMS, dn), init="zeros"), A((SMS, dn), init="zeros"), A((dm, dn), bf16), A((1,), bf16),
              A((dn,), bf16), K(1), K(dm), K(1024), K(SMS)], (-(-dn // 1024), SMS)))

    # _grouped_gemm_fwd_kernel_ct (Unsloth suite; persistent, grid (SMs,); blocks by its heuristic:
    # 128x128x128; permute_x): an MoE layer's first GEMM, token rows gathered by expert, each tile's
    # expert found by walking the sizes; Qwen3-30B-A3B's 128 experts (gate and up 2 x 768 wide,
    # hidden 2,048), 8,192 tokens, top 8, routed evenly (512 rows an expert), bfloat16
    tok, e, gn, gk = 8192 // d, 128 // d, 1536 // d // 128 * 128, 2048 // d
    tot = tok * 8
    add(Case("S_gym_moe_grouped_gemm_bf16_8192tok_128e_1536x2048", k,
             GYM + "suites/unsloth/cutile/grouped_gemm.py", "_grouped_gemm_fwd_kernel_ct",
             [A((tok, gk), bf16), A((e * gn, gk), bf16), A((tot, gn), bf16, "zeros"), A((e,), i32, f"fill:{tot // e}"),
              A((tot,), i32, f"index:{tot}"), K(gn), K(gk), K(tot), K(e), K(SMS), K(128), K(128), K(128), K(1), K(0),
              K(8)], (SMS,)))

    # _fna_fused_forward_kernel (Liger suite; its first configuration, as with autotuning disabled: 64x32
    # tiles, occupancy 1; grid (B * H, S / 64)): 1-D neighborhood attention, window 7, dilation 1, the key
    # loop over the band of tiles the window touches, exp2 online softmax, the log-sum-exp scattered;
    # 8 x 32 heads of 128, 8,192 tokens, bfloat16
    nb, nh, ns, nd = 8 // d, 32 // d, 8192 // d, 128
    add(Case("S_gym_neighborhood_attention_bf16_8x32hx8192_w7", k,
             GYM + "suites/liger/cutile/fused_neighborhood_attention.py", "_fna_fused_forward_kernel",
             [A((nb, nh, ns, nd), bf16), A((nb, nh, ns, nd), bf16), A((nb, nh, ns, nd), bf16),
              A((nb, nh, ns, nd), bf16, "zeros"), A((nb * nh * ns,), init="zeros"), S(1 / nd ** 0.5), S(nh, i32),
              S(ns, i32), K(nd), K(7), K(1), K(64), K(32), S(ns, i32)], (nb * nh, ns // 64)))

    for x in list(out):
        add(x.launched("validate-s-launch"))
    return out
