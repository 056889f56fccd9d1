"""Validation set G: TileBench kernels (Deep-Learning-Profiling-Tools/Tilebench, `impls/*/impl_cutile.py`)
of operations no earlier set used (L2 norm, layer-norm statistics and normalisation, RMS norm,
row softmax, SwiGLU, RoPE, transpose, vector add, ReLU, matmul in float16 and float32), chosen
and fixed before any prediction of model version 7 for them was looked at; predictions committed
before the device run (bench/results/cost_setg_predictions.json).

Each kernel is launched twice: `validate-g` builds it for dynamically shaped arrays, as sets A-F
were built; `validate-g-launch` builds it as tilescope's launch builds it for ordinary contiguous
CuPy/torch allocations (MetaTensor.like: 16-byte aligned base, unit last stride as a constant,
divisible extents and strides), which is what a user's launch runs (tileiras may use TMA).
Read from a checkout given by `--tilebench DIR` (never copied here); tile sizes and
`@ct.kernel(occupancy=...)` hints are those of each file's launch code; sizes fill the GPU.
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K, S, tilebench_impl


def setg_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    f = tilebench_impl
    g = "validate-g"
    m = 16384 // d
    add(Case("G_l2_norm_f16_2x4096x16384", g, f("l2_norm/gpt"), "_l2_norm_kernel",
             [A((2, 4096 // d, 16384), "float16"), A((2, 4096 // d, 16384), "float16", "zeros"), S(1e-6), K(16384)],
             (2 * 4096 // d,)))
    add(Case("G_layernorm_stats_f32_16384x4096", g, f("layernorm/gpt"), "_layernorm_stats_kernel",
             [A((m, 4096)), A((m,), init="zeros"), A((m,), init="zeros"), S(1e-5), K(4096), K(1024)], (m,)))
    add(Case("G_layernorm_norm_f32_16384x4096", g, f("layernorm/gpt"), "_layernorm_norm_kernel",
             [A((m, 4096)), A((4096,)), A((4096,)), A((m,)), A((m,)), A((m, 4096), init="zeros"),
              K(256), K(8)], (m // 8, 4096 // 256)))
    add(Case("G_rmsnorm_bf16_16384x4096", g, f("rmsnorm/gpt"), "_rmsnorm_kernel",
             [A((m, 4096), "bfloat16"), A((4096,), "bfloat16"), A((m, 4096), "bfloat16", "zeros"), S(1e-6),
              K(4096), K(1024)], (m,)))
    add(Case("G_softmax_f32_16384x4096", g, f("softmax/hand"), "softmax_kernel",
             [A((m, 4096)), A((m, 4096), init="zeros"), K(4096), K(4096)], (m,)))
    n = (1 << 26) // d // d
    add(Case("G_swiglu_f16_64M", g, f("swiglu/claude"), "_swiglu_kernel",
             [A((n,), "float16"), A((n,), "float16"), A((n,), "float16", "zeros"), K(4096)], (n // 4096,)))
    s = 4096 // d
    add(Case("G_rope_f16_4x4096x32x128", g, f("rope/gpt"), "_rope_kernel",
             [A((4, s, 32, 128), "float16"), A((s, 64), "float16"), A((s, 64), "float16"),
              A((4, s, 32, 128), "float16", "zeros"), K(128), K(32), K(64)], (s, 1, 4)))
    t = 8192 // d
    add(Case("G_transpose_f32_8192_64x32", g, f("matrix_transpose/gpt"), "_transpose_kernel",
             [A((t, t)), A((t, t), init="zeros"), K(64), K(32)], (t // 64, t // 32)))
    add(Case("G_vector_add_f16_64M", g, f("vector_add/gpt"), "_vector_add_kernel",
             [A((n,), "float16"), A((n,), "float16"), A((n,), "float16", "zeros"), K(2048)], (n // 2048,)))
    add(Case("G_relu_bf16_64M", g, f("relu/gpt"), "_relu_kernel_exact",
             [A((n,), "bfloat16"), A((n,), "bfloat16", "zeros"), K(2048)], (n // 2048,)))
    mm = 4096 // d
    add(Case("G_matmul_f16_4096_128x256x64", g, f("matmul_fp32_fp16_fp8/claude"), "_matmul_kernel",
             [A((mm, mm), "float16"), A((mm, mm), "float16"), A((mm, mm), "float16", "zeros"), K(mm), K(128), K(256),
              K(64)], (mm // 128, mm // 256)))
    add(Case("G_matmul_f32_4096_128x256x32", g, f("matmul_fp32_fp16_fp8/claude"), "_matmul_kernel",
             [A((mm, mm)), A((mm, mm)), A((mm, mm), init="zeros"), K(mm), K(128), K(256), K(32)],
             (mm // 128, mm // 256)))
    for c in list(out):
        add(c.launched("validate-g-launch"))
    return out
