"""Validation set P: twelve kernels of two public cuTile repositories that no earlier set (A-O)
used, chosen for variety and fixed before any prediction for them was looked at (the model frozen
first, the predictions committed before the device run).

- Along-whu/cutile (cutile-examples/ at 2eeee48, `--repo along=DIR`; it merges
  caolong-whu/cutile): one person's numbered cuTile exercises, written along the lines of
  ZhangZhiPku/cutile-examples (no snapshot to read) but not copies of them; sizes from each
  file's own `__main__` or launcher where they fill the H200, otherwise scaled up with the file's
  tiles and grid rule:
  - `_05_img2patch.py` `img2patch` and `patch2img`: an image [C, H, W] cut into 4x4 patches
    [N, C*16] (and the patch coordinates) and put back, one block per (patch row, patch column,
    channel), the source's 4x4 patches on a 16 x 2,048 x 2,048 float32 image (4M blocks of 64 B);
  - `_11_rope.py` `build_freqs`: the RoPE table of 2x2 rotation matrices, sin and cos of
    `pow(theta, ...)` per (32 frequencies, position), bfloat16, 32,768 positions of head dim
    128 (the source's table layout [positions, head dim, 2, 2], tile 32; one block per position
    along the grid's second axis, which CUDA caps at 65,535: 131,072 positions failed to launch);
  - `_11_rope.py` `apply_rope`: each 32-wide bfloat16 slice of a row rotated by a batched
    (16 x 2 x 2) @ (16 x 2 x 1) `mma` with the table row its position (loaded from memory)
    picks, 32,768 rows of 128, positions 0, 1, 2, ... as the source's;
  - `_15_muon.py` `symm_matmul` and `symm_matmul_bias` (Newton-Schulz step of Muon:
    alpha X X^T over the lower-triangle 64x64 blocks, the upper half returning at once and the
    off-diagonal blocks stored twice, X^T loaded with `order="F"`; then alpha Y Y^T + beta Z),
    bfloat16, the source's 64x128 tiles and coefficients, X 4,096 x 14,336 (an MLP weight of
    a 7-8B model; the source's 1,024 x 4,096 runs a grid of 256 blocks) and Y 4,096 square (the
    source passes one array as Z and the output; here they are two);
  - `_16_adaLayerNorm.py` `_AdaLayerNorm`: layer norm with shift and scale, one 4,096-wide tile
    per row of 3,072 (masked), float32, the source's 49,600 rows;
  - `_17_MAS.py` `ct_merge_attention_states`: merging two attention partial results by their
    log-sum-exps (one block per (token, head), a 256-wide tile over head dim 128, the merged
    LSE stored), float32, the source's 32 heads of 128 over 32,768 tokens (it tests 512).
- flashinfer-ai/flashinfer (flashinfer/quantization/kernels/cutile/ at fb28d72,
  `--repo flashinfer=DIR`), its cuTile quantisation backends, bfloat16 in, float8_e4m3fn out,
  with DeepSeek-V3's shapes:
  - `per_token_group_quant_8bit_cutile.py` `_per_token_group_quant_8bit_kernel` (one block per
    group of 128, loaded by `gather` with bounds checks, masked `scatter` of codes and scale) and
    `_per_token_group_quant_8bit_colmajor_kernel` as its column-major, TMA-aligned, UE8M0
    (power-of-two scale) launch builds it; 16,384 tokens of hidden 7,168 (917,504 blocks);
  - `rope_quantize_fp8_cutile.py` `_rope_quantize_fp8_kernel`: MLA RoPE (interleaved, cos/sin
    gathered by position) fused with FP8 quantisation, a 2-D grid whose y axis splits into
    query-RoPE heads, the shared key, key no-RoPE chunks and query no-RoPE chunks; 128 heads,
    RoPE dim 64, latent 512, 16,384 tokens, 32 tokens a block at occupancy 1 (one of its
    autotune configurations: the kernel as declared; the others change occupancy by
    `replace_hints`, which a case cannot state);
  - `mxfp8_grouped_quantize_cutile.py` `_mxfp8_grouped_quant_cutile_persistent_prefix`
    (`occupancy=4`, int64 indexing): a persistent grid of 4 blocks per SM walking 128x128 tiles
    of every expert's rows (`while` loops, each tile's expert found by a binary search of a
    prefix table, `Array.slice` per expert), E8M0 scales per 32 columns scattered swizzled;
    64 experts of 1,024 rows at 7,168. Equal groups: the sizes are init `fill:V`, the row
    offsets and the tile prefix table `ramp:S` (i * S), as its prefix kernel would build them.

Each kernel is built dynamically shaped (`validate-p`) and as tilescope's launch builds it
(`validate-p-launch`), as sets M-O. Nothing is copied here: the files are read from the checkouts
(`cost_setm.load_checkout`; `_17_MAS.py` imports `triton.language` and a module `Optional`
that does not exist, stood in while it loads: `HOST_MODULES`; FlashInfer's modules import their
own `flashinfer/cutile` helpers, read from the checkout). Grids, tiles and constants are those
of each source's launch code.

Every case built (tileiras 13.4, sm_90) and ran on the CPU executor at the small sizes with no
bounds report, and all twelve agreed there with a NumPy reference: patches exactly; relative
error 3.5e-3 or less where the output is bfloat16 (RoPE table and rotation, Muon), 1.2e-7 or
less in float32 (AdaLayerNorm, state merging); FP8 codes equal to the reference rounded once
except 5e-4 of them (the row-major quantiser multiplies by a rounded reciprocal) and 5e-7
(RoPE); scales bit for bit (UE8M0 and E8M0) or to 3.4e-8. None was replaced.

Considered and left out: Along-whu's exercises that launch at import (`_01`-`_04`, `_06`-`_10`,
`_12`-`_14`, `_18_mHC.py`), `_19_mla.py` (`mla_splited_kernel` scales its key tile index by the
block size twice, so the cache is read out of bounds; `merging_attention_states_kernel` branches
on a tile, which the front end rejects) and `_20_fla.py` (unfinished: its launchers pass fewer
arguments than the kernels take); FlashInfer's cuTile GEMMs (`mm_bf16`, `bmm_bf16`,
`gemm_fp8_nt_groupwise`: ported from TileGym, which earlier sets timed) and its prefix-table
kernel (one block); ZhangZhiPku/cutile-examples, libing64/flashattn_cutile, Apsod/cutilereduce
and tavakkoliamirmohammad/cutile-stencil-dsl (no snapshot to read).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K, S

AL, FQ = "along:cutile-examples/", "flashinfer:flashinfer/quantization/kernels/cutile/"
COMMITS = {"along": "Along-whu/cutile@2eeee48", "flashinfer": "flashinfer-ai/flashinfer@fb28d72"}

# Modules the checkouts' host code imports, stood in while a kernel module loads.
HOST_MODULES = {"along": ("triton.language", "Optional")}


def setp_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    k = "validate-p"
    bf16, i32 = "bfloat16", "int32"

    # img2patch / patch2img (launch: grid (H / ps, W / ps, C), patch 4 x 4)
    c, hw, ps = 16 // d, 2048 // d, 4
    npatch = (hw // ps) ** 2
    add(Case("P_along_img2patch_f32_16x2048x2048_p4", k, AL + "_05_img2patch.py", "img2patch",
             [A((c, hw, hw)), A((npatch, c * ps * ps), init="zeros"), A((npatch, 2), i32, "zeros"),
              K(ps), K(ps)], (hw // ps, hw // ps, c)))
    add(Case("P_along_patch2img_f32_16x2048x2048_p4", k, AL + "_05_img2patch.py", "patch2img",
             [A((npatch, c * ps * ps)), A((c, hw, hw), init="zeros"), K(ps), K(ps)], (hw // ps, hw // ps, c)))

    # build_freqs (get_freqs: table [max_seq_len, hidden, 2, 2] bf16, grid (hidden / 32, max_seq_len))
    seq, hid, ts = 32768 // d // d, 128, 32
    add(Case("P_along_rope_table_bf16_32768x128", k, AL + "_11_rope.py", "build_freqs",
             [A((seq, hid, 2, 2), bf16, "zeros"), S(hid, i32), S(10000.0), K(ts), K(False)], (hid // ts, seq)))

    # apply_rope (apply_rope_cutile: grid (hidden / 32, seq_len); coord = arange)
    add(Case("P_along_rope_apply_bf16_32768x128", k, AL + "_11_rope.py", "apply_rope",
             [A((seq, hid), bf16), A((seq,), i32, "chase:0"), A((seq, hid), bf16, "zeros"),
              A((seq, hid, 2, 2), bf16), K(ts)], (hid // ts, seq)))

    # symm_matmul / symm_matmul_bias (muon_iteration: tileMN 64, tileK 128, grid (M/64, M/64, 1);
    # a, b, c = 3.4445, -4.7750, 2.0315; the second step's alpha c/b/b, beta a)
    m, kk, tmn, tk = 4096 // d, 14336 // d, 64, 128
    a_, b_, c_ = 3.4445, -4.7750, 2.0315
    add(Case("P_along_muon_xxt_bf16_4096x14336_64x128", k, AL + "_15_muon.py", "symm_matmul",
             [A((m, kk), bf16), A((m, m), bf16, "zeros"), S(b_), K(tmn), K(tk)], (m // tmn, m // tmn, 1)))
    add(Case("P_along_muon_yyt_bias_bf16_4096_64x128", k, AL + "_15_muon.py", "symm_matmul_bias",
             [A((m, m), bf16), A((m, m), bf16), A((m, m), bf16, "zeros"), S(c_ / b_ / b_), S(a_), K(tmn), K(tk)],
             (m // tmn, m // tmn, 1)))

    # _AdaLayerNorm (AdaLayerNorm: tile 4096, grid (cdiv(dim, 4096), seqlen, batch); eps 1e-7)
    rows, dim = 49600 // d // d, 3072
    add(Case("P_along_ada_layernorm_f32_49600x3072", k, AL + "_16_adaLayerNorm.py", "_AdaLayerNorm",
             [A((1, rows, dim)), A((dim,), init="rand"), A((dim,), init="rand"), A((1, dim), init="rand"),
              A((1, dim), init="rand"), S(1e-7), A((1, rows, dim), init="zeros"), K(False), S(dim, i32), K(4096)],
             (1, rows, 1)))

    # ct_merge_attention_states (its test: grid (tokens, heads), tile 256 >= head dim 128, OUTPUT_LSE)
    t, hh, dh = 32768 // d // d, 32, 128
    add(Case("P_along_merge_attn_states_f32_32768x32x128", k, AL + "_17_MAS.py", "ct_merge_attention_states",
             [A((t, hh, dh)), A((t, hh, dh)), A((hh, t)), A((hh, t)), A((t, hh, dh), init="zeros"),
              A((hh, t), init="zeros"), S(dh, i32), K(256), K(True)], (t, hh)))

    # FlashInfer per_token_group_quant_8bit_cutile (grid (M,), M = groups of 128, BLOCK 128, eps 1e-10,
    # float8_e4m3fn's range); DeepSeek-V3's hidden size 7,168 over 16,384 tokens
    tok, hd, gs = 16384 // d // d, 7168, 128
    ng, n = hd // gs, tok * hd
    f8, fmax = "float8_e4m3fn", 448.0
    add(Case("P_flashinfer_token_group_quant_fp8_16384x7168_g128", k, FQ + "per_token_group_quant_8bit_cutile.py",
             "_per_token_group_quant_8bit_kernel",
             [A((n,), bf16), A((n,), f8, "zeros"), A((n // gs,), init="zeros"), S(gs, i32), S(gs, i32), S(1e-10),
              S(-fmax), S(fmax), K(gs), S(n, i32), S(n, i32), S(n // gs, i32)], (n // gs, 1, 1)))
    # the column-major launch with scale_tma_aligned and scale_ue8m0 (scales [groups, tokens rounded to 4])
    al = -(-tok // 4) * 4
    add(Case("P_flashinfer_token_group_quant_fp8_colmajor_ue8m0_16384x7168_g128", k,
             FQ + "per_token_group_quant_8bit_cutile.py", "_per_token_group_quant_8bit_colmajor_kernel",
             [A((n,), bf16), A((n,), f8, "zeros"), A((ng * al,), init="zeros"), S(gs, i32), S(hd, i32), S(hd, i32),
              S(al, i32), S(1e-10), S(-fmax), S(fmax), S(1, i32), K(gs), S(n, i32), S(n, i32), S(ng * al, i32)],
             (n // gs, 1, 1)))

    # FlashInfer rope_quantize_fp8_cutile: DeepSeek MLA (128 query heads, one shared latent key, RoPE dim
    # 64, no-RoPE dim 512), interleaved RoPE; TOKENS_PER_BLOCK 32 at occupancy 1 (one of its autotune
    # configurations); grid (tokens / 32, 128 + 1 + 8 + 128 * 8)
    rt, qh, rd, nd, cache = 16384 // d // d, 128, 64, 512, 16384 // d
    ch = nd // rd
    add(Case("P_flashinfer_mla_rope_quantize_fp8_16384t_128h", k, FQ + "rope_quantize_fp8_cutile.py",
             "_rope_quantize_fp8_kernel",
             [A((rt, qh, rd), bf16), A((rt, rd), bf16), A((rt, qh, nd), bf16), A((rt, nd), bf16),
              A((cache, rd)), A((rt,), i32, f"index:{cache}"),
              A((rt, qh, rd), f8, "zeros"), A((rt, rd), f8, "zeros"), A((rt, qh, nd), f8, "zeros"),
              A((rt, nd), f8, "zeros"), S(1.0), S(1.0), K(rt), K(qh), K(1), K(rd), K(nd), K(32)],
             (rt // 32, qh + 1 + ch + qh * ch, 1)))

    # FlashInfer mxfp8_grouped_quantize_cutile (@ct.kernel(occupancy=4)): a persistent grid of 4 blocks
    # per SM (132 SMs) walking 128x128 tiles of every expert's rows, each tile's expert found by a
    # binary search of the tile prefix table, 32-wide E8M0 scales scattered swizzled; 64 experts of
    # 1,024 routed rows at hidden 7,168 (equal groups: sizes `fill`, row offsets and the prefix table
    # `ramp`, as its prefix kernel would build them)
    ge, mr, kh = 64 // d, 1024 // d, 7168 // d
    tiles = (mr // 128) * (kh // 128)
    add(Case("P_flashinfer_mxfp8_grouped_quant_persistent_64x1024x7168", k, FQ + "mxfp8_grouped_quantize_cutile.py",
             "_mxfp8_grouped_quant_cutile_persistent_prefix",
             [A((ge * mr, kh), bf16), A((ge, 3), i32, f"fill:{mr}"), A((ge,), i32, f"ramp:{mr}"),
              A((ge,), i32, f"ramp:{mr}"), A((2049,), i32, f"ramp:{tiles}"), A((ge * mr, kh), f8, "zeros"),
              A((ge * mr * kh // 32,), "uint8", "zeros")], (132 * 4,)))

    for x in list(out):
        add(x.launched("validate-p-launch"))
    return out
