"""Validation set O: twelve kernels of two public cuTile repositories that no earlier set (A-N)
used, chosen for variety and fixed before any prediction for them was looked at (the model frozen
first, the predictions committed before the device run).

- MythosAd/ancora-cutile (ancora/kernels at 9c058c2, `--repo ancora=DIR`), Qwen3 training and
  rollout in cuTile; bfloat16 data is held as uint16 bits and bitcast in the kernels, as there
  (the cases fill those arrays with bfloat16 bits of normal values, init `bf16bits`). Qwen3-0.6B's
  shapes (hidden 1,024, intermediate 3,072, 16 query and 8 KV heads of 128, vocabulary 151,936):
  - `attention.py` `_attn_fwd`: causal grouped-query flash attention (`occupancy=2`, 64x64
    tiles, `latency=10` loads, online softmax in base 2, the logsumexp stored), 4 x 4,096 tokens;
  - `fused.py` `_gemm_bf16`: bfloat16-bit GEMM with bfloat16-bit output (`occupancy=2`, the
    128x128x64 tiles its decode launches take from loss.py), 8,192 cubed;
  - `loss.py` `_ce_stats`: cross-entropy statistics over materialised float32 logits, one block
    per 64 rows streaming the vocabulary in 128-wide tiles (online logsumexp, the label's logit
    picked by a compare), 8,192 rows (one wave of 128 blocks at `occupancy=2`);
  - `norm.py` `_rmsnorm_bwd_dx` (two passes over 64-wide chunks of 32 rows, 262,144 rows) and
    `_rmsnorm_dw_part` (the weight gradient's column partial sums: a 16 x 16 grid, each block
    walking 512 row tiles under a bounds `if`, as its backward launches it);
  - `activation.py` `_swiglu_fwd_q`: SwiGLU fused with MXFP8 quantisation (per 32 columns the
    absolute maximum, an E8M0 scale by bit arithmetic, float8_e4m3fn codes as uint8),
    32,768 x 3,072;
  - `fused.py` `_embed_gather`: embedding rows by token id, the id loaded from memory as a tile
    index, 65,536 tokens (ids uniform over the vocabulary);
  - `moe.py` `_ggemm`: grouped MoE GEMM, each 128-row tile's expert loaded from memory and its
    weights indexed by it, with Qwen3-30B-A3B's shapes (hidden 2,048, 128 experts of 768; 384
    row tiles of routed tokens, experts uniform at random, where the source sorts them);
  - `rope.py` `_rope_fwd`: rotary embedding over (head, 32-position) blocks, 4 x 16 heads x
    8,192 positions.
- Charbel199/cutile-flashattn (attention.py at 7c9c2cd, `--repo flashattn=DIR`), float16,
  (batch, heads, sequence, 64) arrays with its benchmark's 4 batches of 32 heads:
  - `cutile_attention_v2_kernel`: attention in four passes over a float32 score matrix kept in
    global memory (scores stored, row maxima, exponentials rewritten, P V), 64x64 tiles, 2,048
    tokens (2 GiB of scores);
  - `cutile_attention_v1_kernel`: one 64 x SEQ score tile per block (the whole key range in
    registers), at 128 tokens, the most its benchmark gives it, over 256 batches (at 1,024
    tokens tileiras had not finished the cubin after 11 minutes);
  - `cutile_flash_attention_v2_kernel` (`occupancy=2`, exp2): online softmax, BLOCK_M 128 and
    BLOCK_N 64 from its tile list for head dim 64, 8,192 tokens.

Each kernel is built dynamically shaped (`validate-o`) and as tilescope's launch builds it
(`validate-o-launch`), as sets M and N. Nothing is copied here: the files are read from the
checkouts (`cost_setm.load_checkout`; ancora's host imports `cuda.core`, `cuda.bindings` and
`ancora.env` (a Windows CUDA path), and cutile-flashattn's `utils` (plotting), stood in while a
module loads: `HOST_MODULES`). Grids, tiles and constants are those of each source's launch code.

Every case built (tileiras 13.4, sm_90) and ran on the CPU executor at the small sizes with no
bounds report, and all twelve agreed there with a NumPy reference: relative error 3e-3 or less
where the output is bfloat16 (GEMM, RMSNorm dx, RoPE), 1e-3 or less elsewhere; the MXFP8 scales
and float8 codes bit for bit. `cutile_attention_v1_kernel` replaced its first size (1,024 tokens,
see above); nothing else was replaced.

Considered and left out: dsl-learn/cutile-learn (its kernels are TileGym's, which sets D, E and L
timed, and its dropout tutorial launches on import); uwm-se/CuTile (TileGym's GEMM and attention
defined inside functions); ancora's fp8/MXFP8 GEMMs (`_fwd_mxfp8`: Blackwell block-scaled `mma`)
and decode kernels (a few blocks); MaximumBeings/cutile-python-from-first-principles,
trungnt13/cutile-rtx3090-benchmark, SoftEng751-2026/group5-canny-cutile,
YJMSTR/cutile-flash-linear-attention (no snapshot to read). Neither source has an atomic or a
persistent grid (ancora avoids atomics by design: its reductions keep a fixed order).
"""
from __future__ import annotations

import math
from typing import List

from costval_case import A, Case, K, S

AN, FA = "ancora:ancora/kernels/", "flashattn:attention.py"
COMMITS = {"ancora": "MythosAd/ancora-cutile@9c058c2",
           "flashattn": "Charbel199/cutile-flashattn@7c9c2cd"}

# Modules the checkouts' host code imports, stood in while a kernel module loads.
HOST_MODULES = {"ancora": ("cuda.core", "cuda.bindings", "ancora.env"),
                "flashattn": ("utils",)}


def seto_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    k = "validate-o"
    u16, bits, f16, i32, u8 = "uint16", "bf16bits", "float16", "int32", "uint8"

    # ancora _attn_fwd (launch: grid (NQB, B*Hq); Q/K/V rows (B*H*S, 128) bf16 bits; O, L float32)
    b, s, hq, hkv, dh = 4, 4096 // d, 16, 8, 128
    add(Case("O_ancora_attn_fwd_causal_gqa_bf16_4x4096x16q8kv", k, AN + "attention.py", "_attn_fwd",
             [A((b * hq * s, dh), u16, bits), A((b * hkv * s, dh), u16, bits), A((b * hkv * s, dh), u16, bits),
              A((b * hq * s, dh), init="zeros"), A((b * hq * s, 1), init="zeros"),
              K(s // 64), K(s // 64), K(hq), K(hkv), K(1 / math.sqrt(dh))], (s // 64, b * hq)))

    # ancora _gemm_bf16 (resident decode's launch: GTM, GTN, GTK = 128, 128, 64; grid (M/128, N/128))
    g = 8192 // d
    add(Case("O_ancora_gemm_bf16bits_8192_128x128x64", k, AN + "fused.py", "_gemm_bf16",
             [A((g, g), u16, bits), A((g, g), u16, bits), A((g, g), u16, "zeros"), K(g // 64),
              K(128), K(128), K(64)], (g // 128, g // 128)))

    # ancora _ce_stats (launch: grid M // CTM (64), V_BLOCKS = V // TV (128)); Qwen3's vocabulary
    rows, vocab = 8192 // d // d, 151936
    add(Case("O_ancora_ce_stats_f32_8192x151936", k, AN + "loss.py", "_ce_stats",
             [A((rows, vocab)), A((rows, 1), i32, f"index:{vocab}"), A((rows, 1), init="zeros"),
              A((rows, 1), init="zeros"), K(vocab // 128)], (rows // 64,)))

    # ancora _rmsnorm_bwd_dx (rmsnorm_backward: grid M // TM (32), HB = H // TH (64), inv_H)
    m, h = 262144 // d // d, 1024
    add(Case("O_ancora_rmsnorm_bwd_dx_bf16_262144x1024", k, AN + "norm.py", "_rmsnorm_bwd_dx",
             [A((m, h), u16, bits), A((1, h), u16, bits), A((m, h), u16, bits), A((m, 1), init="rand"),
              A((m, h), u16, "zeros"), K(h // 64), K(1 / h)], (m // 32,)))

    # ancora _rmsnorm_dw_part (rmsnorm_backward: grid (H // TD, PART) = (16, 16), BPP row tiles each)
    mb = m // 32
    add(Case("O_ancora_rmsnorm_dw_part_bf16_262144x1024", k, AN + "norm.py", "_rmsnorm_dw_part",
             [A((m, h), u16, bits), A((m, h), u16, bits), A((m, 1), init="rand"), A((16, h), init="zeros"),
              K(mb), K(-(-mb // 16))], (h // 64, 16)))

    # ancora _swiglu_fwd_q (launch: grid M // TMQ (64), KB = I // 32)
    sm, inter = 32768 // d // d, 3072
    add(Case("O_ancora_swiglu_mxfp8_quant_32768x3072", k, AN + "activation.py", "_swiglu_fwd_q",
             [A((sm, inter), u16, bits), A((sm, inter), u16, bits), A((sm, inter), u8, "zeros"),
              A((sm, inter // 32), u8, "zeros"), K(inter // 32)], (sm // 64,)))

    # ancora _embed_gather (decode launch: grid R, HB = H // 128)
    r, v = 65536 // d // d, 151936 // d
    add(Case("O_ancora_embed_gather_bf16_65536_of_151936x1024", k, AN + "fused.py", "_embed_gather",
             [A((r, 1), i32, f"index:{v}"), A((v, h), u16, bits), A((r, h), init="zeros"), K(h // 128)], (r,)))

    # ancora _ggemm (MoE layer launch: grid (Rt, Ie // TN), Kb = H // TK, TM 128, TN 128, TK 64)
    rt, hm, ne, ie = 384 // d, 2048 // d, 128, 768
    add(Case("O_ancora_moe_grouped_gemm_bf16_384t_128e_2048x768", k, AN + "moe.py", "_ggemm",
             [A((rt * 128, hm), u16, bits), A((ne * hm, ie), u16, bits), A((rt, 1), i32, f"index:{ne}"),
              A((rt * 128, ie), init="zeros"), K(hm // 64), K(ne)], (rt, ie // 128)))

    # ancora _rope_fwd (launch: grid (S // RTM (32), B*H), NSB = S // 32, Dh = D // 2)
    rb, rs, rh = 4, 8192 // d, 16
    add(Case("O_ancora_rope_bf16_4x16x8192x128", k, AN + "rope.py", "_rope_fwd",
             [A((rb * rh * rs, dh), u16, bits), A((rs, dh // 2)), A((rs, dh // 2)),
              A((rb * rh * rs, dh), u16, "zeros"), K(rs // 32), K(dh // 2)], (rs // 32, rb * rh)))

    # cutile-flashattn cutile_attention_v2 (grid (B, H, S / BLOCK_M), BLOCK_M = BLOCK_N = 64;
    # S: float32 scores (B, H, S, S))
    fb, fh, fd = 4, 32, 64
    n2 = 2048 // d
    add(Case("O_flashattn_four_pass_scores_f16_4x32x2048x64", k, FA, "cutile_attention_v2_kernel",
             [A((fb, fh, n2, fd), f16), A((fb, fh, n2, fd), f16), A((fb, fh, n2, fd), f16),
              A((fb, fh, n2, n2), init="zeros"), S(1 / math.sqrt(fd)), K(n2), K(fd),
              A((fb, fh, n2, fd), f16, "zeros")], (fb, fh, n2 // 64)))

    # cutile-flashattn cutile_attention_v1 (grid (B, H, S / 64): a 64 x S score tile per block; its
    # benchmark runs it only up to 128 tokens, so the batch grows instead)
    n1, b1 = 128, 256 // d
    add(Case("O_flashattn_row_tile_f16_256x32x128x64", k, FA, "cutile_attention_v1_kernel",
             [A((b1, fh, n1, fd), f16), A((b1, fh, n1, fd), f16), A((b1, fh, n1, fd), f16),
              S(1 / math.sqrt(fd)), K(n1), K(fd), A((b1, fh, n1, fd), f16, "zeros")], (b1, fh, n1 // 64)))

    # cutile-flashattn cutile_flash_attention_v2 (_launch_v2: grid (B, H, S / bm); bm 128, bn 64)
    n3 = 8192 // d
    add(Case("O_flashattn_flash_v2_f16_4x32x8192x64_128x64", k, FA, "cutile_flash_attention_v2_kernel",
             [A((fb, fh, n3, fd), f16), A((fb, fh, n3, fd), f16), A((fb, fh, n3, fd), f16),
              S(1 / math.sqrt(fd)), K(n3), K(fd), K(128), K(64), A((fb, fh, n3, fd), f16, "zeros")],
             (fb, fh, n3 // 128)))

    for x in list(out):
        add(x.launched("validate-o-launch"))
    return out
