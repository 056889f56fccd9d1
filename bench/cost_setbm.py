"""Validation set BM: 32 launches of 22 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to BL were, from
the files none of them nor sets W and Y used, after set BL was drawn, while model version 101 was the
latest; version 101's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py BM BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 784 of sets W, Y and AG to BL,
`random.Random(68).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
Three files were passed over, each with a launch the cases cannot hold (var_mean_0b4143d6fc46,
sum_39ea00f83135, sum_sum_a1d490241791). So the sizes, tile sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-bm`) and as tilescope's launch builds it
(`validate-bm-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setbm_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-bm"
    add(Case("BM_residual_ln_476d7b", g, BB + "var_mean_476d7b53369e/oracle.py", "_residual_ln_kernel",
             [A((4096, 1024), "bfloat16"), A((4096, 1024), "bfloat16"), A((1024,), "bfloat16"),
              A((1024,), "bfloat16"), A((4096, 1024), "bfloat16"), A((4096, 1024), "bfloat16"), K(1024),
              K(0.0009765625)], (4096, 1, 1)))
    add(Case("BM_channel_partial_a200e6", g, BB + "sum_a200e61c94a5/oracle.py", "_channel_partial_kernel",
             [A((4, 8, 371372), "bfloat16"), A((4, 8, 182), "float32"), K(371372), K(8192)], (8, 182, 4)))
    add(Case("BM_finalize_channel_a200e6", g, BB + "sum_a200e61c94a5/oracle.py", "_finalize_channel_kernel",
             [A((4, 8, 182), "float32"), A((8,), "float32"), K(4), K(182), K(256)], (8, 1, 1)))
    add(Case("BM_dropout_residual_layernorm_4d27c2", g, BB + "var_mean_4d27c2372e22/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024), K(1024)],
             (8192, 1, 1)))
    add(Case("BM_dropout_residual_ln_bb47e1", g, BB + "var_mean_bb47e1722ef5/oracle.py", "_dropout_residual_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024), K(1024)],
             (8192, 1, 1)))
    add(Case("BM_channel_affine_09d2be", g, BB + "var_mean_var_mean_09d2be3a4e2b/oracle.py", "_channel_affine_kernel",
             [A((25088, 80), "bfloat16"), A((80,), "float32"), A((80,), "float32"), A((80,), "float32"),
              A((80,), "float32"), A((25088, 80), "bfloat16"), K(25088), K(80), K(128), K(128)], (196, 1, 1)))
    add(Case("BM_channel_affine_09d2be_2", g, BB + "var_mean_var_mean_09d2be3a4e2b/oracle.py", "_channel_affine_kernel",
             [A((25088, 160), "bfloat16"), A((160,), "float32"), A((160,), "float32"), A((160,), "float32"),
              A((160,), "float32"), A((25088, 160), "bfloat16"), K(25088), K(160), K(128), K(256)], (196, 1, 1)))
    add(Case("BM_partial_reduce_245fc9", g, BB + "sum_sum_245fc9d79aad/oracle.py", "_partial_reduce_kernel",
             [A((245760,), "float32"), A((48168960,), "bfloat16"), A((245760,), "bfloat16"),
              A((48168960,), "float32"), A((1,), "float32"), A((480,), "float32"), A((48168960,), "bfloat16"),
              A((196, 480), "float32"), A((196, 480), "float32"), K(480), K(196), K(100352), K(512), K(16)],
             (30, 196, 1)))
    add(Case("BM_finalize_245fc9", g, BB + "sum_sum_245fc9d79aad/oracle.py", "_finalize_kernel",
             [A((196, 480), "float32"), A((196, 480), "float32"), A((480,), "float32"), A((480,), "float32"),
              A((480,), "float32"), A((480,), "float32"), A((480,), "float32"), A((480,), "float32"),
              A((480,), "float32"), K(196), K(256), K(16)], (30, 1, 1)))
    add(Case("BM_epilogue_245fc9", g, BB + "sum_sum_245fc9d79aad/oracle.py", "_epilogue_kernel",
             [A((245760,), "float32"), A((48168960,), "bfloat16"), A((245760,), "bfloat16"),
              A((48168960,), "float32"), A((1,), "float32"), A((480,), "float32"), A((48168960,), "bfloat16"),
              A((480,), "float32"), A((480,), "float32"), A((480,), "float32"), A((48168960,), "bfloat16"), K(480),
              K(196), K(48168960), K(1024)], (47040, 1, 1)))
    add(Case("BM_last_token_xent_a0354c", g, BB + "argmax_amax_sum_a0354c147dd8/oracle.py", "_last_token_xent_kernel",
             [A((8,), "int64", "index:2"), A((8, 1024, 2), "bfloat16"), A((8, 1024), "int64", "index:100"),
              A((8, 2), "bfloat16"), A((1,), "bfloat16"), K(8), K(1024)], (1, 1, 1)))
    add(Case("BM_where_and_row_reduce_23c53e", g, BB + "sum_sum_sum_23c53e2c6899/oracle.py",
             "_where_and_row_reduce_kernel",
             [A((128, 64, 64), "bfloat16"), A((128, 64, 64), "float32"), A((128, 64, 64), "bool"),
              A((1,), "float32"), A((128, 64, 64), "bfloat16"), A((128, 64, 64), "float32"), A((128, 64), "float32"),
              A((128, 64), "float32"), K(64)], (128, 64, 1)))
    add(Case("BM_bn_backward_finalize_23c53e", g, BB + "sum_sum_sum_23c53e2c6899/oracle.py",
             "_bn_backward_finalize_kernel",
             [A((128, 32, 2, 64), "float32"), A((128, 32, 2, 64), "float32"), A((128, 32, 2), "float32"),
              A((128, 32), "float32"), A((128, 32), "float32"), A((128, 32, 2, 64), "bfloat16")], (128, 32, 1)))
    add(Case("BM_partial_reduce_e63d69", g, BB + "sum_sum_e63d697b2838/oracle.py", "_partial_reduce_kernel",
             [A((32768, 256), "bfloat16"), A((32768, 128), "bfloat16"), A((32768, 128), "bfloat16"),
              A((128,), "float32"), A((32, 128), "float32"), A((32, 128), "float32"), K(1024), K(128)], (1, 32, 1)))
    add(Case("BM_finalize_e63d69", g, BB + "sum_sum_e63d697b2838/oracle.py", "_finalize_kernel",
             [A((32, 128), "float32"), A((32, 128), "float32"), A((128,), "float32"), A((128,), "float32"),
              A((128,), "float32"), A((128,), "float32"), A((128,), "float32"), A((128,), "float32"),
              A((128,), "float32"), K(32), K(128), K(3.0517578125e-05)], (1, 1, 1)))
    add(Case("BM_epilogue_e63d69", g, BB + "sum_sum_e63d697b2838/oracle.py", "_epilogue_kernel",
             [A((32768, 256), "bfloat16"), A((32768, 128), "bfloat16"), A((32768, 128), "bfloat16"),
              A((128,), "float32"), A((128,), "float32"), A((128,), "float32"), A((128,), "float32"),
              A((32768, 128), "bfloat16"), K(1024), K(128)], (1, 32, 1)))
    add(Case("BM_fill_true_mask_3dc061", g, BB + "pointwise_3dc061aeb21e/oracle.py", "_fill_true_mask_kernel",
             [A((1024,), "bool"), K(1024)], (1, 1, 1)))
    add(Case("BM_store_zero_scalar_ab9ad9", g, BB + "sum_ab9ad96560cd/oracle.py", "_store_zero_scalar_kernel",
             [A((1,), "bfloat16")], (1, 1, 1)))
    add(Case("BM_where_and_partial_sum_ab9ad9", g, BB + "sum_ab9ad96560cd/oracle.py", "_where_and_partial_sum_kernel",
             [A((4, 2048, 92), "bfloat16"), A((4, 2048, 92), "bfloat16"), A((4, 2048, 92), "bfloat16"),
              A((4, 2048), "float32"), K(92), K(128)], (4, 2048, 1)))
    add(Case("BM_finalize_partials_ab9ad9", g, BB + "sum_ab9ad96560cd/oracle.py", "_finalize_partials_kernel",
             [A((4, 2048), "float32"), A((2048,), "float32"), K(4), K(64)], (32, 1, 1)))
    add(Case("BM_xlnet_layout_materialize_4f4596", g, BB + "pointwise_4f45960cc89d/oracle.py",
             "_xlnet_layout_materialize_kernel",
             [A((1024, 16, 64), "bfloat16"), A((64, 16, 1024), "bfloat16"), K(64), K(32)], (2, 16, 16)))
    add(Case("BM_dropout_residual_ln_33e99f", g, BB + "var_mean_33e99fe96c48/oracle.py", "_dropout_residual_ln_kernel",
             [A((8192, 768), "bfloat16"), A((8192, 768), "float32"), A((8192, 768), "float32"), A((768,), "float32"),
              A((768,), "float32"), A((8192, 768), "bool"), A((8192, 768), "float32"), A((8192, 768), "float32"),
              A((8192, 768), "bfloat16"), A((8192,), "float32"), K(768), K(1024), K(768.0)], (8192, 1, 1)))
    add(Case("BM_dropout_residual_layernorm_e298a9", g, BB + "var_mean_e298a963e1ee/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192, 1), "float32"), K(1024), K(1024),
              K(1), K(1.1111111111111112), K(1e-12)], (8192, 1, 1)))
    add(Case("BM_row_partials_ef8c09", g, BB + "sum_sum_sum_ef8c091a67f7/oracle.py", "_row_partials_kernel",
             [A((16, 512, 1024), "bfloat16"), A((8192, 1024), "bool"), A((1024,), "float32"),
              A((8192, 1024), "float32"), A((8192,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "bfloat16"), A((512, 1024), "float32"), A((512, 1024), "float32"),
              A((512, 1024), "float32"), K(16), K(1024), K(8192), K(16), K(1.1111111111111112)], (512, 1, 1)))
    add(Case("BM_finalize_partials_ef8c09", g, BB + "sum_sum_sum_ef8c091a67f7/oracle.py", "_finalize_partials_kernel",
             [A((512, 1024), "float32"), A((512, 1024), "float32"), A((512, 1024), "float32"), A((1024,), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), K(512), K(512), K(1024)], (1, 1, 1)))
    add(Case("BM_mt5_gelu_gate_dropout_ab0d63", g, BB + "pointwise_ab0d63bc2d68/oracle.py",
             "_mt5_gelu_gate_dropout_kernel",
             [A((4194304,), "bfloat16"), A((4194304,), "bfloat16"), A((4194304,), "float32"),
              A((4194304,), "float32"), A((4194304,), "bool"), A((4194304,), "bfloat16"), K(1024)], (4096, 1, 1)))
    add(Case("BM_xent_bwd_561404", g, BB + "sum_561404c238b3/oracle.py", "_xent_bwd_kernel",
             [A((8192, 128112), "bfloat16"), A((8192, 128112), "bfloat16"), A((8192,), "float32"),
              A((8192,), "float32"), A((8192,), "float32"), A((8192,), "int64", "index:100"),
              A((8192, 128112), "bfloat16"), K(8192), K(128112), K(512)], (8192, 251, 1)))
    add(Case("BM_longformer_c7832c", g, BB + "pointwise_c7832ce0ffe9/oracle.py", "_longformer_kernel",
             [A((6291456,), "bfloat16"), A((768,), "float32"), A((384, 768, 64), "bfloat16"), K(32), K(64), K(12),
              K(64), K(8), K(768), K(4), K(256), K(256), K(1024)], (384, 24, 1)))
    add(Case("BM_dual_dropout_layernorm_45b061", g, BB + "mean_var_45b061b5354d/oracle.py",
             "_dual_dropout_layernorm_kernel",
             [A((2048, 768), "bfloat16"), A((2048, 768), "float32"), A((2048, 768), "float32"),
              A((2048, 768), "float32"), A((768,), "float32"), A((768,), "float32"), A((2048, 1024), "bool"),
              A((2048, 1024), "bool"), A((2048, 1024), "float32"), A((2048,), "float32"), A((2048, 1024), "float32"),
              A((2048, 1024), "bfloat16"), K(768), K(1024)], (2048, 1, 1)))
    add(Case("BM_ln_bwd_row_9a5b39", g, BB + "sum_sum_sum_9a5b3965d355/oracle.py", "_ln_bwd_row_kernel",
             [A((131072, 256), "float32"), A((256,), "float32"), A((131072, 256), "bfloat16"),
              A((131072,), "float32"), A((131072,), "float32"), A((131072, 256), "float32"),
              A((131072, 256), "float32"), A((131072, 256), "bfloat16"), K(144), K(256)], (131072, 1, 1)))
    add(Case("BM_dropout_residual_ln_724b7e", g, BB + "var_mean_724b7e0b69d8/oracle.py", "_dropout_residual_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024), K(1024)],
             (8192, 1, 1)))
    add(Case("BM_dropout_ln_8187f7", g, BB + "var_mean_8187f7c4e01e/oracle.py", "_dropout_ln_kernel",
             [A((8192, 1024), "float32"), A((8192, 1024), "float32"), A((1024,), "float32"), A((1024,), "float32"),
              A((8192, 1024), "bool"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024), K(1024)], (8192, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-bm-launch"))]
