"""Validation set AD: forty-two TileBench kernels (Deep-Learning-Profiling-Tools/Tilebench), one more of
each of the 42 operators that still had a model-written file no set used, drawn before any prediction
for them was looked at (model version 68 frozen first; the predictions committed before any device
run, bench/results/cost_setad_predictions.json). Leaky ReLU, the matrix copy and vector add had no
file left.

The draw. Per operator, the files of TileBench's `tilebench/benchmarks/llm_generated/<op>/` folders
that no set read (docs/cost-validation-checkouts.md lists those that sets read) and no other copy
duplicates, sorted by path, shuffled by `random.Random("AD-<op>")`; the first taken, or the next
where one does not compile on cuTile or has no kernel (dropout, rmsnorm, rope and top-k: the
comments say why). Of a file, the kernel its launch code runs for the benchmark's largest case at
the first dtype the benchmark lists (of several, the one moving the most data); sizes and their
scaling those of the operator's case in set AA or AC, tile sizes and hints as in set AA
(cost_setaa.py).

The files are read from the checkout given by `--tilebench DIR` at `impls/<op>/<author>_i<N>/`, never
copied here. Each kernel is built dynamically shaped (`validate-ad`) and as tilescope's launch
builds it (`validate-ad-launch`).
"""
from __future__ import annotations

import math
from typing import List

from costval_case import A, Case, K, S, cdiv, tilebench_impl


def setad_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    f = tilebench_impl
    g = "validate-ad"
    # 1d_conv (claude-opus-4-7 iteration 9): float16 mma on gathered windows, 64 rows x 256 outputs a block
    # (16,384 outputs), the 383 taps window in 12 steps of 32, the 127 weights gathered as a banded Toeplitz
    # tile (the benchmark's 20M input, 127 taps, as set AA)
    n, taps = 20_000_000 // d, 127
    no = n - taps + 1
    add(Case("AD_conv1d_mma_toeplitz_f16_20M_k127", g, f("1d_conv/claude_i9"), "_conv1d_matmul_kernel",
             [A((n,), "float16"), A((taps,), "float16"), A((no,), "float16", "zeros"),
              S(n, "int32"), S(no, "int32"),
              K(64), K(256), K(32), K((256 + taps - 1 + 32 - 1) // 32), K(taps)],
             (cdiv(no, 64 * 256),)))
    # 2d_conv (claude-opus-4-7 iteration 1): float16 implicit GEMM of a 3x3 pad-1 convolution, the input
    # window gathered, 64 output pixels x 128 output channels a block, 32 of the 1,152-long K a step (the
    # benchmark's 1 x 128 x 320 x 320 with 128 output channels, as set AA)
    h = 320 // d
    add(Case("AD_conv2d_gather_mma_f16_128c_320", g, f("2d_conv/claude_i1"), "_conv2d_kernel",
             [A((128 * h * h,), "float16"), A((128, 128 * 9), "float16"), A((128 * h * h,), "float16", "zeros"),
              S(1, "int32"), S(h, "int32"), S(h, "int32"), S(h, "int32"), S(h, "int32"), S(h * h, "int32"),
              K(128), K(128), K(3), K(128 * 9), K(1), K(1), K(64), K(128), K(32)],
             (cdiv(h * h, 64), 1)))
    # 2d_max_pooling (claude-opus-4-7 iteration 3): 3x3 stride-2 pad-1 windows by nine gathers, 1,024 outputs
    # a block, one (n, c) plane per grid x (the benchmark's 4 x 128 x 640 x 640, as set AA)
    hp = 640 // d
    ho = (hp + 2 - 3) // 2 + 1
    add(Case("AD_maxpool2d_gather_f16_4x128x640", g, f("2d_max_pooling/claude_i3"), "_max_pool_kernel",
             [A((4 * 128 * hp * hp,), "float16"), A((4 * 128 * ho * ho,), "float16", "zeros"),
              S(hp, "int32"), S(hp, "int32"), S(ho, "int32"), S(ho, "int32"), S(2, "int32"), S(1, "int32"),
              K(3), K(1024)], (4 * 128, cdiv(ho * ho, 1024))))
    # 3d_conv (gpt-5.5 iteration 1): 3x3x3 valid convolution as nine mma of a banded 16x32 weight tile
    # by a gathered 32-row x 128-column input slab (float32), 16 output rows x 128 columns a block (the
    # benchmark's 64 x 640 x 640, as set AA)
    dd, rr = 64 // d, 640
    add(Case("AD_conv3d_rowmma_f16_64x640x640", g, f("3d_conv/gpt_i1"), "_conv3d_3x3x3_row_mma_kernel",
             [A((dd, rr, rr), "float16"), A((3, 3, 3), "float16"), A((dd - 2, rr - 2, rr - 2), "float16", "zeros"),
              K(16), K(128), K(32)], (cdiv(rr - 2, 128), cdiv(rr - 2, 16), dd - 2)))
    # argmax (gpt-5.5 iteration 2): a row's argmax, one row a block, 4,096-wide float16 tiles reduced as
    # (value, index) pairs, a running float32 max and int32 index kept across the row's five tiles, stored
    # as int64 (the benchmark's 2,048 x 20,480, four times the rows, as set AC)
    m, n = 8192 // d, 20480
    add(Case("AD_argmax_rows_f16_8192x20480", g, f("argmax/gpt_i2"), "_argmax_rows_kernel",
             [A((m, n), "float16"), A((m,), "int64", "zeros"), K(n), K(4096)], (m, 1, 1)))
    # batch_normalization (claude-opus-4-7 iteration 8): the normalising pass (x * scale + bias with the
    # float32 per-channel scale and bias the finalize kernel left), 16 whole 1,024-channel rows a block (the
    # benchmark's 20,000 x 1,024, as set AA)
    bn, c = 20000 // d, 1024
    add(Case("AD_batchnorm_apply_f16_20000x1024", g, f("batch_normalization/claude_i8"), "_apply",
             [A((bn, c), "float16"), A((bn, c), "float16", "zeros"), A((c,)), A((c,)), K(16), K(1024)],
             (cdiv(bn, 16), 1, 1)))
    # batched_matmul (claude-opus-4-7 iteration 3): float16 batched GEMM (the low-precision kernel; the fp32
    # one is for float32 only), 128x128 output tiles, 32 of K a step, one matrix of the batch per grid z
    # (the benchmark's 32 x 640 x 640 x 640, four times the batch, as set AC)
    b, mm = 128 // d, 640
    add(Case("AD_bmm_lp_f16_128x640x640x640", g, f("batched_matmul/claude_i3"), "_bmm_kernel_lp",
             [A((b, mm, mm), "float16"), A((b, mm, mm), "float16"), A((b, mm, mm), "float16", "zeros"),
              K(mm), K(mm), K(mm), K(128), K(128), K(32)], (cdiv(mm, 128), cdiv(mm, 128), b)))
    # bitonic_sort (claude-opus-4-7 iteration 2): one compare-exchange step by gathers and scatters of 512
    # pairs a block over the 2^24 padded array (the benchmark's 10M float16 elements); the last stage's
    # first step (k = M, j = M/2), grid M/2/512
    m = 1 << (24 - int(math.log2(d)))
    add(Case("AD_bitonic_step_f16_2p24", g, f("bitonic_sort/claude_i2"), "_bitonic_step",
             [A((m,), "float16"), S(m, "int32"), S(m // 2, "int32"), K(512)], (m // 2 // 512, 1, 1)))
    # block_sparse_attention (gpt-5.5 iteration 2): a causal local window of three 64-row blocks (the CSR
    # layout passed but not read), GQA 8:2, head size 128, one kernel for every row block (blocks before
    # the first masked off); the benchmark's 2 x 8 heads x 10,240 x 128, as set AA
    sq = 10240 // d
    rows = sq // 64
    add(Case("AD_block_sparse_attn_local3_f16_2x8h_10240_d128", g, f("block_sparse_attention/gpt_i2"),
             "_block_sparse_attention_local3_kernel",
             [A((2, 8, sq, 128), "float16"), A((2, 2, sq, 128), "float16"), A((2, 2, sq, 128), "float16"),
              A((8 * (rows + 1),), "int32", "zeros"), A((8 * 3 * rows,), "int32", "zeros"),
              A((2, 8, sq, 128), "float16", "zeros"), K(rows + 1), K(3 * rows), K(8), S(128 ** -0.5),
              K(8), K(2), K(sq), K(64), K(64), K(128), K(3)], (cdiv(sq, 64), 2 * 8, 1)))
    # cross_entropy (gpt-5.5 iteration 4): per-row loss, one whole 512-wide float16 row a block, the target
    # logit gathered, exp2 log-sum-exp (the benchmark's 10,240 x 512, 32 times the rows, as set AC)
    r, c = 327680 // d, 512
    add(Case("AD_cross_entropy_row_f16_327680x512", g, f("cross_entropy/gpt_i4"), "_cross_entropy_kernel",
             [A((r, c), "float16"), A((r,), "int64", f"index:{c}"), A((r,), "float16", "zeros"), K(512)],
             (r, 1, 1)))
    # dequantize_rowwise (claude-opus-4-7 iteration 1): int8 rows times their scale / 127 to float16, 8x512
    # tiles (the benchmark's 4,096 x 8,192, four times the rows, as set AA)
    dr, dc = 16384 // d, 8192
    add(Case("AD_dequant_rowwise_i8_16384x8192_8x512", g, f("dequantize_rowwise/claude_i1"), "_dequant_kernel",
             [A((dr, dc), "int8", "bytes"), A((dr,)), A((dr, dc), "float16", "zeros"),
              K(dr), K(dc), K(8), K(512)], (cdiv(dr, 8), cdiv(dc, 512), 1)))
    # destindex (claude-opus-4-7 iteration 2): rows of the [T, 1536] no-rope KV cache scattered to their slots
    # (the larger of its two launches), 16x512 tiles (the benchmark's 40,960 tokens, four times as many, as
    # set AA)
    t = 163840 // d
    add(Case("AD_destindex_scatter_f16_163840x1536_16x512", g, f("destindex/claude_i2"), "_scatter_kernel",
             [A((t, 1536), "float16"), A((t,), "int64", f"index:{t}"), A((t, 1536), "float16", "zeros"),
              K(16), K(512)], (t // 16, cdiv(1536, 512), 1)))
    # dropout (claude-opus-4-7 iteration 2, the draw's third: its first two store a float32 product into the
    # float16 output, which cuTile rejects too): x times its keep mask times 1/(1-p) = 2 in float32,
    # 8,192-element float16 tiles (the benchmark's 20M at p = 0.5, four times as many, as set AA)
    nd = (80 << 20) // d
    add(Case("AD_dropout_mask_f16_80M", g, f("dropout/claude_i2"), "_dropout_kernel",
             [A((nd,), "float16"), A((nd,), "float16", "fill:1"), A((nd,), "float16", "zeros"), S(2.0), K(8192)],
             (cdiv(nd, 8192), 1, 1)))
    # flash_attention (gpt-5.5 iteration 5): causal float16 attention, 64 queries a block, 128-key steps with an
    # exp2 online softmax; the key tiles below the diagonal unmasked, the diagonal ones masked, none past it; all
    # EVEN flags true (20,480 divides by 64 and 128, head size 128) (the benchmark's 4 x 32 heads x 20,480 x 128)
    z, h, s, dh = 4, 32, 20480 // d, 128
    add(Case("AD_fa_causal_f16_4x32x20480x128", g, f("flash_attention/gpt_i5"), "_flash_attention_fwd_kernel",
             [A((z, h, s, dh), "float16"), A((z, h, s, dh), "float16"), A((z, h, s, dh), "float16"),
              A((z, h, s, dh), "float16", "zeros"), S(dh ** -0.5 * 1.4426950408889634),
              K(s), K(h), K(64), K(128), K(128), K(True), K(True), K(True), K(True)],
             (cdiv(s, 64), z * h, 1)))
    # flash_decode (claude-opus-4-7 iteration 5): split-KV decoding's merge, stage 1 (stage 2 only merges its 5
    # partials): per program 64 partial blocks x 16 of the head, reduced to a partial max, sum and output;
    # grid (batch, heads, 5 block splits x 8 head splits) (the benchmark's 2 sequences of 40,960 in blocks of
    # 128, 8 heads of 128, float32; 128 sequences, as AA)
    fb, nb, hd = 128 // d, 320, 128
    ks, ds = cdiv(nb, 64), cdiv(hd, 16)
    add(Case("AD_flash_decode_stage1_f32_128x8h_320b_d128", g, f("flash_decode/claude_i5"), "_stage1_kernel",
             [A((fb, 8, nb, hd)), A((fb, 8, nb)), A((fb,), "int32", "fill:40960"),
              A((fb, 8, ks), init="zeros"), A((fb, 8, ks), init="zeros"), A((fb, 8, ks, hd), init="zeros"),
              S(128, "int32"), K(nb), K(hd), K(ds), K(64), K(16)], (fb, 8, ks * ds)))
    # fused_activation (claude-opus-4-7 iteration 1): SiLU of x * gate + bias, 4,096-element tiles, N a constant
    # (the benchmark's 20M float32, twice as many, as AA)
    na = (40 << 20) // d
    add(Case("AD_fused_silu_gate_f32_40M", g, f("fused_activation/claude_i1"), "_fused_act_kernel",
             [A((na,)), A((na,)), A((na,)), A((na,), init="zeros"), K(na), K(4096)], (cdiv(na, 4096), 1, 1)))
    # gaussian_blur (gpt-5.5 iteration 1): direct 7x7 blur, each of the 49 taps a gather of an 8x256 tile (the
    # image's edges read as the padding 0), the tap weight a scalar load (the benchmark's 10,240 x 10,240 float16,
    # 7x7 kernel)
    hh, w = 10240 // d, 10240
    add(Case("AD_gaussian_2d_gather_f16_10240_k7", g, f("gaussian_blur/gpt_i1"), "_gaussian_blur_2d_kernel",
             [A((hh, w), "float16"), A((7, 7), "float16"), A((hh, w), "float16", "zeros"), K(7), K(7), K(8), K(256)],
             (cdiv(w, 256), cdiv(hh, 8), 1)))
    i32 = "int32"
    # histogramming (gpt-5.5 iteration 6): the persistent counting pass (the zeroing and the two reductions move
    # 16 MB or less): 1,024 programs each take every 1,024th 4,096-value tile and add it atomically (block scope)
    # into its own row of a 1,024 x 4,096 partial histogram (the benchmark's 64 Mi int32 values, 4,096 bins)
    n, tile, parts = (1 << 26) // d, 4096, 1024
    nt = cdiv(n, tile)
    add(Case("AD_histogram_persist1024_i32_64M_4096bins", g, f("histogramming/gpt_i6"),
             "_hist_persistent_partition_kernel",
             [A((n,), i32, "index:4096"), A((parts, 4096), i32, "zeros"), K(n), K(nt), K(parts), K(tile),
              K(cdiv(nt, parts))], (parts, 1, 1)))
    # interleave (gpt-5.5 iteration 0): 2,048-element float16 tiles of A and B stacked as pairs by cat and
    # reshape, stored as one 4,096-element tile of the output; the occupancy-8 hint run() adds by
    # .with_hints is left out (the benchmark's 20M, twice as many, as set AC)
    n = 40_000_000 // d
    add(Case("AD_interleave_cat_f16_40M", g, f("interleave/gpt_i0"), "_interleave_kernel",
             [A((n,), "float16"), A((n,), "float16"), A((2 * n,), "float16", "zeros"), K(2048)],
             (cdiv(n, 2048),)))
    # jacobi_stencil_2d (claude-opus-4-7 iteration 8): float16 5-point stencil, 8x512 output tiles, the
    # centre by a tiled load and the four neighbours by checked gathers (padding 0), border cells copied
    # (the benchmark's 10,240 x 10,240, as set AC)
    r, c = 10240 // d, 10240
    add(Case("AD_jacobi_gather_f16_10240", g, f("jacobi_stencil_2d/claude_i8"), "_jacobi_kernel",
             [A((r, c), "float16"), A((r, c), "float16", "zeros"), S(r, "int32"), S(c, "int32"), K(8), K(512)],
             (cdiv(r, 8), cdiv(c, 512))))
    # kl_divergence (gpt-5.5 iteration 0): float32, a row a block, 1x2,048 tiles of the log-predictions and
    # targets (unpadded loads for full tiles, zero-padded for a last partial one), y (log y - lp) where y > 0
    # summed; the occupancy-4 hint run() adds by .with_hints is left out (the benchmark's 4,096 x 16,384,
    # as set AC)
    m = 4096 // d
    add(Case("AD_kl_div_rows_f32_4096x16384", g, f("kl_divergence/gpt_i0"), "_kl_divergence_kernel",
             [A((m, 16384)), A((m, 16384)), A((m,), init="zeros"), K(16384), K(2048)], (m,)))
    # l2_norm (claude-opus-4-7 iteration 4): float16, a row a block, two passes of zero-padded 1x8,192 tiles
    # along the row (sum of squares, then scale), the input flattened to [rows, 10,240] (the benchmark's
    # 1 x 2,048 x 10,240, four times the rows, as set AC)
    m = 8192 // d
    add(Case("AD_l2_norm_2pass_f16_8192x10240", g, f("l2_norm/claude_i4"), "_l2_norm_kernel",
             [A((m, 10240), "float16"), A((m, 10240), "float16", "zeros"), S(1e-6), K(10240), K(8192)], (m,)))
    # layernorm (gpt-5.5 iteration 1): a row a block, two passes of 1x1,024 float16 tiles along the row (sum
    # and sum of squares, then normalise, scale and shift) (the benchmark's batch 1 x 2,048 x 10,240, four
    # times the rows, as set AC)
    lr, lk = 8192 // d, 10240
    add(Case("AD_layernorm_2pass_f16_8192x10240", g, f("layernorm/gpt_i1"), "_layernorm_kernel",
             [A((lr, lk), "float16"), A((lk,), "float16"), A((lk,), "float16"), A((lr, lk), "float16", "zeros"),
              S(1e-5), K(lk), K(1024)], (lr,)))
    # linear_self_attention (claude-opus-4-7 iteration 8): the key-value product phi(K)^T V, 64x64 blocks of
    # the 256x256 state over 8 splits of the rows, 128 rows a step, atomically added into S (and Z); K and V
    # read four times each (the benchmark's 10,000 rows of 256 float32, four times as many, as set AA)
    lm = 40000 // d
    tps = cdiv(cdiv(lm, 128), 8)
    add(Case("AD_linear_attn_kv_f32_40000x256", g, f("linear_self_attention/claude_i8"), "_kv_kernel",
             [A((lm, 256)), A((lm, 256)), A((256, 256), init="zeros"), A((256,), init="zeros"),
              S(lm, "int32"), S(256, "int32"), K(128), K(64), K(tps)], (4, 4, 8)))
    # matmul_fp32_fp16_fp8 (claude-opus-4-7 iteration 8): float32 GEMM as manual TF32x3 (each tile split into
    # a TF32 high part and a TF32 residual, three mma a step into a float32 accumulator), 128x128 output
    # tiles, 32 of K a step (the benchmark's 4,096 x 4,096 x 20,480, float32 its first dtype)
    mm, mn, mk = 4096 // d, 4096 // d, 20480
    add(Case("AD_matmul_f32_tf32x3_4096x4096x20480", g, f("matmul_fp32_fp16_fp8/claude_i8"),
             "_matmul_kernel_tf32x3",
             [A((mm, mk)), A((mk, mn)), A((mm, mn), init="zeros"), K(mk), K(128), K(128), K(32)],
             (cdiv(mm, 128), cdiv(mn, 128))))
    # matmul_int8 (gpt-5.5 iteration 4): int8 A times 2-bit weights unpacked from bytes (four fields of each
    # byte, four int8 mma a step against four column slices of A), 128x128 int32 output tiles, 128 packed
    # rows of B a step (the benchmark's 2,048 x 2,048 x 20,480; B packed as 5,120 x 2,048 bytes)
    km = 2048 // d
    add(Case("AD_matmul_int8_2bit_2048x2048x20480", g, f("matmul_int8/gpt_i4"), "_matmul_int8_packed_kernel",
             [A((km, 20480), "int8", "bytes"), A((5120, km), "uint8", "bytes"), A((km, km), "int32", "zeros"),
              K(5120), K(128), K(128), K(128)], (cdiv(km, 128), cdiv(km, 128))))
    # matrix_transpose (gpt-5.5 iteration 1): 32x32 float16 tiles loaded (no TMA), transposed and stored at
    # the mirrored tile (the benchmark's 4,096 x 20,480, float16 its first dtype)
    tm, tn = 4096 // d, 20480
    add(Case("AD_transpose_f16_4096x20480_32x32", g, f("matrix_transpose/gpt_i1"), "_transpose_kernel",
             [A((tm, tn), "float16"), A((tn, tm), "float16", "zeros"), K(32), K(32)],
             (cdiv(tm, 32), cdiv(tn, 32))))
    # mean_reduction (claude-opus-4-7 iteration 3): float16 row means split along the row, one 1x2,048 tile a
    # block summed in float32, divided by N and atomically added into the zeroed float32 output (the
    # benchmark's 2,048 x 20,480, eight times the rows)
    m, n = 16384 // d, 20480
    add(Case("AD_mean_split_atomic_f16_16384x20480", g, f("mean_reduction/claude_i3"), "_mean_kernel",
             [A((m, n), "float16"), A((m,), "float32", "zeros"), K(n), K(2048)], (m, cdiv(n, 2048))))
    # moe_topk_gating (gpt-5.5 final): top-2 of 128 experts, the two 64-expert halves paired first, then one
    # tuple reduction keeping the top two, a softmax of the two; 16 rows a block (the benchmark's 20,480
    # tokens, eight times as many; float16 its first dtype)
    tm = 163840 // d
    add(Case("AD_moe_top2_pair_gating_f16_163840x128", g, f("moe_topk_gating/gpt_final"), "_moe_topk2_pair_kernel",
             [A((tm, 128), "float16"), A((tm, 2), "float16", "zeros"), A((tm, 2), "int32", "zeros"),
              K(16), K(64)], (cdiv(tm, 16),)))
    # mul2 (claude-opus-4-7 iteration 7): float16 x * 2, 2,048-element tiles, latency 10 on load and store
    # (its launch's occupancy=8 hint left out) (the benchmark's 20 Mi, eight times)
    n = (160 << 20) // d
    add(Case("AD_mul2_f16_160M", g, f("mul2/claude_i7"), "_mul2_kernel",
             [A((n,), "float16"), A((n,), "float16", "zeros"), K(2048)], (cdiv(n, 2048),)))
    # quantize_global (claude-opus-4-7 iteration 8): float32 to float16, 1,024-element tiles, occupancy 32
    # in the decorator (the benchmark's 20 Mi float32, four times as many, as set AA)
    nq = (80 << 20) // d
    add(Case("AD_quantize_cast_f32_80M", g, f("quantize_global/claude_i8"), "_quantize_kernel",
             [A((nq,)), A((nq,), "float16", "zeros"), K(1024)], (cdiv(nq, 1024), 1, 1)))
    # radix_sort (gpt-5.5 iteration 3): a 2-bit pass's scatter, 1,024 keys a block ranked within the block
    # by three cumsums and sent to their digit's run (in-group block prefixes drawn at random in place of
    # the counting passes', group prefixes and bin offsets zero; the first pass, shift 0; the benchmark's
    # 20M int32 keys)
    nr = 20_000_000 // d
    nb = cdiv(nr, 1024)
    add(Case("AD_radix_scatter4_i32_20M", g, f("radix_sort/gpt_i3"), "_scatter4_precomputed_kernel",
             [A((nr,), "int32", "bytes"), A((nr,), "int32", "zeros"), A((4, nb), "int32", f"index:{nr - 1024}"),
              A((4, 32), "int32", "zeros"), A((4,), "int32", "zeros"),
              S(nr, "int32"), S(0, "int32"), S(0, "int32"), K(1024), K(1024), K(32)], (nb, 1, 1)))
    # relu (claude-opus-4-7 iteration 5): float16 maximum(x, 0), 4,096-element tiles (the benchmark's
    # 20 Mi, eight times, as set AC)
    n = (160 << 20) // d
    add(Case("AD_relu_f16_160M", g, f("relu/claude_i5"), "_relu_kernel",
             [A((n,), "float16"), A((n,), "float16", "zeros"), K(4096)], (cdiv(n, 4096), 1, 1)))
    # reverse_array (claude-opus-4-7 iteration 8): float16 out[i] = in[N-1-i], a gather of 4,096 reversed
    # indices and a scatter in order a block, occupancy 2 in the decorator, the last block's tail past N
    # (the benchmark's 20M, eight times, as set AC)
    n = 160_000_000 // d
    add(Case("AD_reverse_gather_f16_160M", g, f("reverse_array/claude_i8"), "_reverse_kernel",
             [A((n,), "float16"), A((n,), "float16", "zeros"), S(n, "int32"), K(4096)], (cdiv(n, 4096), 1, 1)))
    # rmsnorm (claude-opus-4-7 iteration 5, the draw's second: its first keeps tiles in a list, which cuTile
    # rejects too): float16 rows scaled by their rms and the weight, a row a block, 1x2,048 tiles, a pass for
    # the sum of squares and one that reloads and stores (the benchmark's 1 x 2,048 x 10,240, four times the rows)
    r, k = 8192 // d, 10240
    add(Case("AD_rmsnorm_2pass_f16_8192x10240", g, f("rmsnorm/claude_i5"), "_rmsnorm_kernel",
             [A((r, k), "float16"), A((k,), "float16"), A((r, k), "float16", "zeros"), S(1e-6),
              K(k), K(2048)], (r, 1, 1)))
    # rope (claude-opus-4-7 iteration 5, the draw's second: its first stores a float32 tile into the float16
    # output, which cuTile rejects too): rotate-half RoPE, four positions a block, each half of their 32 heads
    # a 1x4x32x64 tile times 4x64 cos/sin tiles (the benchmark's 1 x 20,480 x 32 heads of 128, as set AC)
    s = 20480 // d
    add(Case("AD_rope_4pos_f16_1x20480x32x128", g, f("rope/claude_i5"), "_rope_kernel",
             [A((1, s, 32, 128), "float16"), A((s, 64), "float16"), A((s, 64), "float16"),
              A((1, s, 32, 128), "float16", "zeros"), K(s), K(32), K(64), K(4)], (s // 4, 1, 1)))
    # sigmoid (claude-opus-4-7 iteration 8): 1/(1+exp2(-x log2 e)) in float32 of float16 (flush to zero),
    # 16,384-element tiles, occupancy 2 in the decorator (the benchmark's 50M float16, twice as many)
    n = 100_000_000 // d
    add(Case("AD_sigmoid_exp2_f16_100M", g, f("sigmoid/claude_i8"), "_sigmoid_kernel",
             [A((n,), "float16"), A((n,), "float16", "zeros"), K(16384)], (cdiv(n, 16384), 1, 1)))
    # softmax (claude-opus-4-7 iteration 1): a whole row a block, one 1x16,384 tile (10,240 columns padded
    # with -inf), max, exp, sum in float32, occupancy 2 in the decorator (the benchmark's 2,048 x 10,240
    # float16, four times the rows)
    r = 8192 // d
    add(Case("AD_softmax_row_f16_8192x10240", g, f("softmax/claude_i1"), "_softmax_kernel",
             [A((r, 10240), "float16"), A((r, 10240), "float16", "zeros"), K(10240), K(16384)], (r, 1, 1)))
    # streamk_matmul (gpt-5.5 iteration 6): float16 GEMM of 128x128x64 tiles, one output tile a block on a
    # 1-D grid (row-major over the 224 column tiles); the launch's occupancy-1 hint left out (the
    # benchmark's 8,192 x 28,672 x 4,096)
    sm, sn, sk = 8192 // d, 28672 // d, 4096
    add(Case("AD_gemm_1dgrid_f16_8192x28672x4096", g, f("streamk_matmul/gpt_i6"), "_matmul_kernel",
             [A((sm, sk), "float16"), A((sk, sn), "float16"), A((sm, sn), "float16", "zeros"),
              K(cdiv(sk, 64)), K(cdiv(sn, 128)), K(128), K(128), K(64)],
             (cdiv(sm, 128) * cdiv(sn, 128), 1, 1)))
    # swiglu (claude-opus-4-7 iteration 7): x sigmoid(x) y in float32 of flattened float16, 4,096-element
    # tiles, occupancy 16 in the decorator (the benchmark's 4,096 x 20,480)
    n = 4096 * 20480 // d
    add(Case("AD_swiglu_f16_4096x20480", g, f("swiglu/claude_i7"), "_swiglu_kernel",
             [A((n,), "float16"), A((n,), "float16"), A((n,), "float16", "zeros"), K(4096)],
             (cdiv(n, 4096), 1, 1)))
    # top_k_selection (gpt-5.5 iteration 6, the draw's third: its first has no kernel, its second a range of
    # step -1, as has this file's candidate path, whose error its launch catches before running the full
    # bitonic sort): a global compare-exchange pass, a block's 2,048 values and its partner block's; the last
    # stage's first pass (size M, stride M/2) (the benchmark's 2^20 float32, 32 times as many)
    nt = (1 << 25) // d
    add(Case("AD_topk_bitonic_global_pass_f32_2p25", g, f("top_k_selection/gpt_i6"), "_bitonic_global_pass_kernel",
             [A((nt,)), A((nt,), init="zeros"), S(nt, "int32"), S(nt // 2, "int32"), K(2048)],
             (cdiv(nt, 2048), 1, 1)))
    # weight_dequant (claude-opus-4-7 iteration 4): float16 weights times their 128x128 block's scale (one
    # scalar load a block), 128x128 tiles, occupancy 8 in the decorator (the benchmark's 10,240 x 10,240)
    wm = 10240 // d
    add(Case("AD_weight_dequant_blk128_f16_10240", g, f("weight_dequant/claude_i4"), "_wdq_kernel",
             [A((wm, 10240), "float16"), A((cdiv(wm, 128), 80), "float16"), A((wm, 10240), "float16", "zeros"),
              K(128), K(128)], (cdiv(wm, 128), 80, 1)))

    for x in list(out):
        add(x.launched("validate-ad-launch"))
    return out
