"""Validation set AC: twenty-five TileBench kernels (Deep-Learning-Profiling-Tools/Tilebench), one of
each of the twenty-five operators sets F-K read, from the files no set used, drawn before any
prediction for them was looked at (model version 65 frozen first; the predictions committed before
any device run, bench/results/cost_setac_predictions.json).

The draw. Per operator (argmax ... vector_add: TileBench's `tilebench/benchmarks/llm_generated/<op>/`
folders sets F-K took one file of), the model-written `impl_cutile.py` files of claude-opus-4-7 and
gpt-5.5 (high effort, iterations 0-9 and `final`) that no set read and that no other copy duplicates,
sorted by path, shuffled by `random.Random("AC-<op>")`; the first taken (the next where one does not
compile on cuTile: l2_norm's first two). Of a file, the kernel its launch code runs for the
benchmark's largest case at the first dtype the benchmark lists (of several, the one moving the most
data); sizes (scaled by a power of two where a case would take well under 0.1 ms), tile sizes and
hints as in set AA (cost_setaa.py).

The files are read from the checkout given by `--tilebench DIR` at `impls/<op>/<author>_i<N>/`, never
copied here; docs/cost-validation-checkouts.md lists each file's path and commit. Each kernel is built
dynamically shaped (`validate-ac`) and as tilescope's launch builds it (`validate-ac-launch`).
"""
from __future__ import annotations

import math
from typing import List

from costval_case import A, Case, K, S, cdiv, tilebench_impl


def setac_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    f = tilebench_impl
    g = "validate-ac"
    # argmax (claude-opus-4-7 iteration 5): a row's argmax, one row a block, 2,048-wide float16 tiles cast to
    # float32, a running max and its int64 index kept across the row's tiles (the benchmark's 2,048 x 20,480,
    # four times the rows)
    m, n = 8192 // d, 20480
    add(Case("AC_argmax_rows_f16_8192x20480", g, f("argmax/claude_i5"), "_argmax_kernel",
             [A((m, n), "float16"), A((m,), "int64", "zeros"), K(n), K(2048)], (m, 1, 1)))
    # batched_matmul (claude-opus-4-7 iteration 0): float16 batched GEMM, 64x64 output tiles, 32 of K a step,
    # one matrix of the batch per grid z (the benchmark's 32 x 640 x 640 x 640, four times the batch)
    b, mm = 128 // d, 640
    add(Case("AC_bmm_f16_128x640x640x640", g, f("batched_matmul/claude_i0"), "_bmm_kernel",
             [A((b, mm, mm), "float16"), A((b, mm, mm), "float16"), A((b, mm, mm), "float16", "zeros"),
              K(mm), K(mm), K(mm), K(64), K(64), K(32)], (cdiv(mm, 64), cdiv(mm, 64), b)))
    # cross_entropy (gpt-5.5 iteration 2): per-row loss, four whole 512-wide float16 rows a block, the target
    # logit gathered, exp2 log-sum-exp (the benchmark's 10,240 x 512, 32 times the rows)
    r, c = 327680 // d, 512
    add(Case("AC_cross_entropy_rows_f16_327680x512", g, f("cross_entropy/gpt_i2"), "_cross_entropy_kernel",
             [A((r, c), "float16"), A((r,), "int64", f"index:{c}"), A((r,), "float16", "zeros"), K(512), K(4)],
             (r // 4, 1, 1)))
    # flash_attention (claude-opus-4-7 iteration 7): causal float16 attention, 128 queries a block, 64-key
    # steps with an exp2 online softmax; the causal mask is added to every step, none skipped (the benchmark's
    # 4 x 32 heads x 20,480 x 128)
    z, h, s, dh = 4, 32, 20480 // d, 128
    add(Case("AC_fmha_causal_f16_4x32x20480x128", g, f("flash_attention/claude_i7"), "_fmha_kernel",
             [A((z, h, s, dh), "float16"), A((z, h, s, dh), "float16"), A((z, h, s, dh), "float16"),
              A((z, h, s, dh), "float16", "zeros"), S(1.0 / math.sqrt(dh)), K(h), K(s), K(dh), K(128), K(64),
              K(True)], (cdiv(s, 128), z * h, 1)))
    # gaussian_blur (claude-opus-4-7 iteration 8): the separable blur's horizontal pass (the first of its two
    # launches; the vertical one moves as much), 7 taps by gathers of 32x128 tiles, the edge columns' taps
    # outside the image read as the padding 0 (the benchmark's 10,240 x 10,240, 7x7 kernel)
    hh, w = 10240 // d, 10240
    add(Case("AC_gaussian_hconv_f16_10240_k7", g, f("gaussian_blur/claude_i8"), "_hconv_kernel",
             [A((hh, w), "float16"), A((7,), "float16"), A((hh, w), "float16", "zeros"), K(7), K(3), K(32), K(128)],
             (cdiv(hh, 32), cdiv(w, 128), 1)))
    i32 = "int32"
    # histogramming (claude-opus-4-7 iteration 5): phase 1 (phase 2 only sums the partials), 8,192 values a
    # block added atomically into one of 128 partial histograms (the benchmark's 64 Mi values, 4,096 bins)
    n = (1 << 26) // d
    add(Case("AC_histogram_parts128_i32_64M_4096bins", g, f("histogramming/claude_i5"), "_hist_phase1",
             [A((n,), i32, "index:4096"), A((128 * 4096,), i32, "zeros"), S(n, i32), S(4096, i32), K(128),
              K(8192)], (cdiv(n, 8192),)))
    # interleave (claude-opus-4-7 iteration 0): 1,024-element float16 tiles of A and B scattered to the even
    # and odd places of the output; the last tile's masked lanes scatter to index -1, which the checked
    # scatter drops (the benchmark's 20M, twice as many)
    n = 40_000_000 // d
    add(Case("AC_interleave_scatter_f16_40M", g, f("interleave/claude_i0"), "_interleave_kernel",
             [A((n,), "float16"), A((n,), "float16"), A((2 * n,), "float16", "zeros"), K(n), K(1024)],
             (cdiv(n, 1024),)))
    # jacobi_stencil_2d (gpt-5.5 iteration 4): float16 5-point stencil, 4x1,024 output tiles; interior blocks
    # gather the four neighbours unchecked, edge blocks checked, reading the padding 0 past the grid (the
    # benchmark's 10,240 x 10,240)
    r, c = 10240 // d, 10240
    add(Case("AC_jacobi_gather_f16_10240", g, f("jacobi_stencil_2d/gpt_i4"), "_jacobi_kernel",
             [A((r, c), "float16"), A((r, c), "float16", "zeros"), K(r), K(c), K(4), K(1024)],
             (cdiv(r, 4), cdiv(c, 1024))))
    # kl_divergence (claude-opus-4-7 iteration 1): float32, a row a block, 2,048-column tiles of the
    # log-predictions and targets, y (log y - lp) where y > 0 summed (the benchmark's 4,096 x 16,384)
    m = 4096 // d
    add(Case("AC_kl_div_rows_f32_4096x16384", g, f("kl_divergence/claude_i1"), "_kl_kernel",
             [A((m, 16384)), A((m, 16384)), A((m,), init="zeros"), K(16384), K(2048)], (m,)))
    # l2_norm (gpt-5.5 iteration 1, the draw's third: its first uses a variable defined only under an `if`
    # and its second keeps tiles in a list, which cuTile 1.7 rejects too): float16, a row a block as one
    # zero-padded 16,384-element tile (the benchmark's 1 x 2,048 x 10,240, four times the rows)
    m = 8192 // d
    add(Case("AC_l2_norm_row16k_f16_8192x10240", g, f("l2_norm/gpt_i1"), "_l2_norm_kernel",
             [A((1, m, 10240), "float16"), A((1, m, 10240), "float16", "zeros"), S(1e-6), K(16384)], (m,)))
    # layernorm (claude-opus-4-7 iteration 4): a row a block, two passes of 1x2,048 float16 tiles along the
    # row (sum and sum of squares, then normalise, scale and shift) (the benchmark's batch 1 x 2,048 x
    # 10,240, four times the rows)
    lr, lk = 8192 // d, 10240
    add(Case("AC_layernorm_2pass_f16_8192x10240", g, f("layernorm/claude_i4"), "_ln_kernel",
             [A((lr, lk), "float16"), A((lk,), "float16"), A((lk,), "float16"), A((lr, lk), "float16", "zeros"),
              S(1e-5), K(lk), K(2048)], (lr,)))
    # leaky_relu (claude-opus-4-7 iteration 0): x, or 0.01 x where not positive, in float32, 4,096-element
    # float16 tiles (the benchmark's 50M, twice as many)
    n = 100_000_000 // d
    add(Case("AC_leaky_relu_f16_100M", g, f("leaky_relu/claude_i0"), "_leaky_relu_kernel",
             [A((n,), "float16"), A((n,), "float16", "zeros"), K(4096)], (cdiv(n, 4096),)))
    # matmul_fp32_fp16_fp8 (gpt-5.5 iteration 3): float32 GEMM (TF32 mma, float32 accumulator), 128x256
    # output tiles, 64 of K a step (the benchmark's 4,096 x 4,096 x 20,480)
    mm, mn, mk = 4096 // d, 4096 // d, 20480
    add(Case("AC_matmul_f32_4096x4096x20480", g, f("matmul_fp32_fp16_fp8/gpt_i3"), "_matmul_kernel",
             [A((mm, mk)), A((mk, mn)), A((mm, mn), init="zeros"), K(128), K(256), K(64)],
             (cdiv(mm, 128), cdiv(mn, 256))))
    # matrix_copy (claude-opus-4-7 iteration 0): the flattened matrix copied in 4,096-element float16 tiles
    # (the benchmark's 5,120 x 5,120, four times the rows: 20,480 x 5,120)
    n = (20480 // d) * 5120
    add(Case("AC_matrix_copy_f16_20480x5120", g, f("matrix_copy/claude_i0"), "_copy_kernel",
             [A((n,), "float16"), A((n,), "float16", "zeros"), K(4096)], (cdiv(n, 4096),)))
    # matrix_transpose (claude-opus-4-7 iteration 0): 64x64 float16 tiles loaded, transposed and stored at
    # the mirrored tile (the benchmark's 4,096 x 20,480)
    tm, tn = 4096 // d, 20480
    add(Case("AC_transpose_f16_4096x20480_64x64", g, f("matrix_transpose/claude_i0"), "_transpose_kernel",
             [A((tm, tn), "float16"), A((tn, tm), "float16", "zeros"), K(64), K(64)],
             (cdiv(tm, 64), cdiv(tn, 64))))
    # mean_reduction (gpt-5.5 iteration 1): float16 row means into float32, one row a block, 1x1,024 tiles
    # accumulated in float32 along the row (EVEN_N: unpadded loads) (the benchmark's 2,048 x 20,480, eight
    # times the rows)
    m, n = 16384 // d, 20480
    add(Case("AC_mean_rows_f16_16384x20480", g, f("mean_reduction/gpt_i1"), "_mean_reduction_kernel",
             [A((m, n), "float16"), A((m,), "float32", "zeros"), K(n), K(1024), K(n % 1024 == 0)], (m,)))
    # mul2 (gpt-5.5 iteration 0): float16 x * 2, 2,048-element tiles (the benchmark's 20 Mi, eight times)
    n = (160 << 20) // d
    add(Case("AC_mul2_f16_160M", g, f("mul2/gpt_i0"), "_mul2_kernel",
             [A((n,), "float16"), A((n,), "float16", "zeros"), K(2048)], (cdiv(n, 2048),)))
    # relu (claude-opus-4-7 iteration 9): float16 where(x > 0, x, 0), 8,192-element tiles (the benchmark's
    # 20 Mi, eight times)
    n = (160 << 20) // d
    add(Case("AC_relu_f16_160M", g, f("relu/claude_i9"), "_relu_kernel",
             [A((n,), "float16"), A((n,), "float16", "zeros"), K(8192)], (cdiv(n, 8192),)))
    # reverse_array (claude-opus-4-7 iteration 2): float16 out[i] = in[N-1-i], a gather of 8,192 reversed
    # indices and a scatter in order a block, the last block's tail past N (the benchmark's 20M, eight times)
    n = 160_000_000 // d
    add(Case("AC_reverse_gather_f16_160M", g, f("reverse_array/claude_i2"), "_reverse_kernel",
             [A((n,), "float16"), A((n,), "float16", "zeros"), S(n, "int32"), K(8192)], (cdiv(n, 8192),)))
    # rmsnorm (gpt-5.5 iteration 2): float16 rows scaled by their rms and the weight, two rows a block,
    # 2x1,024 tiles: a pass for the sum of squares, a second that reloads and stores (the benchmark's
    # 1 x 2,048 x 10,240, four times the rows)
    r, k = 8192 // d, 10240
    add(Case("AC_rmsnorm_2rows_f16_8192x10240", g, f("rmsnorm/gpt_i2"), "_rmsnorm_kernel",
             [A((r, k), "float16"), A((k,), "float16"), A((r, k), "float16", "zeros"), S(1e-6),
              K(k), K(1024), K(2)], (cdiv(r, 2),)))
    # rope (gpt-5.5 iteration 0): rotate-half RoPE, a block a position, each half of its 32 heads a
    # 1x1x32x64 tile times a 64-wide cos/sin row (the benchmark's 1 x 20,480 x 32 heads of 128)
    s = 20480 // d
    add(Case("AC_rope_halves_f16_1x20480x32x128", g, f("rope/gpt_i0"), "_rope_kernel",
             [A((1, s, 32, 128), "float16"), A((s, 64), "float16"), A((s, 64), "float16"),
              A((1, s, 32, 128), "float16", "zeros"), K(128), K(32), K(64)], (s, cdiv(32, 32), 1)))
    # sigmoid (claude-opus-4-7 iteration 3): 1/(1+exp(-x)) in float32 of float16, 8,192-element tiles,
    # occupancy 2 in the decorator (the benchmark's 50M float16, twice as many)
    n = 100_000_000 // d
    add(Case("AC_sigmoid_f16_100M", g, f("sigmoid/claude_i3"), "_sigmoid_kernel",
             [A((n,), "float16"), A((n,), "float16", "zeros"), K(8192)], (cdiv(n, 8192), 1, 1)))
    # softmax (claude-opus-4-7 iteration 0): a whole row a block, one 1x16,384 tile (10,240 columns padded
    # with -inf), max, exp, sum in float32 (the benchmark's 2,048 x 10,240 float16, four times the rows)
    r = 8192 // d
    add(Case("AC_softmax_row_f16_8192x10240", g, f("softmax/claude_i0"), "_softmax_kernel",
             [A((r, 10240), "float16"), A((r, 10240), "float16", "zeros"), K(10240), K(16384)], (r, 1, 1)))
    # swiglu (claude-opus-4-7 iteration 4): x sigmoid(x) y in float32 of flattened float16, 2,048-element
    # tiles (the benchmark's 4,096 x 20,480)
    n = 4096 * 20480 // d
    add(Case("AC_swiglu_f16_4096x20480", g, f("swiglu/claude_i4"), "_swiglu_kernel",
             [A((n,), "float16"), A((n,), "float16"), A((n,), "float16", "zeros"), K(2048)],
             (cdiv(n, 2048), 1, 1)))
    # vector_add (claude-opus-4-7 iteration 0): x + y, 4,096-element tiles (the benchmark's 20,971,520
    # float16, four times as many)
    n = 4 * 20971520 // d
    add(Case("AC_vector_add_f16_80M", g, f("vector_add/claude_i0"), "_add_kernel",
             [A((n,), "float16"), A((n,), "float16"), A((n,), "float16", "zeros"), K(4096)],
             (cdiv(n, 4096), 1, 1)))

    for x in list(out):
        add(x.launched("validate-ac-launch"))
    return out
