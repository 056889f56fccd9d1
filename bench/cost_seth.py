"""Validation set H: other authors' TileBench implementations (Deep-Learning-Profiling-Tools/Tilebench,
`impls/<op>/<author>/impl_cutile.py`) of operations sets F and G measured in other versions —
different code for known work — chosen and fixed before any prediction of model version 8 for
them was looked at; predictions committed before the device run
(bench/results/cost_seth_predictions.json). Each kernel is built dynamically shaped
(`validate-h`) and as tilescope's launch builds it (`validate-h-launch`), as set G. Read from
a checkout given by `--tilebench DIR`; tile sizes and occupancy hints are those of each file's
launch code (autotuned ones: its default config); sizes fill the GPU.
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K, S, tilebench_impl


def seth_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    f = tilebench_impl
    h = "validate-h"
    m = 16384 // d
    add(Case("H_softmax_f32_16384x4096", h, f("softmax/claude"), "_softmax_kernel_fp32",
             [A((m, 4096)), A((m, 4096), init="zeros"), K(4096), K(4096)], (m,)))
    add(Case("H_softmax_f16_16384x2048", h, f("softmax/claude"), "_softmax_kernel_fp16",
             [A((m, 2048), "float16"), A((m, 2048), "float16", "zeros"), K(2048), K(2048)], (m,)))
    add(Case("H_rmsnorm_f16_16384x4096", h, f("rmsnorm/claude"), "_rmsnorm_kernel",
             [A((m, 4096), "float16"), A((4096,), "float16"), A((m, 4096), "float16", "zeros"), S(1e-6), K(4096),
              K(2048)], (m,)))
    add(Case("H_layernorm_f32_4096x16384", h, f("layernorm/claude"), "_ln_kernel",
             [A((4096 // d, 16384)), A((16384,)), A((16384,)), A((4096 // d, 16384), init="zeros"), S(1e-5),
              K(16384), K(16384)], (4096 // d,)))
    add(Case("H_l2_norm_f16_16384x4096", h, f("l2_norm/claude_i5"), "_l2_norm_kernel",
             [A((m, 4096), "float16"), A((m, 4096), "float16", "zeros"), S(1e-6), K(4096), K(4096)], (m,)))
    t = 8192 // d
    add(Case("H_transpose_f32_8192_128x128", h, f("matrix_transpose/claude"), "_transpose_kernel",
             [A((t, t)), A((t, t), init="zeros"), K(t), K(t), K(128), K(128)], (t // 128, t // 128)))
    n = (1 << 26) // d // d
    add(Case("H_vector_add_f32_64M", h, f("vector_add/hand"), "vector_add_kernel",
             [A((n,)), A((n,)), A((n,), init="zeros"), K(n), K(1024)], (n // 1024,)))
    add(Case("H_relu_f32_64M", h, f("relu/hand"), "relu_kernel", [A((n,)), A((n,), init="zeros"), K(1024)],
             (n // 1024,)))
    add(Case("H_sigmoid_f16_64M", h, f("sigmoid/gpt"), "_sigmoid_kernel",
             [A((n,), "float16"), A((n,), "float16", "zeros"), K(2048)], (n // 2048,)))
    add(Case("H_leaky_relu_f16_64M", h, f("leaky_relu/claude"), "_leaky_relu_kernel",
             [A((n,), "float16"), A((n,), "float16", "zeros"), K(4096)], (n // 4096,)))
    add(Case("H_kl_div_f32_16384x4096", h, f("kl_divergence/gpt"), "_kl_divergence_kernel",
             [A((m, 4096)), A((m, 4096)), A((m,), init="zeros"), K(4096), K(2048)], (m,)))
    b = 8 // d
    add(Case("H_bmm_f16_8x2048_64x128x32", h, f("batched_matmul/gpt"), "_batched_matmul_kernel",
             [A((b, 2048, 2048), "float16"), A((b, 2048, 2048), "float16"), A((b, 2048, 2048), "float16", "zeros"),
              K(2048), K(64), K(128), K(32), K(False)], (2048 // 64, 2048 // 128, b)))
    for c in list(out):
        add(c.launched("validate-h-launch"))
    return out
