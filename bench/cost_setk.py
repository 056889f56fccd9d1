"""Validation set K: twelve kernels of four public cuTile repositories that no earlier set used,
chosen for the variety of what people write with cuTile and fixed before any prediction for them
was looked at (the model frozen first, the predictions committed before the device run).

- NVIDIA/cutile-python (test/kernels at 9c3ee3c, `--upstream DIR`): the fused MoE GEMM (token
  rows gathered by expert, `mma`, rows scattered back), the three-factor FFT (reshapes, permutes
  and small batched matmuls of a 4,096-point transform) and the layer-norm backward that folds
  partial dW/dB under per-group spin locks (`atomic_cas` / `atomic_xchg`).
- NVIDIA/TileGym (src/tilegym/ops/cutile at 75a1430, `--tilegym DIR`): grouped-query decode
  attention with split KV, the static persistent matmul at 256×256×64 tiles, and the recurrent
  gated delta rule (a 1,024-step state recurrence per block, Qwen3-Next's linear attention).
- falcons-eyes/cutileGPT (cutile_gpt/kernels at cd96169, `--cutilegpt DIR`), a GPT-2 in cuTile
  and CuPy, all float32: the embedding gather, the 2-D tanh GELU, the two-pass layer norm over
  a padded row, the TF32 linear (32×32×32 tiles) and the fused MLP (two chained `mma` with the
  GELU between them, recomputing the hidden tile per output tile).
- Deep-Learning-Profiling-Tools/Tilebench (`--tilebench DIR`): the histogram's first phase
  (`histogramming/claude`, atomics into 256 partial histograms), the one TileBench operation no
  earlier set used.

Each kernel is built dynamically shaped (`validate-k`) and as tilescope's launch builds it
(`validate-k-launch`), as sets G-J. Nothing is copied here: the files are read from the
checkouts. Tile sizes, constants and grids are those of each source's launch code (for TileGym's
autotuned kernels: the configuration its code uses when autotuning is off, or an entry of its
list for sm_90 and newer without cluster hints); hints a launch adds with `replace_hints` are not
part of the kernel object and are left out, those in `@ct.kernel(...)` are kept. Sizes are the
sources' benchmark or test sizes where those fill the H200, otherwise common model shapes at the
source's proportions (named per case). Index arrays (token ids, expert ids, histogram values)
are uniform random in their range (`index:N`); the MoE's sorted token ids are therefore not
grouped by expert, which changes no access pattern of the kernel: each tile still gathers 128
scattered rows.

Every case built (tileiras 13.4, sm_90) and ran on the CPU executor at the small sizes with no
bounds report, and agreed with a NumPy reference there; none was replaced. One size was changed
when first run: the decode attention at TileGym's 31,079 keys loads whole key tiles past the end
(its last split), which tilescope reports as undefined on the GPU, so it uses the 16,384 keys of
the same test list.
"""
from __future__ import annotations

import math
import os
import sys
from typing import List

from costval_case import A, Case, K, S, tilebench_impl

SMS = 132
UP, TG, GPT = "upstream:test/kernels/", "tilegym:", "cutilegpt:cutile_gpt/kernels/"


def load_cutilegpt(root: str, rel: str):
    """The module `rel` of a cutileGPT checkout; its host code imports CuPy, stood in where CuPy
    is not installed (the kernels use only cuda.tile)."""
    from cost_setd import _module
    from tilescope.lang.shim import load_file
    if "cupy" not in sys.modules:
        try:
            import cupy  # noqa: F401  (optional: only the host wrappers use it)
        except ImportError:
            _module("cupy")
    return load_file(os.path.join(root, rel))


def setk_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    k = "validate-k"
    f16, bf16, i32 = "float16", "bfloat16", "int32"

    # upstream fused_moe_kernel, first GEMM of bench_moe's cutile_moe (tiles 128x128x64): hidden 2048
    # and intermediate 1408 as bench_moe; 60 experts, top-4, 2,048 tokens (Qwen1.5-MoE's proportions)
    tokens, topk, hidden, inter, experts = 2048 // d, 4, 2048 // d, 1408 // d // 64 * 64, 60
    m_blocks = 94 // d                      # 8,192 replicas padded per expert to 128-row tiles
    add(Case("K_fused_moe_f16_2048tok_60x2816x2048", k, UP + "fused_moe.py", "fused_moe_kernel",
             [A((tokens, hidden), f16), A((experts, 2 * inter, hidden), f16),
              A((tokens * topk, 2 * inter), f16, "zeros"), A((tokens * topk,), f16),
              A((m_blocks * 128,), i32, f"index:{tokens * topk}"), A((m_blocks,), i32, f"index:{experts}"),
              S(topk, i32), K(False), K(128), K(128), K(64)], (m_blocks * math.ceil(2 * inter / 128),)))

    # upstream fft_kernel, bench_fft: 16,384 transforms of 4,096 = 16x16x16 points, complex64, BS=2, D=64
    batch, n = 16384 // d, 4096
    add(Case("K_fft_c64_16384x4096", k, UP + "fft.py", "fft_kernel",
             [A((batch, n * 2 // 64, 64)), A((batch, n * 2 // 64, 64), init="zeros"), A((16, 16, 2)),
              A((16, 16, 2)), A((16, 16, 2)), A((16, 256, 2)), A((16, 16, 2)),
              K(n), K(16), K(16), K(16), K(2), K(64)], (batch // 2,)))

    # TileGym flash_decode: test_perf's batch 1, 32 heads, head_dim 128, group 1, 16,384 keys (its
    # 31,079 leaves whole key tiles past the end, which tilescope reports as undefined); its launch
    # code: TILE_N 128, 4 splits of 4,096 keys (132 SMs // 32 heads), query tile 8
    heads, s_kv, dh, splits = 32 // d, 16384 // d, 128, 4
    add(Case("K_decode_attention_f16_32h_16384", k, TG + "flash_decode.py", "_attention_decode_kernel_grouped",
             [A((1, heads, 1, dh), f16), A((1, heads, s_kv, dh), f16), A((1, heads, s_kv, dh), f16),
              A((1, heads, 1, splits, dh), f16, "zeros"), A((1, heads, 1, splits), init="zeros"),
              S(1 / math.sqrt(dh)), S(heads * splits * dh, i32), S(splits * dh, i32), S(dh, i32),
              S(heads * splits, i32), S(splits, i32), S(1, i32), S(heads, i32), S(heads, i32), S(s_kv, i32),
              K(dh), K(128), K(s_kv // splits), K(1), K(8), K(splits)], (1, heads, splits)))

    # TileGym _static_persistent_matmul_kernel, bench_persistent_matmul's 4096^3 f16; 256x256x64 tiles
    # (its sm_90+ list, the entry without cluster hints), grid min(SMs, tiles)
    mm = 4096 // d
    add(Case("K_persistent_matmul_f16_4096_256x256x64", k, TG + "matmul.py", "_static_persistent_matmul_kernel",
             [A((mm, mm), f16), A((mm, mm), f16), A((mm, mm), f16, "zeros"), S(mm, i32), S(mm, i32), S(mm, i32),
              K(256), K(256), K(64), K(False), K(False), K(8), K(-1)],
             (min(SMS, math.ceil(mm / 256) ** 2),)))

    # TileGym _recurrent_gated_delta_rule_fwd_kernel, test_perf's head_dim 128 bf16 at T 1,024; 16
    # sequences of 16 heads to fill the GPU; its default config: BLOCK_V 64, both TMA flags
    b, t, h, dk = 16 // d, 1024 // d, 16, 128
    add(Case("K_gated_delta_rule_bf16_16x1024x16x128", k, TG + "recurrent_gated_delta_rule.py",
             "_recurrent_gated_delta_rule_fwd_kernel",
             [A((b, t, h, dk), bf16), A((b, t, h, dk), bf16), A((b, t, h, dk), bf16), A((b, t, h), bf16),
              A((b, t, h), bf16), A((b, t, h, dk), bf16, "zeros"), A((1, 1, 1, 1), init="zeros"),
              A((1, 1, 1, 1), init="zeros"), S(1 / math.sqrt(dk)), K(False), K(False), K(False), K(dk), K(64),
              K(True), K(True), K(t)], (b * h, dk // 64)))

    # cutileGPT embedding_kernel: GPT-2's vocabulary, n_embd 1024, 64 x 1,024 tokens; TILE_SEQ 64
    ntok, vocab, emb = 65536 // d, 50257 // d, 1024
    add(Case("K_embedding_f32_65536x1024", k, GPT + "embedding.py", "embedding_kernel",
             [A((ntok,), i32, f"index:{vocab}"), A((vocab, emb)), A((ntok, emb), init="zeros"), K(64), K(emb)],
             (ntok // 64,)))

    # cutileGPT gelu_kernel_2d (its 2-D path, 32x128 tiles): a GPT-2 medium MLP activation, 16,384 x 4,096
    gm, gn = 16384 // d, 4096 // d
    add(Case("K_gelu_2d_f32_16384x4096", k, GPT + "gelu.py", "gelu_kernel_2d",
             [A((gm, gn)), A((gm, gn), init="zeros"), K(32), K(128)], (gm // 32, gn // 128)))

    # cutileGPT layer_norm_kernel: GPT-2 XL's n_embd 1600 padded to 2048 (as its wrapper pads), TILE_N 1024
    lm = 32768 // d
    add(Case("K_layernorm_pad_f32_32768x1600", k, GPT + "layernorm.py", "layer_norm_kernel",
             [A((lm, 2048)), A((2048,)), A((2048,)), A((lm, 2048), init="zeros"), S(1e-5), K(1600), K(1024)],
             (lm,)))

    # cutileGPT matmul_kernel (its float32 path: TF32 tiles 32x32x32): GPT-2 medium c_fc, 16,384 x 1,024 x 4,096
    lm2, lk, ln = 16384 // d, 1024 // d, 4096 // d
    add(Case("K_linear_tf32_16384x1024x4096", k, GPT + "linear.py", "matmul_kernel",
             [A((lm2, lk)), A((lk, ln)), A((lm2, ln), init="zeros"), K(32), K(32), K(32)],
             ((lm2 // 32) * (ln // 32),)))

    # cutileGPT fused_mlp_kernel (tiles 32x32x32): GPT-2 small (768, 3072), one 1,024-token sequence
    fm, fe, fh = 1024 // d, 768 // d, 3072 // d
    add(Case("K_fused_mlp_f32_1024x768x3072", k, GPT + "fused_mlp.py", "fused_mlp_kernel",
             [A((fm, fe)), A((fh, fe)), A((fh,)), A((fe, fh)), A((fe,)), A((fm, fe), init="zeros"),
              K(32), K(32), K(32)], ((fm // 32) * (fe // 32),)))

    # TileBench histogramming/claude _hist_phase1: TILE 4096, 256 partial histograms, its larger bin
    # count (4,096) over 64 Mi values
    hn = (1 << 26) // d // d
    add(Case("K_histogram_parts_i32_64M_4096bins", k, tilebench_impl("histogramming/claude"), "_hist_phase1",
             [A((hn,), i32, "index:4096"), A((256 * 4096,), i32, "zeros"), S(hn, i32), S(4096, i32), K(256),
              K(4096)], (hn // 4096,)))

    for x in list(out):
        add(x.launched("validate-k-launch"))

    # last, both builds: a spin lock that never released would stop the run here, after the others' times.
    # upstream layer_norm_bwd_dx_partial_dwdb, bench_layer_norm's (2048, 8192) bf16: TILE_N 1024,
    # 64 lock groups
    rows, cols = 2048 // d, 8192 // d
    add(Case("K_layer_norm_bwd_locks_bf16_2048x8192", k, UP + "layer_norm.py", "layer_norm_bwd_dx_partial_dwdb",
             [A((rows, cols), bf16, "zeros"), A((rows, cols), bf16), A((64, cols), init="zeros"),
              A((64, cols), init="zeros"), A((rows, cols), bf16), A((cols,), bf16), A((rows,)), A((rows,)),
              A((64,), i32, "zeros"), K(1024)], (rows,)))
    x = out[-1]
    add(x.launched("validate-k-launch"))
    return out
