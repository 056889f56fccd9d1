"""Validation set AA: twenty TileBench kernels (Deep-Learning-Profiling-Tools/Tilebench), one of
each of the twenty operators no earlier set used, drawn before any prediction for them was looked
at (model version 64 frozen first; the predictions committed before any device run,
bench/results/cost_setaa_predictions.json).

The draw. The operators are the repository's `tilebench/benchmarks/llm_generated/<op>/` folders that
no earlier set read: 1d_conv, 2d_conv, 2d_max_pooling, 3d_conv, batch_normalization, bitonic_sort,
block_sparse_attention, dequantize_rowwise, destindex, dropout, flash_decode, fused_activation,
linear_self_attention, matmul_int8, moe_topk_gating, quantize_global, radix_sort, streamk_matmul,
top_k_selection and weight_dequant. Each folder holds up to twenty model-written `impl_cutile.py`
files (claude-opus-4-7 and gpt-5.5, high effort, iterations 0-9 and `final`). Per operator, the
files sorted by path were shuffled by `random.Random("AA-<op>")` and the first taken (the next where
one does not compile on cuTile: top_k_selection's first). Of a file, the kernel its launch code runs
for the benchmark's largest case at the first dtype the benchmark lists; of a file with several
kernels, the one that moves the most data (bitonic sort: the compare-exchange pass, not the copy
into the padded array; radix sort: a pass's scatter, not its count; batch norm: the normalising
pass; flash decode: the partial merge; linear attention: the key-value product; top-k: a sorting
pass, not the copy of the top k). Sizes are the benchmark's largest case, scaled along rows or
elements by a power of two where the case would take well under 0.1 ms on the GPU; arrays the launch
code derives (scratch, counts) have the shapes it gives them. Tile sizes and `@ct.kernel(...)` hints
are the file's; a hint its launch adds with `.with_hints(...)` is not part of the kernel object and
is left out, as in sets F-J.

The files are read from the checkout given by `--tilebench DIR` at `impls/<op>/<author>_i<N>/`
(`_final` for `final`), never copied here; docs/cost-validation-checkouts.md lists each file's
path and commit. Each kernel is built dynamically shaped (`validate-aa`) and as tilescope's launch
builds it (`validate-aa-launch`), as sets G-Z.
"""
from __future__ import annotations

import math
from typing import List

from costval_case import A, Case, K, S, cdiv, tilebench_impl


def setaa_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    f = tilebench_impl
    g = "validate-aa"
    # 1d_conv (gpt-5.5 iteration 1): float16 takes the mma path, 64x64 output tiles of gathered windows
    n, taps = 20_000_000 // d, 127
    add(Case("AA_conv1d_mma_gather_f16_20M_k127", g, f("1d_conv/gpt_i1"), "_conv1d_kernel",
             [A((n,), "float16"), A((taps,), "float16"), A((n - taps + 1,), "float16", "zeros"),
              K(taps), K(192), K(64), K(64), K(64), K(4096)], (cdiv(n - taps + 1, 4096),)))
    # 2d_conv (claude-opus-4-7 iteration 9): float16 implicit GEMM, 128x128 tiles, 64 channels a step
    h = 320 // d
    add(Case("AA_conv2d_mma_f16_128c_320", g, f("2d_conv/claude_i9"), "_conv2d_kernel_mma_v3",
             [A((128 * h * h,), "float16"), A((9, 128, 128), "float16"), A((128 * h * h,), "float16", "zeros"),
              S(1, "int32"), S(h, "int32"), S(h, "int32"), S(h, "int32"), S(h, "int32"), S(h * h, "int32"),
              K(128), K(128), K(3), K(1), K(1), K(2), K(128), K(128), K(64)],
             (cdiv(h * h, 128), 1)))
    # 2d_max_pooling (claude-opus-4-7 iteration 1): 3x3 windows by gathers, 512 outputs a block
    hp = 640 // d
    ho = (hp + 2 - 3) // 2 + 1
    add(Case("AA_maxpool2d_gather_f16_4x128x640", g, f("2d_max_pooling/claude_i1"), "_max_pool_kernel",
             [A((4 * 128 * hp * hp,), "float16"), A((4 * 128 * ho * ho,), "float16", "zeros"),
              S(hp, "int32"), S(hp, "int32"), S(ho, "int32"), S(ho, "int32"), S(2, "int32"), S(1, "int32"),
              K(3), K(512)], (4 * 128, cdiv(ho * ho, 512))))
    # 3d_conv (gpt-5.5 iteration 0): 3x3x3 taps, two output rows of 256 a block
    dd, rr = 64 // d, 640
    add(Case("AA_conv3d_rows_f16_64x640x640", g, f("3d_conv/gpt_i0"), "_conv3d_3x3x3_kernel",
             [A((dd, rr, rr), "float16"), A((3, 3, 3), "float16"), A((dd - 2, rr - 2, rr - 2), "float16", "zeros"),
              K(256)], (cdiv(rr - 2, 256), cdiv(rr - 2, 2), dd - 2)))
    # batch_normalization (gpt-5.5 iteration 6): the normalising pass, 128x32 tiles of a [N, 1024] input
    bn = 20000 // d
    add(Case("AA_batchnorm_apply_f16_20000x1024", g, f("batch_normalization/gpt_i6"), "_apply_kernel",
             [A((bn, 1024), "float16"), A((2, 1024)), A((bn, 1024), "float16", "zeros"), K(128), K(32)],
             (1024 // 32, cdiv(bn, 128))))
    # bitonic_sort (gpt-5.5 iteration 5): one compare-exchange pass by gathers and scatters of a 2^24 padded
    # array (10M float16 elements); the last stage's first pass (k = M, j = M/2)
    m = 1 << (24 - int(math.log2(d)))
    add(Case("AA_bitonic_pass_f16_2p24", g, f("bitonic_sort/gpt_i5"), "_bitonic_pass_kernel",
             [A((m,), "float16"), S(m, "int32"), S(m // 2, "int32"), S(int(math.log2(m // 2)), "int32"),
              S(m, "int32"), K(2048)], (cdiv(m // 2, 2048),)))
    # block_sparse_attention (gpt-5.5 iteration 3): a causal local window of three 64-row blocks, GQA 8:2,
    # head size 128; the kernel of every row block past the first two
    sq = 10240 // d
    rows = sq // 64
    add(Case("AA_block_sparse_attn_f16_2x8h_10240_d128", g, f("block_sparse_attention/gpt_i3"),
             "_block_sparse_attention_main3_kernel",
             [A((2, 8, sq, 128), "float16"), A((2, 2, sq, 128), "float16"), A((2, 2, sq, 128), "float16"),
              A((8 * (rows + 1),), "int32", "zeros"), A((8 * 3 * rows,), "int32", "zeros"),
              A((2, 8, sq, 128), "float16", "zeros"), K(rows + 1), K(3 * rows), K(8), S(128 ** -0.5),
              K(8), K(2), K(sq), K(64), K(64), K(128)], (rows - 2, 16)))
    # dequantize_rowwise (gpt-5.5 iteration 3): int8 rows times their scale, 4x1024 tiles along each row
    # (the benchmark's 4,096 x 8,192, four times the rows)
    dr = 16384 // d
    add(Case("AA_dequant_rowwise_i8_16384x8192", g, f("dequantize_rowwise/gpt_i3"), "_dequantize_rowwise_kernel",
             [A((dr, 8192), "int8", "bytes"), A((dr,)), A((dr, 8192), "float16", "zeros"),
              K(4), K(1024), K(False)], (cdiv(dr, 4),)))
    # destindex (claude-opus-4-7 iteration 4): rows of a [T, 1536] KV cache scattered to their slots,
    # 4x512 tiles (the benchmark's 40,960 tokens, four times as many)
    t = 163840 // d
    add(Case("AA_destindex_scatter_f16_163840x1536", g, f("destindex/claude_i4"), "_scatter_kernel",
             [A((t, 1536), "float16"), A((t,), "int64", f"index:{t}"), A((t, 1536), "float16", "zeros"),
              K(4), K(512)], (t // 4, 3)))
    # dropout (claude-opus-4-7 iteration 5): x times its keep mask and 1/(1-p), 2,048-element tiles
    # (the benchmark's 20M elements, four times as many)
    nd = (80 << 20) // d
    add(Case("AA_dropout_mask_f16_80M", g, f("dropout/claude_i5"), "_dropout_kernel",
             [A((nd,), "float16"), A((nd,), "float16", "fill:1"), A((nd,), "float16", "zeros"), S(2.0), K(2048)],
             (cdiv(nd, 2048),)))
    # flash_decode (gpt-5.5 iteration 1): split-KV decoding's merge, 32 partial blocks of 64 of the head a
    # program (the benchmark's 2 sequences of 40,960 in blocks of 128, 8 heads of 128; 128 sequences)
    fb = 128 // d
    add(Case("AA_flash_decode_merge_f32_128x8h_320b_d128", g, f("flash_decode/gpt_i1"), "_partial_flash_decode_kernel",
             [A((fb, 8, 320, 128)), A((fb, 8, 320)), A((fb,), "int32", "fill:40960"), A((fb,), "int32", "fill:40960"),
              A((fb, 8, 10, 128), init="zeros"), A((fb, 8, 10), init="zeros"), A((fb, 8, 10), init="zeros"),
              K(128), K(False), K(320), K(8), K(128), K(32), K(64)], (10, fb * 8, 2)))
    # fused_activation (claude-opus-4-7 iteration 0): SiLU of x * gate + bias, 4,096-element tiles
    # (the benchmark's 20M float32, twice as many)
    na = (40 << 20) // d
    add(Case("AA_fused_silu_gate_f32_40M", g, f("fused_activation/claude_i0"), "_fused_act_kernel",
             [A((na,)), A((na,)), A((na,)), A((na,), init="zeros"), K(4096)], (cdiv(na, 4096),)))
    # linear_self_attention (gpt-5.5 iteration 0): phi(K)^T V over 32 splits of the rows, 64x64 blocks of
    # the 256x256 state (the benchmark's 10,000 rows of 256 float32, four times as many)
    lm = 40000 // d
    chunks = cdiv(cdiv(lm, 64), 32)
    add(Case("AA_linear_attn_kv_f32_40000x256", g, f("linear_self_attention/gpt_i0"), "_partial_kv_kernel",
             [A((lm, 256)), A((lm, 256)), A((32, 256, 256), init="zeros"), A((32, 256), init="zeros"),
              K(lm), K(256), K(chunks), K(64), K(64)], (4, 4, 32)))
    # matmul_int8 (gpt-5.5 iteration 2): int8 A times 2-bit weights unpacked from bytes, two products of
    # 128x256 tiles a step (the benchmark's 2,048 x 2,048 x 20,480)
    km = 2048 // d
    add(Case("AA_matmul_int8_2bit_2048x2048x20480", g, f("matmul_int8/gpt_i2"), "_matmul_int8_packed_pair_kernel",
             [A((km, 20480), "int8", "bytes"), A((5120, km), "uint8", "bytes"), A((km, km), "int32", "zeros"),
              K(5120), K(128), K(256), K(64)], (cdiv(km, 128), cdiv(km, 256))))
    # moe_topk_gating (claude-opus-4-7 iteration 2): top-2 of 128 experts by two argmax reductions, 16 rows a
    # block, a softmax of the two (the benchmark's 20,480 tokens, eight times as many)
    tm = 163840 // d
    add(Case("AA_moe_top2_gating_f16_163840x128", g, f("moe_topk_gating/claude_i2"), "_moe_topk_kernel",
             [A((tm, 128), "float16"), A((tm, 2), "float16", "zeros"), A((tm, 2), "int32", "zeros"),
              K(128), K(2), K(16), K(128)], (cdiv(tm, 16),)))
    # quantize_global (gpt-5.5 iteration 0): float32 to float16, 2,048-element tiles (the benchmark's 20M,
    # four times as many)
    nq = (80 << 20) // d
    add(Case("AA_quantize_cast_f32_80M", g, f("quantize_global/gpt_i0"), "_quantize_global_kernel",
             [A((nq,)), A((nq,), "float16", "zeros"), K(2048)], (cdiv(nq, 2048),)))
    # radix_sort (gpt-5.5 final): a 2-bit pass's scatter, 1,024 keys a block ranked within the block and sent
    # to their digit's run (block offsets drawn at random in place of the counting pass's prefix sums;
    # the benchmark's 20M int32 keys)
    nr = 20_000_000 // d
    nb = cdiv(nr, 1024)
    add(Case("AA_radix_scatter_i32_20M", g, f("radix_sort/gpt_final"), "_scatter4_kernel",
             [A((nr,), "int32", "bytes"), A((nr + 1,), "int32", "zeros"), A((4, nb), "int32", f"index:{nr - 1024}"),
              A((4, 16), "int32", "zeros"), S(nr, "int32"), S(0, "int32"), K(1024), K(2048), K(16)], (nb,)))
    # streamk_matmul (claude-opus-4-7 iteration 7): float16 GEMM of 128x128x64 tiles, one tile a block
    # (the benchmark's 8,192 x 28,672 x 4,096)
    sm, sn, sk = 8192 // d, 28672 // d, 4096
    add(Case("AA_gemm_f16_8192x28672x4096", g, f("streamk_matmul/claude_i7"), "_matmul_kernel",
             [A((sm, sk), "float16"), A((sk, sn), "float16"), A((sm, sn), "float16", "zeros"),
              K(sk // 64), K(128), K(128), K(64)], (cdiv(sm, 128), cdiv(sn, 128))))
    # top_k_selection (gpt-5.5 iteration 0; the draw's first, claude-opus-4-7 iteration 7, does not compile:
    # a range of step -1): a full bitonic sort's compare-exchange pass, 1,024 values and their partners
    # (a gather) a block; the last stage's first pass (the benchmark's 2^20 float32, 32 times as many)
    nt = (1 << 25) // d
    add(Case("AA_topk_bitonic_pass_f32_2p25", g, f("top_k_selection/gpt_i0"), "_bitonic_pass_kernel",
             [A((nt,)), A((nt,), init="zeros"), S(nt, "int32"), S(nt // 2, "int32"), K(1024)], (cdiv(nt, 1024),)))
    # weight_dequant (gpt-5.5 iteration 0): float16 weights times their 128x128 block's scale, 16x128 tiles
    # (the benchmark's 10,240 x 10,240)
    wm = 10240 // d
    add(Case("AA_weight_dequant_f16_10240", g, f("weight_dequant/gpt_i0"), "_weight_dequant_kernel",
             [A((wm, 10240), "float16"), A((cdiv(wm, 128), 80), "float16"), A((wm, 10240), "float16", "zeros"),
              K(128), K(16), K(128)], (80, cdiv(wm, 16))))
    for x in list(out):
        add(x.launched("validate-aa-launch"))
    return out
