"""Validation set F: kernels of TileBench (Deep-Learning-Profiling-Tools/Tilebench, `impls/*/impl_cutile.py`),
none used by sets A-E, chosen and fixed before any prediction of model version 6 for them was
looked at; predictions committed before the device run (bench/results/cost_setf_predictions.json).

The kernels are read from a checkout given by `--tilebench DIR` (never copied here). Its modules
import torch and TileBench's autotuner; `load` imports them with stand-ins for those (the kernels use
only cuda.tile). Tile sizes and `@ct.kernel(occupancy=...)` hints are those of each file's launch
code (autotuned ones: its default config; a hint given only at launch time is not applied); sizes
fill the GPU.
"""
from __future__ import annotations

import os
import sys
from typing import List

from costval_case import A, Case, K, S, tilebench_impl


def load(root: str, rel: str):
    """The module of `impls/<rel>` with stand-ins for torch and TileBench's autotuner."""
    from cost_setd import _module, install_torch
    from tilescope.lang.shim import load_file
    install_torch()
    if "core.cutile_autotune" not in sys.modules:
        core = _module("core")
        core.cutile_autotune = _module("core.cutile_autotune")
    return load_file(os.path.join(root, "impls", rel))


def setf_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    f = tilebench_impl
    n = (1 << 26) // d // d
    add(Case("F_leaky_relu_f32_64M", "validate-f", f("leaky_relu/hand"), "leaky_relu_kernel",
             [A((n,)), A((n,), init="zeros"), K(1024)], (n // 1024,)))
    add(Case("F_sigmoid_f16_64M", "validate-f", f("sigmoid/hand"), "sigmoid_kernel",
             [A((n,), "float16"), A((n,), "float16", "zeros"), K(1024)], (n // 1024,)))
    add(Case("F_mul2_bf16_64M", "validate-f", f("mul2/claude"), "_mul2_kernel",
             [A((n,), "bfloat16"), A((n,), "bfloat16", "zeros"), K(4096)], (n // 4096,)))
    add(Case("F_matrix_copy_f32_64M", "validate-f", f("matrix_copy/gpt"), "_matrix_copy_kernel",
             [A((n,)), A((n,), init="zeros"), K(2048)], (n // 2048,)))
    add(Case("F_reverse_f32_64M", "validate-f", f("reverse_array/claude"), "_reverse_kernel",
             [A((n,)), A((n,), init="zeros"), S(n, "int32"), K(4096)], (n // 4096,)))
    h = n // 2
    add(Case("F_interleave_f32_32M", "validate-f", f("interleave/claude"), "_interleave_kernel",
             [A((h,)), A((h,)), A((2 * h,), init="zeros"), K(h), K(2048)], (h // 2048,)))
    m = 16384 // d
    add(Case("F_argmax_f32_16384x8192", "validate-f", f("argmax/hand"), "argmax_rowwise_kernel",
             [A((m, 8192)), A((m,), "int64", "zeros"), K(8192 // 256), K(256)], (m,)))
    add(Case("F_cross_entropy_f32_16384x8192", "validate-f", f("cross_entropy/hand"), "cross_entropy_kernel",
             [A((m, 8192)), A((m,), "int64", "zeros"), A((m,), init="zeros"), S(8192, "int32"), K(8192)], (m,)))
    add(Case("F_kl_div_f32_16384x4096", "validate-f", f("kl_divergence/claude"), "_kl_kernel",
             [A((m, 4096)), A((m, 4096)), A((m,), init="zeros"), K(4096), K(2048)], (m,)))
    add(Case("F_mean_f32_16384x4096", "validate-f", f("mean_reduction/claude"), "_mean_kernel",
             [A((m, 4096)), A((m,), init="zeros"), K(4096), K(2048)], (m,)))
    s = 8192 // d
    add(Case("F_gaussian_blur_f32_8192_5x5", "validate-f", f("gaussian_blur/claude"), "_conv2d_kernel",
             [A((s, s)), A((5, 5)), A((s, s), init="zeros"), K(5), K(5), K(2), K(2), K(32), K(128)],
             (s // 32, s // 128)))
    add(Case("F_jacobi_f32_8192", "validate-f", f("jacobi_stencil_2d/claude"), "_jacobi_kernel",
             [A((s, s)), A((s, s), init="zeros"), S(s, "int32"), S(s, "int32"), K(4), K(512)], (s // 4, s // 512)))
    b, mm = 8 // d, 4096
    add(Case("F_bmm_f16_8x4096", "validate-f", f("batched_matmul/claude"), "_bmm_kernel",
             [A((b, mm, mm), "float16"), A((b, mm, mm), "float16"), A((b, mm, mm), "float16", "zeros"),
              K(mm), K(mm), K(mm), K(128), K(256), K(32)], (mm // 128, mm // 256, b)))
    z, hh, ctx = 4 // d, 32, 4096
    for causal in (False, True):
        add(Case(f"F_fmha_f16_4x32x4096x64{'_causal' if causal else ''}", "validate-f", f("flash_attention/claude"),
                 "_fmha_kernel", [A((z, hh, ctx, 64), "float16"), A((z, hh, ctx, 64), "float16"),
                                  A((z, hh, ctx, 64), "float16"), A((z, hh, ctx, 64), "float16", "zeros"),
                                  S(0.125), K(hh), K(ctx), K(64), K(128), K(64), K(causal)], (ctx // 128, z * hh)))
    return out
