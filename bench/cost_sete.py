"""Validation set E: streaming kernels of NVIDIA/TileGym (src/tilegym/ops/cutile at commit 75a1430)
that no earlier set used, chosen and fixed before any prediction for them was looked at, to test
the streaming part of the cost model (set D had shown it failing on TileGym's row kernels).

As for set D, the kernels are read from a checkout given by `--tilegym DIR` (never copied here);
tile sizes follow TileGym's launch wrappers for these shapes (next power of two of the row, its
persistent grids: SMs × occupancy); sizes are common LLM shapes.
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K

SMS = 132
PREFIX = "tilegym:"


def sete_cases(d: int = 1) -> List[Case]:
    out: List[Case] = []
    add = out.append
    f = lambda rel: PREFIX + rel                                  # noqa: E731
    rows = 16384 // d
    add(Case("E_softmax_persistent_f16_16384x4096", "validate-e", f("softmax.py"), "_softmax_kernel",
             [A((rows, 4096), "float16", "zeros"), A((rows, 4096), "float16"), K(rows), K(4096), K(4096)],
             (SMS * 4,)))
    add(Case("E_softmax_tile_persistent_f16_16384x4096", "validate-e", f("softmax.py"), "_softmax_kernel_tma",
             [A((rows, 4096), "float16", "zeros"), A((rows, 4096), "float16"), K(rows), K(4096), K(4096)],
             (SMS * 2,)))
    r3 = 4096 // d
    add(Case("E_softmax_chunked_f16_4096x32768", "validate-e", f("softmax.py"), "_softmax_kernel_chunked",
             [A((r3, 32768), "float16", "zeros"), A((r3, 32768), "float16"), K(r3), K(32768), K(8192)],
             (SMS * 4,)))
    m = 65536 // d
    add(Case("E_rms_norm_bwd_bf16_65536x4096", "validate-e", f("rms_norm.py"), "_rms_bwd_kernel",
             [A((m, 4096), "bfloat16", "zeros"), A((m, 4096), "bfloat16"), A((m, 4096), "bfloat16"),
              A((4096,), "bfloat16"), A((m,)), A((SMS, 4096), init="zeros"), K(4), K(4096)], (SMS,)))
    r2 = 8192 // d
    add(Case("E_swiglu_bwd_f16_8192x11008", "validate-e", f("swiglu.py"), "_swiglu_backward_kernel",
             [A((r2, 11008), "float16"), A((r2, 11008), "float16"), A((r2, 11008), "float16"),
              A((r2, 11008), "float16", "zeros"), A((r2, 11008), "float16", "zeros"), K(16384)], (r2, 1)))
    m2, n2 = 16384 // d, 4096
    add(Case("E_geglu_bwd_f16_16384x4096", "validate-e", f("activation/geglu.py"), "_geglu_bwd_kernel",
             [A((m2 * 2 * n2,), "float16", "zeros"), A((m2 * n2,), "float16"), A((m2 * 2 * n2,), "float16"),
              K(n2), K(2 * n2), K(n2), K(256), K(0)], (m2 * n2 // 256,)))
    add(Case("E_silu_and_mul_bwd_f16_16384x4096", "validate-e", f("silu_and_mul.py"),
             "_silu_and_mul_backward_kernel_row_wise",
             [A((rows, 4096), "float16"), A((rows, 8192), "float16"), A((rows, 4096), "float16", "zeros"),
              A((rows, 4096), "float16", "zeros"), K(4096), K(4096)], (rows,)))
    add(Case("E_layer_norm_gather_f16_65536x4096", "validate-e", f("layer_norm_legacy.py"), "_layer_norm_fwd_kernel",
             [A((m, 4096), "float16"), A((m, 4096), "float16", "zeros"), A((4096,), "float16"),
              A((4096,), "float16"), A((m,), init="zeros"), A((m,), init="zeros"), K(4096), K(1e-5), K(0.0),
              K(4096)], (m,)))
    b, s = 4, 4096 // d
    add(Case("E_rope_f16_4x32x4096x128", "validate-e", f("rope.py"), "_rope_kernel",
             [A((b, 32, s, 128), "float16"), A((b, 8, s, 128), "float16"), A((1, s, 128), "float16"),
              A((1, s, 128), "float16"), K(1), K(s), K(32), K(8), K(64)], (b * s,)))
    add(Case("E_layer_norm_persistent_bf16_65536x4096", "validate-e", f("layer_norm_legacy.py"),
             "_persistent_layer_norm_fwd_kernel",
             [A((m, 4096), "bfloat16"), A((m, 4096), "bfloat16", "zeros"), A((4096,), "bfloat16"),
              A((4096,), "bfloat16"), A((m,), init="zeros"), A((m,), init="zeros"), K(m), K(4096), K(1e-5),
              K(4096), K(4096), K(0), K(1), K(8), K(4096), K(1), K(SMS)], (SMS,)))
    return out
