"""Validation set U: eleven public cuTile kernels that no earlier set (A-T) used, from two
repositories no set used and from a part of one that earlier sets did use, chosen for variety (a
fused dual GEMM in TF32, causal GQA flash attention in TF32, an embedding gather, a row
LayerNorm, a convolution as one whole-tile matmul per sample, a tiled transpose, split-KV decode
attention that reduces its splits in the last block to finish, a SiLU-and-mul with MXFP8
quantisation, a persistent cumulative sum, a split-K GEMM accumulated by atomics, a persistent
group norm) and fixed before any prediction for them was looked at (the model frozen first, the
predictions committed before the device run).

- ed-aisys/edin-mls-26-spring (6245b9f, `--repo edin=DIR`): a university course's GLM-ASR
  homework, its worked cuTile example (`hw1-asr/glm_asr_cutile_example/`, float32 throughout,
  CuPy host code) and its cuTile tutorial; sizes from the model's own configuration where the
  kernel accepts them (its tiles must be powers of two), else the nearest the kernel takes:
  - `layers.py` `swiglu_fused_kernel`: SiLU(x @ gate) * (x @ up), both products in one K loop,
    64x64x32 tiles cast to TF32 (the text decoder's MLP: 4,096 tokens, K = 3,584,
    N = 18,944; grid (64, 296));
  - `flash_attention.py` `flash_attention_kernel`: causal GQA attention, float32 operands cast
    to TF32 for both products, 64x64 tiles, exp2 online softmax (the text decoder's 28 query and
    4 KV heads of 128; 2 sequences of 8,192; grid (128, 56));
  - `layers.py` `embedding_kernel`: one token a block, its id loaded as a scalar and the row
    gathered (a 32,768 x 4,096 table, 32,768 tokens; grid (32,768,));
  - `layers.py` `layernorm_kernel`: one row a block, the whole 4,096-wide row one tile (the
    projector's width; 32,768 rows);
  - `conv.py` `conv1d_matmul_kernel`: a 1-D convolution after im2col, one sample a block, the
    whole (out_channels x in_channels*k) weight times the whole column matrix as one tile matmul
    (64 x 128 by 128 x 128: the largest the launcher sends to cuTile is 256; 16,384 samples);
  - `cutile-tutorial/4-transpose/grid_2d.py` `transpose_cutile`: int32 16x16 tiles, loaded and
    stored transposed (the tutorial's tiles; a 16,384 x 8,192 array; grid (512, 1,024)).
- lessw2020/TileGym (a fork of NVIDIA/TileGym with kernels of its own that upstream does not
  have; `--repo lessw=DIR`):
  - `src/tilegym/ops/cutile/flash_decode_fused.py` `attention_decode_fused_kernel` (cddd9f4,
    branch group_gemm): GQA decode split over the KV sequence; each block writes its partial
    output and log-sum-exp, counts itself in by an atomic add (release), and the last block of a
    (batch, KV head) pair reads all partials back and reduces them (its launcher's tile 128 and
    split rule for 132 SMs; float16, 32 query and 8 KV heads of 128, 4 sequences of 131,072
    cached tokens: 4 splits of 32,768; grid (4, 8, 4));
  - `src/tilegym/ops/cutile/silu_and_mul_mxfp8_v2.py` `silu_and_mul_mxfp8_kernel_padded`
    (dd9fc03, on branch tma_perf): SiLU(a) * b of a row's two halves gathered, quantised to
    float8_e4m3fn in groups of 32 with a float32 scale per group, both scattered out (bfloat16
    in, DeepSeek-V3's MoE width 2,048 from its benchmark, 131,072 tokens; grid (131,072,)).
- NVIDIA/TileGym (75a1430, `--repo gym=DIR`; sets D, E, Q and S used other files of it, none of
  these): the examples of its cuTile skill (`skills/tilegym-cutile-python/examples/`), each with
  its launcher's tiles and persistent grid for 132 SMs:
  - `scan/cumsum_cumprod_blocking.py` `kernel_cumsum`: 64 rows of 256 float16 a tile, a
    cumulative sum along the row, persistent over the row tiles (2^21 rows; grid (528,));
  - `matmul/split_k_gemm.py` `split_gemm`: float32 GEMM split four ways along K, 128x128x64
    tiles, each split's tile added into the output by `atomic_add`, persistent over
    (m, n, split) (M = N = 2,048, K = 65,536; grid (264,));
  - `normalization/group_norm.py` `group_norm_kernel`: per (sample, group) a pass for the sum and
    sum of squares and a pass that normalises with the channel's weight and bias, 256-element
    tiles, persistent (float16, 32 x 512 channels of 128 x 128, 32 groups; grid (528,)).
  Sizes: arrays of 0.2-1 GiB (1 GiB: the convolution's column matrix, the decode's K and V, the
  MXFP8 input, the scan's input and output; the fused MLP's weights 0.26 GiB each and 1.1 TFLOP;
  the causal attention's 0.96 TFLOP; the split-K GEMM's 0.55 TFLOP in float32); grid axes 2 and 3
  at most 1,024.

The checkouts are git checkouts of the snapshots `fetch` gives (edin at 6245b9f; lessw at
cddd9f4 with `silu_and_mul_mxfp8_v2.py` written from dd9fc03 on branch tma_perf, whose tip 1e234f5
differs only in taking its `ConstInt` alias from a module of its own; gym as
sets Q and S). Each kernel is built dynamically shaped (`validate-u`) and as tilescope's launch
builds it (`validate-u-launch`), as sets M-T. Nothing is copied here: the files are read from the
checkouts (`cost_setm.load_checkout`, the host modules the files import stood in while a module
loads: `HOST_MODULES`).

Every case built (tileiras 13.4, sm_90; the split-K GEMM in 17 s and the convolution in 11 s,
the others in 2.5 s or less; 73 s in all on the 2-core machine) and ran on the CPU executor at the
small sizes (`setu_cases(8)`) with no bounds report, and all eleven agreed there with a NumPy
reference: the transpose and the gather exact; 1.2e-7 to 6.5e-7 relative error in float32 (the
LayerNorm, the convolution, the split-K GEMM); 2.9e-4 and 3.7e-4 with TF32 products (the causal
attention, the fused MLP); 3.0e-4 and 4.1e-4 in float16 (the group norm, the decode, whose
completion counters are back at zero afterwards); 5.0e-3 for the float16 scan (its sums kept in
float16); the MXFP8 scales to 1.5e-7, the codes those of rounding to float8_e4m3fn but for one in
524,288 (at a rounding boundary), their dequantised values within 2.0% of the product (float8's
precision).

Considered and left out: the course's other kernels (its RMSNorm and softmax are the row kernel
above again; its RoPE loads the second half at a tile index equal to the half width, reading
outside the head; its per-key attention kernels loop over keys one at a time); the tutorial's
vector add, sigmoid and unnormalised attention; the fork's `inf_rms_norm.py` (a row norm like the
LayerNorm above) and its first MXFP8 version; TileGym's other skill examples (implicit-im2col
convolutions and poolings by `gather`, a 4-D matmul, a matrix-vector product: one convolution
and enough GEMMs are in the set already, these are left for a later one); the student forks of
the course repository (the same example, changed by students); Weili-0234/TileGym (its new NSA
kernels are on branches its own commits call work in progress).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K, S

EDIN = "edin:hw1-asr/glm_asr_cutile_example/"
TUTORIAL = "edin:cutile-tutorial/"
LESSW = "lessw:src/tilegym/ops/cutile/"
SKILLS = "gym:skills/tilegym-cutile-python/examples/"
COMMITS = {"edin": "ed-aisys/edin-mls-26-spring@6245b9f",
           "lessw": "lessw2020/TileGym@cddd9f4 (flash_decode_fused.py), @dd9fc03 (silu_and_mul_mxfp8_v2.py)",
           "gym": "NVIDIA/TileGym@75a1430"}
SMS = 132

# Host modules the checkouts' files import, stood in while a kernel module loads.
HOST_MODULES = {"edin": ("cupy",),
                "lessw": {"tilegym": {}, "tilegym.backend": {}, "tilegym.logger": {}}}


def setu_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    k = "validate-u"
    f16, bf16, f8, i32 = "float16", "bfloat16", "float8_e4m3fn", "int32"

    # -- ed-aisys/edin-mls-26-spring: GLM-ASR's worked cuTile example, float32
    # swiglu_fused_kernel (64x64x32 TF32 tiles; grid (M / 64, N / 64)): the text decoder's MLP
    m, kk, n = 4096 // d, 3584 // d, 18944 // d
    add(Case("U_edin_swiglu_tf32_4096x3584x18944", k, EDIN + "layers.py", "swiglu_fused_kernel",
             [A((m, kk)), A((kk, n)), A((kk, n)), A((m, n), init="zeros"), K(m), K(n), K(kk)],
             (m // 64, n // 64)))
    # flash_attention_kernel (TILE_M 64, TILE_N 64, head 128; grid (S / 64, B * H)): causal GQA,
    # 28 query and 4 KV heads, the scale pre-multiplied by 1 / ln 2 as its launcher does
    fb, fh, fkv, fs, dh = 2, 28, 4, 8192 // d, 128
    add(Case("U_edin_flash_attention_tf32_causal_2x8192_28q4kv", k, EDIN + "flash_attention.py",
             "flash_attention_kernel",
             [A((fb, fh, fs, dh)), A((fb, fkv, fs, dh)), A((fb, fkv, fs, dh)), A((fb, fh, fs, dh), init="zeros"),
              S(dh ** -0.5 / 0.6931471805599453), K(dh), K(fh), K(64), K(64), K(fh // fkv), K(True)],
             (fs // 64, fb * fh)))
    # embedding_kernel (one token a block): a 32,768 x 4,096 table, 32,768 token ids
    vocab, ed, tokens = 32768 // d, 4096 // d, 32768 // d
    add(Case("U_edin_embedding_gather_f32_32768x4096", k, EDIN + "layers.py", "embedding_kernel",
             [A((tokens,), i32, f"index:{vocab}"), A((vocab, ed)), A((tokens, ed), init="zeros"), K(ed)],
             (tokens,)))
    # layernorm_kernel (one row a block, eps 1e-5 as its LayerNorm class): 32,768 rows of 4,096
    rows, hid = 32768 // d, 4096 // d
    add(Case("U_edin_layernorm_f32_32768x4096", k, EDIN + "layers.py", "layernorm_kernel",
             [A((rows, hid)), A((hid,)), A((hid,)), A((rows, hid), init="zeros"), K(1e-5), K(hid)], (rows,)))
    # conv1d_matmul_kernel (one sample a block): 64 out channels, in_channels * k padded to 128,
    # 128 output positions
    cb = 16384 // d
    add(Case("U_edin_conv1d_matmul_f32_16384x64x128x128", k, EDIN + "conv.py", "conv1d_matmul_kernel",
             [A((cb, 128, 128)), A((64, 128)), A((cb, 64, 128), init="zeros"), K(64), K(128), K(128)], (cb,)))
    # transpose_cutile (16x16 tiles; grid (W / 16, H / 16)): int32 16,384 x 8,192
    th, tw = 16384 // d, 8192 // d
    add(Case("U_edin_transpose_i32_16384x8192_t16", k, TUTORIAL + "4-transpose/grid_2d.py", "transpose_cutile",
             [A((th, tw), i32, "index:100"), A((tw, th), i32, "zeros"), K(16), K(16)], (tw // 16, th // 16)))

    # -- lessw2020/TileGym
    # attention_decode_fused_kernel (TILE_N 128; splits: 132 SMs // (B * H_kv) = 4, KV_LEN_PER_SPLIT the
    # next power of two of S / 4; grid (B, H_kv, splits)): float16, 32 query and 8 KV heads of 128
    db, dq, dkv, dd = 4, 32, 8, 128
    ds = 131072 // d // d
    splits = SMS // (db * dkv)
    per = max(128, 1 << (-(-ds // splits) - 1).bit_length())
    nsp = -(-ds // per)
    g = dq // dkv
    add(Case("U_lessw_decode_fused_f16_4x131072_32q8kv", k, LESSW + "flash_decode_fused.py",
             "attention_decode_fused_kernel",
             [A((db, dkv, g, dd), f16), A((db, dkv, ds, dd), f16), A((db, dkv, ds, dd), f16),
              A((db, dq, dd), f16, "zeros"), A((db, dkv, nsp, g, dd), f16, "zeros"), A((db, dkv, nsp, g), init="zeros"),
              A((db, dkv), i32, "zeros"), S(dd ** -0.5), S(db, i32), S(dq, i32), S(dkv, i32), S(ds, i32),
              K(dd), K(128), K(per), K(g), K(nsp)], (db, dkv, nsp)))
    # silu_and_mul_mxfp8_kernel_padded (hidden 2,048 a power of two: PADDED_SIZE = hidden, groups of 32)
    qm, qh = 131072 // d // d, 2048
    add(Case("U_lessw_silu_mul_mxfp8_bf16_131072x2048", k, LESSW + "silu_and_mul_mxfp8_v2.py",
             "silu_and_mul_mxfp8_kernel_padded",
             [A((qm, 2 * qh), bf16), A((qm, qh), f8, "zeros"), A((qm, qh // 32), init="zeros"),
              K(qh), K(qh), K(qh // 32), K(qh // 32), K(32)], (qm,)))

    # -- NVIDIA/TileGym's cuTile skill examples (persistent grids for 132 SMs)
    # kernel_cumsum (occupancy 4; 64 x 256 float16 tiles; grid min(132 * 4, tiles)): 2^21 rows
    cr = (1 << 21) // d // d
    ctiles = cr // 64
    add(Case("U_gym_cumsum_f16_2p21x256", k, SKILLS + "scan/cumsum_cumprod_blocking.py", "kernel_cumsum",
             [A((cr, 256), f16), A((cr, 256), f16, "zeros"), K(ctiles), K(64), K(256)], (min(SMS * 4, ctiles),)))
    # split_gemm (128x128x64, split-K 4, GROUP_SIZE_M 4; grid min(132 * 2, tiles)): float32
    # M = N = 2,048, K = 65,536
    sm_, sn, sk = 2048 // d, 2048 // d, 65536 // d
    tm, tn = sm_ // 128, sn // 128
    stiles = tm * tn * 4
    add(Case("U_gym_split_k_gemm_f32_2048x2048x65536", k, SKILLS + "matmul/split_k_gemm.py", "split_gemm",
             [A((sm_, sk)), A((sk, sn)), A((sm_, sn), init="zeros"), K(tm), K(tn), K(4), K(sk // 64 // 4),
              K(stiles), K(128), K(128), K(64), K(min(4, tm))], (min(SMS * 2, stiles),)))
    # group_norm_kernel (occupancy 4; BLOCK_SIZE 256; grid min(132 * 4, N * groups)): float16
    # 32 x 512 channels of 128 x 128, 32 groups (the input viewed as [N, groups, C / groups * H * W])
    gn, gc, gg, gs = 32 // d, 512, 32, 128 // d
    gwork = gn * gg
    add(Case("U_gym_group_norm_f16_32x512x128x128_g32", k, SKILLS + "normalization/group_norm.py",
             "group_norm_kernel",
             [A((gn, gg, gc // gg * gs * gs), f16), A((gn, gg, gc // gg * gs * gs), f16, "zeros"), A((gc,), f16),
              A((gc,), f16), K(gg), K(gc // gg), K(gs), K(gs), K(1e-5), K(gwork), K(256)],
             (min(SMS * 4, gwork),)))

    for x in list(out):
        add(x.launched("validate-u-launch"))
    return out
