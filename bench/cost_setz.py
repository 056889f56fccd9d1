"""Validation set Z: twelve public cuTile kernels of three sources no earlier set (A-Y) read,
drawn before any prediction for them was looked at (model version 56 frozen first, the
predictions to be committed before the device run).

The sources: the public repositories with hand-written cuTile Python kernels at module scope that
the code index holds and no earlier set read. Of the candidates named for this set, 99syl/cutile
and eliossou/cutile are C libraries, lominoss-git/cutile is dotfiles, simeonschaub/cutile-triton
is Julia, jvkec/csa-cutile and johnkimec/csa-cutile hold only a PyTorch reference,
Apsod/cutilereduce generates its kernels from fold specifications, trungnt13/cutile-rtx3090-
benchmark has no snapshot (and builds its kernels in a factory), uwm-se/CuTile,
dsl-learn/cutile-learn and caolong-whu/cutile copy sources earlier sets read, and
tavakkoliamirmohammad/cutile-kernels is set M's. leosciortino/cutile-kernels is left out as set X
left it (its own kernels are BLAS-1 stream kernels and one-address atomic reductions, the rest
NVIDIA's samples).

The draw, fixed before any number: every kernel of each source's cuTile files, files in path order
and kernels in file order, skipping only an exact duplicate of one already taken and a kernel that
cannot be launched with a defined result. Skipped so: cutile-irdump-example's
`attention_ir_example.py` `flash_attention_forward_v2` (it stores a rank-2 tile into the rank-4
output, which has no defined meaning on the GPU; its key-block count, `k.shape[0] // bc`, is also
the batch over the tile, 0 at the demo's shape) and `kernels_demo.py` `softmax` (its tile's row
count is `x.shape[0]`, not a constant, so it cannot be built; the file also launches it on import).
Three of iori2333/kernels' kernels have the bodies of kernels earlier sets timed, but are taken at
their own launcher's tiles: `batch_matmul` is upstream's BatchMatMul sample (set C: 128 x 128 x 64
tiles; here 128 x 256 x 64), `flash_sdpa` and `apply_rope` cutile-typeviz's sample02 (set T: a
32-row query tile; here 64, and a rotation tile of the whole head dimension, 128, over the 64-wide
half, where set T's launcher took 64). Sizes: each source's own benchmark or demo shapes (the
largest, bfloat16 where a benchmark runs several dtypes), scaled up where a launch would move less
than about 100 MB or do less than about 0.1 TFLOP; grids and tiles as each launcher computes them
on an H200 (132 SMs, where a launcher reads the SM count). The three sources:

- aghilann/bastile (`--repo bastile=DIR`, 722bcc0, `src/bastile/ops/`): PyTorch monkey-patches
  for Qwen3 training, bfloat16 as its kernel benchmarks (`tests/benchmarks/kernel/`):
  - `fused_linear_cross_entropy.py` `_ce_online_kernel`: a chunk's cross-entropy over Qwen3's
    151,936-word vocabulary, rows strided over a persistent grid (min(4 x SMs, rows): 528), each
    row read twice in 4,096-wide gathers (online max and sum of exponentials, then the softmax
    probabilities scattered back over the logits) and its loss stored; one chunk of 4,096 rows
    (the launcher's default chunk; bench_fused_lce.py, H 4,096);
  - `rms_norm.py` `_rms_fwd` and `_rms_bwd`: persistent RMSNorm (grid min(SMs, row tiles): 132),
    the forward in 8 x 4,096 tiles, the backward in 4 x 4,096 tiles storing each block's weight-
    gradient partial (`_fwd_tiles`, `_bwd_tiles` for 32,768 rows of 4,096: the benchmark's
    largest bfloat16 shape, 64 x 512 x 4,096);
  - `rope.py` `_rope_kernel`: RoPE applied in place to q and k viewed as (b, heads, s, 2, d/2),
    one token a block, all 32 heads a tile, cos and sin per batch (the benchmark's largest: b 8,
    32 heads, s 1,024, d 128; grid b s);
  - `swiglu.py` `swiglu_forward_kernel` and `swiglu_backward_kernel`: silu(gate) up and its
    gradients by 4,096-wide row gathers and scatters (a fast-math reciprocal in the forward), one
    row a block, on the benchmark's largest shape (32 x 512 x 4,096).
  The files import the package's registry and utils relatively (loaded from the checkout) and
  torch.amp's autocast decorators (stood in).
- iori2333/kernels (`--repo iori=DIR`, d7be08c, `kernels/cutile/`), bfloat16, the benchmarks of
  `scripts/`:
  - `batch_matmul.py` `batch_matmul`: 128 x 256 x 64 tiles, float32 accumulation, grid (batch,
    M / 128, N / 256); the benchmark's 16 x 512 x 256 x 1,024 with M, N and K four times (16 x
    2,048 x 1,024 x 4,096: 0.27 TFLOP);
  - `flash_sdpa.py` `flash_sdpa`: non-causal GQA flash attention, exp2 online softmax, 64 x 64
    tiles, grid (b heads, s / 64); the benchmark's 4 x 8 heads (4 KV) of 128, its 256 tokens 16
    times (4,096);
  - `rope.py` `apply_rope`: RoPE into new q and k (b, s, heads, 2, d/2), one token a block, its
    launcher's rotation tile next_power_of_2(d) = 128 over the 64-wide half (half of every load
    and store out of bounds); the benchmark's 4 x 8 heads (4 KV) of 128, its 256 tokens 64 times;
  - `softmax.py` `softmax`: row softmax by gathers, rows strided over min(128, rows) blocks; the
    benchmark's rows of 2,048, 32,768 rows (32 times its 1,024);
  - `vector_add.py` `vector_add`: a + b in its launcher's 16-element tiles, 2^26 elements
    (4,194,304 blocks; the test's 2^12 scaled).
  rope.py imports its package's utils by absolute name (stood in: only the launcher uses it).
- Da1sypetals/cutile-irdump-example (`--repo irdump=DIR`, b197cce), float32 as its demo:
  `softmax_ir_example.py` `softmax`, softmax down the columns of a 512-row matrix, 8 columns a
  block (the demo's r), the demo's 512 x 128 widened to 262,144 columns; the file imports the
  checkout's `ir_dump` package at the top (stood in: only its `main` uses it).

Each kernel is built dynamically shaped (`validate-z`) and as tilescope's launch builds it
(`validate-z-launch`), as sets M-Y.
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K, S

BAST = "bastile:src/bastile/ops/"
IORI = "iori:kernels/cutile/"
IRD = "irdump:"
COMMITS = {"bastile": "aghilann/bastile 722bcc0b01446467723b834c0dd453b9d7ee939b",
           "iori": "iori2333/kernels d7be08c3bdbf520ee20d2ea31abecd25ae1cf8b7",
           "irdump": "Da1sypetals/cutile-irdump-example b197cce14286c62ffa6fc32be2838c8d9bd5d3c9"}

H200_SMS = 132      # what bastile's get_sm_count() returns on the H200 the set is timed on


def _identity_decorator(**_kw):
    return lambda f: f


# Host modules the files import, stood in while a kernel module loads: torch.amp's autocast
# decorators (bastile's cross-entropy autograd function), iori's own package by its absolute name
# (rope.py's launcher helper), irdump's IR dumper (its demos' main)
HOST_MODULES = {"bastile": {"torch.amp": {"custom_fwd": _identity_decorator, "custom_bwd": _identity_decorator}},
                "iori": {"kernels": {}, "kernels.cutile": {},
                         "kernels.cutile.utils": {"next_power_of_2": lambda n: 1 << max(n - 1, 0).bit_length()}},
                "irdump": {"ir_dump": {"CutileIrDump": object}}}


def setz_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    k = "validate-z"
    bf16, f32 = "bfloat16", "float32"

    # -- aghilann/bastile: Qwen3 training kernels, bfloat16
    rows, vocab, tile_v = 4096 // d, 151936 // d, 4096       # one 4,096-row chunk of the logits
    add(Case("Z_bastile_ce_online_bf16_4096x151936", k, BAST + "fused_linear_cross_entropy.py", "_ce_online_kernel",
             [A((rows, vocab), bf16), A((rows,), f32, "zeros"), A((rows,)), K(rows), K(vocab), K(tile_v)],
             (min(H200_SMS * 4, rows),)))
    m, n = 32768 // d, 4096                                   # 64 x 512 tokens of 4,096
    tm = 8                                                    # _fwd_tiles: max(2, min(8, 32,768 // 4,096))
    add(Case("Z_bastile_rms_fwd_bf16_32768x4096", k, BAST + "rms_norm.py", "_rms_fwd",
             [A((m, n), bf16), A((n,), bf16), A((m, n), bf16, "zeros"), A((m,), f32, "zeros"),
              K(tm), K(n), K(1e-6)], (min(H200_SMS, m // tm),)))
    tm = 4                                                    # _bwd_tiles: M >= 8,192 and T <= 4,096
    g = min(H200_SMS, m // tm)
    add(Case("Z_bastile_rms_bwd_bf16_32768x4096", k, BAST + "rms_norm.py", "_rms_bwd",
             [A((m, n), bf16, "zeros"), A((m, n), bf16), A((m, n), bf16), A((n,), bf16), A((m,)),
              A((g, n), f32, "zeros"), K(tm), K(n)], (g,)))
    b, h, s, hd = 8 // d, 32, 1024, 128
    add(Case("Z_bastile_rope_inplace_bf16_8x32x1024x128", k, BAST + "rope.py", "_rope_kernel",
             [A((b, h, s, 2, hd // 2), bf16), A((b, h, s, 2, hd // 2), bf16),
              A((b, s, 2, hd // 2), bf16), A((b, s, 2, hd // 2), bf16),
              K(b), K(s), K(32), K(32), K(hd // 2)], (b * s,)))
    rows, cols = 32 * 512 // d, 4096
    add(Case("Z_bastile_swiglu_fwd_bf16_16384x4096", k, BAST + "swiglu.py", "swiglu_forward_kernel",
             [A((rows, cols), bf16), A((rows, cols), bf16), A((rows, cols), bf16, "zeros"), K(cols)], (rows,)))
    add(Case("Z_bastile_swiglu_bwd_bf16_16384x4096", k, BAST + "swiglu.py", "swiglu_backward_kernel",
             [A((rows, cols), bf16), A((rows, cols), bf16), A((rows, cols), bf16),
              A((rows, cols), bf16, "zeros"), A((rows, cols), bf16, "zeros"), K(cols)], (rows,)))

    # -- iori2333/kernels: its launchers' tiles, bfloat16
    bs, mm, nn, kk = 16 // d, 2048 // d, 1024, 4096 // d    # the benchmark's 16 x 512 x 256 x 1,024, M, N, K x 4
    add(Case("Z_iori_batch_matmul_bf16_16x2048x1024x4096", k, IORI + "batch_matmul.py", "batch_matmul",
             [A((bs, mm, kk), bf16), A((bs, kk, nn), bf16), A((bs, mm, nn), bf16, "zeros"), K(128), K(256), K(64)],
             (bs, mm // 128, nn // 256)))
    b, s, h, groups, hd = 4, 4096 // d, 8, 2, 128          # the benchmark's 4 x 8 heads (4 KV), 256 tokens x 16
    add(Case("Z_iori_flash_sdpa_gqa_bf16_4x4096_8q4kv", k, IORI + "flash_sdpa.py", "flash_sdpa",
             [A((b, s, h, hd), bf16), A((b, s, h // groups, hd), bf16), A((b, s, h // groups, hd), bf16),
              A((b, s, h, hd), bf16, "zeros"), S(hd ** -0.5), K(groups), K(64), K(64), K(h), K(hd)],
             (b * h, s // 64)))
    s = 16384 // d                                          # the benchmark's 4 x 256 tokens x 64
    add(Case("Z_iori_apply_rope_bf16_4x16384_8q4kv", k, IORI + "rope.py", "apply_rope",
             [A((b, s, h, 2, hd // 2), bf16), A((b, s, h // groups, 2, hd // 2), bf16),
              A((b, s, 2, hd // 2), bf16), A((b, s, 2, hd // 2), bf16),
              A((b, s, h, 2, hd // 2), bf16, "zeros"), A((b, s, h // groups, 2, hd // 2), bf16, "zeros"),
              K(8), K(4), K(hd)], (b, s)))
    rows = 32768 // d
    add(Case("Z_iori_softmax_gather_bf16_32768x2048", k, IORI + "softmax.py", "softmax",
             [A((rows, 2048), bf16), A((rows, 2048), bf16, "zeros"), K(rows), K(2048)], (min(128, rows),)))
    n = (1 << 26) // d
    add(Case("Z_iori_vector_add_tile16_bf16_64M", k, IORI + "vector_add.py", "vector_add",
             [A((n,), bf16), A((n,), bf16), A((n,), bf16, "zeros"), K(16)], (n // 16,)))

    # -- Da1sypetals/cutile-irdump-example: its softmax demo's kernel, float32
    cols = (1 << 18) // d
    add(Case("Z_irdump_column_softmax_f32_512x262144", k, IRD + "softmax_ir_example.py", "softmax",
             [A((512, cols)), A((512, cols), init="zeros"), K(8)], (cols // 8,)))

    for x in list(out):
        add(x.launched("validate-z-launch"))
    return out
