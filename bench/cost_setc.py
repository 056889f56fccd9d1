"""Validation set C: kernels from upstream cuTile's own test kernels (NVIDIA/cutile-python,
test/kernels/ at commit 9c3ee3c), none written here.

The kernels are read from a checkout given by `--upstream DIR` (never copied into this
repository). Sizes are those of upstream's benchmarks (test/bench_*.py) and tile shapes those
of its launch wrappers or its tuning table (test/benchmark_tuning.json); the list was fixed
before any prediction for it was looked at. The files are read statically, as `tilescope cost`
reads them (nothing imported: they import torch).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K, S

UPSTREAM_COMMIT = "9c3ee3c"
SMS = 132


def upstream_file(name: str) -> str:
    return "upstream:test/kernels/" + name


def setc_cases(d: int = 1) -> List[Case]:
    """Set C; `d` shrinks the big sizes for a CPU plumbing run."""
    out: List[Case] = []
    add = out.append
    va, tr, ln, rms, mm, att, moe = (upstream_file(f) for f in (
        "vec_add.py", "transpose.py", "layer_norm.py", "rms_norm.py", "matmul.py", "attention.py", "fused_moe.py"))
    n = (1 << 27) // d // d                       # bench_vec_add: 128 Mi elements, 1-D
    add(Case("C_vec_add_1d_f32_128M", "validate-c", va, "vec_add_kernel_1d",
             [A((n,)), A((n,)), A((n,), init="zeros"), K(1024)], (n // 1024,)))
    r = (1 << 20) // d                            # bench_vec_add: (1 Mi, 128) and (4 Mi, 32), 2-D
    add(Case("C_vec_add_2d_f16_1Mx128", "validate-c", va, "vec_add_kernel_2d",
             [A((r, 128), "float16"), A((r, 128), "float16"), A((r, 128), "float16", "zeros"), K(8), K(128)],
             (r // 8, 1)))
    n2 = (1 << 25) // d // d
    add(Case("C_vec_add_1d_gather_f32_32M", "validate-c", va, "vec_add_kernel_1d_gather",
             [A((n2,)), A((n2,)), A((n2,), init="zeros"), K(1024)], (n2 // 1024,)))
    add(Case("C_vec_add_2d_gather_f32_4Mx32", "validate-c", va, "vec_add_kernel_2d_gather",
             [A((4 * r, 32)), A((4 * r, 32)), A((4 * r, 32), init="zeros"), K(32), K(32)], (4 * r // 32, 1)))
    m, k = 12288 // d, 4096 // d                  # bench_transpose shapes; 64×64 tiles (tuning table)
    add(Case("C_transpose_f16_12288x4096", "validate-c", tr, "transpose_kernel",
             [A((m, k), "float16"), A((k, m), "float16", "zeros"), K(64), K(64)], (m // 64, k // 64)))
    add(Case("C_transpose_f32_2048x8000", "validate-c", tr, "transpose_kernel",
             [A((2048, 8000)), A((8000, 2048), init="zeros"), K(64), K(64)], (2048 // 64, -(-8000 // 64))))
    rows = 65536 // d                             # bench_layer_norm (65536, 16384) bf16; TILE_N 1024
    add(Case("C_layer_norm_fwd_bf16_65536x16384", "validate-c", ln, "layer_norm_fwd",
             [A((rows, 16384 // d), "bfloat16"), A((16384 // d,), "bfloat16"), A((16384 // d,), "bfloat16"),
              A((rows, 16384 // d), "bfloat16", "zeros"), A((rows,), init="zeros"), A((rows,), init="zeros"),
              S(1e-5), K(1024)], (rows,)))
    # bench_rms_norm: (65536, N); tile sizes from the tuning table
    add(Case("C_rms_norm_bf16_65536x2048", "validate-c", rms, "rms_norm_kernel",
             [A((rows, 2048), "bfloat16"), A((2048,), "bfloat16"), A((rows, 2048), "bfloat16", "zeros"),
              A((rows,), init="zeros"), K(2048), K(1e-6), K(1024)], (rows,)))
    add(Case("C_rms_norm_gather_f16_65536x1024", "validate-c", rms, "rms_norm_kernel_gather",
             [A((rows, 1024), "float16"), A((1024,), "float16"), A((rows, 1024), "float16", "zeros"),
              A((rows,), init="zeros"), K(1024), K(1e-6), K(512)], (rows,)))
    add(Case("C_rms_norm_persistent_f32_65536x1024", "validate-c", rms, "rms_norm_kernel_static_persistent",
             [A((rows, 1024)), A((rows, 1024), init="zeros"), A((1024,)), K(16), K(1024), K(1024), K(1e-6)],
             (SMS,)))
    mm_m, mm_n, mm_k = 12288 // d, 4096 // d, 2560 // d       # bench_matmul (12288, 4096, 2560)
    add(Case("C_matmul_f16_12288x4096x2560", "validate-c", mm, "matmul_kernel",
             [A((mm_m, mm_k), "float16"), A((mm_k, mm_n), "float16"), A((mm_m, mm_n), "float16", "zeros"),
              K(128), K(128), K(64)], ((mm_m // 128) * (mm_n // 128),)))
    add(Case("C_batch_matmul_f16_8x2048", "validate-c", mm, "batch_matmul_kernel",
             [A((8, 2048 // d, 2048 // d), "float16"), A((8, 2048 // d, 2048 // d), "float16"),
              A((8, 2048 // d, 2048 // d), "float16", "zeros"), K(128), K(128), K(64)],
             (8, 2048 // d // 128, 2048 // d // 128)))
    add(Case("C_persistent_matmul_f16_8192", "validate-c", mm, "persistent_matmul_kernel",
             [A((8192 // d, 8192 // d), "float16"), A((8192 // d, 8192 // d), "float16"),
              A((8192 // d, 8192 // d), "float16", "zeros"), K(128), K(128), K(64)], (SMS,)))
    h, s = 32, 1024 // d                          # bench_attention prefill (1, 32, 1024, 128)
    qkv = [A((1, h, s, 128), "float16") for _ in range(3)] + [A((1, h, s, 128), "float16", "zeros")]
    add(Case("C_fmha_f16_1x32x1024x128", "validate-c", att, "fmha_kernel",
             qkv + [S(0.088), S(0, "int32"), K(128), K(32), K(64), K(128), K(1), K(False), K(True)],
             (s // 64, h)))
    s8 = 8192 // d                                # bench_attention prefill (1, 32, 8192, 128), causal
    qkv8 = [A((1, h, s8, 128), "float16") for _ in range(3)] + [A((1, h, s8, 128), "float16", "zeros")]
    add(Case("C_fmha_causal_f16_1x32x8192x128", "validate-c", att, "fmha_kernel",
             qkv8 + [S(0.088), S(0, "int32"), K(128), K(32), K(128), K(128), K(1), K(True), K(True)],
             (s8 // 128, h)))
    add(Case("C_silu_and_mul_f16_16384x4096", "validate-c", moe, "silu_and_mul_kernel",
             [A((16384 // d, 4096), "float16"), A((16384 // d, 4096), "float16"),
              A((16384 // d, 4096), "float16", "zeros"), K(4096)], (16384 // d,)))
    return out
