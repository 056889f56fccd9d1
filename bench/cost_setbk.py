"""Validation set BK: 32 launches of 23 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to BJ were, from
the files none of them nor sets W and Y used, after set BJ was drawn, while model version 98 was the
latest; version 98's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py BK BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 738 of sets W, Y and AG to BJ,
`random.Random(66).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
Three files were passed over, with a launch the cases cannot hold (amax_sum_sum_5a80f2fc257a,
sum_6d68a671ec4a, mean_470cecc170ec). So the sizes, tile sizes and grids are the files' own;
nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-bk`) and as tilescope's launch builds it
(`validate-bk-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setbk_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-bk"
    add(Case("BK_softmax_dropout_b4ba26", g, BB + "amax_sum_b4ba26016a2b/oracle.py", "_softmax_dropout_kernel",
             [A((65536, 1024), "bfloat16"), A((65536, 1024), "float32"), A((65536, 1024), "float32"),
              A((65536, 1024), "bfloat16"), A((65536,), "float32"), A((65536,), "float32"), A((65536, 1024), "bool"),
              A((65536, 1024), "bfloat16"), K(1024)], (65536, 1, 1)))
    add(Case("BK_bn_relu_nhwc_7899d7", g, BB + "pointwise_7899d74e0838/oracle.py", "_bn_relu_nhwc_kernel",
             [A((384,), "bfloat16"), A((128, 64, 384), "bfloat16"), A((384,), "bfloat16"), A((384,), "bfloat16"),
              A((384,), "bfloat16"), A((128, 64, 384), "bfloat16"), K(384), K(64), K(64), K(64)], (128, 1, 6)))
    add(Case("BK_col_sum_07fa37", g, BB + "sum_07fa37421ff1/oracle.py", "_col_sum_kernel",
             [A((8192, 768), "bfloat16"), A((256, 768), "float32"), K(8192), K(768), K(32), K(64)], (256, 12, 1)))
    add(Case("BK_finalize_sum_07fa37", g, BB + "sum_07fa37421ff1/oracle.py", "_finalize_sum_kernel",
             [A((256, 768), "float32"), A((768,), "float32"), K(256), K(768), K(64)], (12, 1, 1)))
    add(Case("BK_dropout_residual_ln_f9d8fa", g, BB + "var_mean_f9d8faf2bd9a/oracle.py", "_dropout_residual_ln_kernel",
             [A((16384, 1024), "float32"), A((16384, 1024), "float32"), A((16384, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((16384, 1024), "bool"), A((16384, 1024), "float32"),
              A((16384, 1024), "float32"), A((16384,), "float32"), K(768), K(768.0), K(1024)], (16384, 1, 1)))
    add(Case("BK_flat_hardsigmoid_broadcast_mul_364ae2", g, BB + "pointwise_364ae2743aa2/oracle.py",
             "_flat_hardsigmoid_broadcast_mul_kernel",
             [A((491520,), "bfloat16"), A((24084480,), "bfloat16"), A((24084480,), "bfloat16"), K(960), K(1), K(960),
              K(49), K(1024)], (23520, 1, 1)))
    add(Case("BK_dropout_residual_ln_5361f6", g, BB + "var_mean_5361f6c9de6c/oracle.py", "_dropout_residual_ln_kernel",
             [A((16384, 768), "float32"), A((16384, 768), "float32"), A((16384, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((16384, 768), "bool"), A((16384, 768), "float32"),
              A((16384, 768), "float32"), A((16384,), "float32"), K(768), K(1024)], (16384, 1, 1)))
    add(Case("BK_materialize_partial_281f47", g, BB + "sum_281f473c7326/oracle.py", "_materialize_partial_kernel",
             [A((1179648, 16), "bfloat16"), A((1179648, 16), "float32"), A((1179648, 16), "bfloat16"),
              A((9216, 16), "float32"), K(1179648), K(16), K(128), K(16)], (9216, 1, 1)))
    add(Case("BK_finalize_channel_sum_281f47", g, BB + "sum_281f473c7326/oracle.py", "_finalize_channel_sum_kernel",
             [A((9216, 16), "float32"), A((16,), "float32"), K(9216), K(16), K(16384)], (1, 1, 1)))
    add(Case("BK_bias_add_scale_62ec99", g, BB + "pointwise_62ec9910b2e0/oracle.py", "_bias_add_scale_kernel",
             [A((8192, 768), "bfloat16"), A((768,), "bfloat16"), A((8192, 1024), "bfloat16"), K(768), K(1024)],
             (8192, 1, 1)))
    add(Case("BK_stencil_copy_62ec99", g, BB + "pointwise_62ec9910b2e0/oracle.py", "_stencil_copy_kernel",
             [A((8, 12, 1024, 64), "bfloat16"), A((288, 512, 64), "bfloat16"), K(16)], (288, 32, 1)))
    add(Case("BK_cast_clone_3c92a4", g, BB + "pointwise_3c92a46da990/oracle.py", "_cast_clone_kernel",
             [A((1024, 16, 64), "float32"), A((64, 16, 1024), "bfloat16"), K(128), K(64)], (8, 1, 16)))
    add(Case("BK_dropout_residual_ln_b98603", g, BB + "var_mean_b9860366162b/oracle.py", "_dropout_residual_ln_kernel",
             [A((4096, 1536), "bfloat16"), A((4096, 1536), "float32"), A((4096, 1536), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), A((4096, 1536), "bool"), A((4096, 1536), "float32"),
              A((4096, 1536), "float32"), A((4096, 1536), "bfloat16"), A((4096,), "float32"), K(1536), K(2048),
              K(1.1111111111111112), K(1e-07)], (4096, 1, 1)))
    add(Case("BK_dropout_residual_ln_51931b", g, BB + "var_mean_51931b6418f0/oracle.py", "_dropout_residual_ln_kernel",
             [A((8192, 768), "bfloat16"), A((8192, 768), "float32"), A((8192, 768), "float32"), A((768,), "float32"),
              A((768,), "float32"), A((8192, 768), "bool"), A((8192, 768), "float32"), A((8192, 768), "bfloat16"),
              A((8192,), "float32"), K(768), K(1024), K(768.0)], (8192, 1, 1)))
    add(Case("BK_partial_reduce_704062", g, BB + "sum_sum_7040624b7ae1/oracle.py", "_partial_reduce_kernel",
             [A((18464768,), "bfloat16"), A((9232384,), "bfloat16"), A((9232384,), "bfloat16"), A((1,), "bfloat16"),
              A((9232384,), "bfloat16"), A((92,), "float32"), A((72128,), "float32"), A((72128,), "float32"), K(128)],
             (92, 784, 1)))
    add(Case("BK_finalize_704062", g, BB + "sum_sum_7040624b7ae1/oracle.py", "_finalize_kernel",
             [A((72128,), "float32"), A((72128,), "float32"), A((92,), "float32"), A((92,), "float32"),
              A((92,), "float32"), A((92,), "float32"), A((92,), "float32"), A((92,), "float32"),
              A((92,), "float32"), K(784), K(1024)], (92, 1, 1)))
    add(Case("BK_epilogue_704062", g, BB + "sum_sum_7040624b7ae1/oracle.py", "_epilogue_kernel",
             [A((18464768,), "bfloat16"), A((9232384,), "bfloat16"), A((9232384,), "bfloat16"), A((1,), "bfloat16"),
              A((9232384,), "bfloat16"), A((92,), "float32"), A((92,), "float32"), A((92,), "float32"),
              A((92,), "float32"), A((9232384,), "bfloat16"), K(256)], (36064, 1, 1)))
    add(Case("BK_dropout_layernorm_25e302", g, BB + "var_mean_25e302386921/oracle.py", "_dropout_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024), K(1e-12),
              K(1024)], (8192, 1, 1)))
    add(Case("BK_dropout_residual_ln_bc6c8d", g, BB + "var_mean_bc6c8d6fc71e/oracle.py", "_dropout_residual_ln_kernel",
             [A((4096, 2560), "bfloat16"), A((4096, 2560), "float32"), A((4096, 2560), "float32"),
              A((2560,), "float32"), A((2560,), "float32"), A((4096, 2560), "bool"), A((4096, 2560), "float32"),
              A((4096,), "float32"), A((4096,), "float32"), A((4096, 2560), "bfloat16"), K(2560), K(4096), K(2560.0)],
             (4096, 1, 1)))
    add(Case("BK_fnet_layernorm_fd39a3", g, BB + "var_mean_fd39a3b3f5fd/oracle.py", "_fnet_layernorm_kernel",
             [A((16384, 768), "float32"), A((16384, 768), "float32"), A((768,), "float32"), A((768,), "float32"),
              A((16384, 768), "float32"), A((16384, 768), "float32"), A((16384,), "float32"), K(768), K(256)],
             (16384, 1, 1)))
    add(Case("BK_dropout_residual_layernorm_9ffbb6", g, BB + "var_mean_9ffbb6ad3f83/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192, 1), "float32"), K(1024), K(1024)],
             (8192, 1, 1)))
    add(Case("BK_col_sum_abcd9b", g, BB + "sum_abcd9bccce7d/oracle.py", "_col_sum_kernel",
             [A((128, 768), "bfloat16"), A((768,), "float32"), K(128), K(768), K(128), K(8)], (96, 1, 1)))
    add(Case("BK_dropout_layernorm_d26c4e", g, BB + "mean_var_d26c4e1b56f7/oracle.py", "_dropout_layernorm_kernel",
             [A((2048, 768), "bfloat16"), A((2048, 768), "float32"), A((2048, 768), "float32"), A((768,), "float32"),
              A((768,), "float32"), A((2048, 1024), "bool"), A((2048, 1024), "float32"), A((2048,), "float32"),
              A((2048, 1024), "float32"), A((2048, 1024), "bfloat16"), K(768), K(1024)], (2048, 1, 1)))
    add(Case("BK_partial_reduce_1cfb1f", g, BB + "sum_sum_1cfb1f3be4bb/oracle.py", "_partial_reduce_kernel",
             [A((6422528, 8), "bfloat16"), A((6422528, 8), "bfloat16"), A((8,), "float32"), A((8,), "float32"),
              A((8,), "float32"), A((8,), "float32"), A((1,), "bfloat16"), A((6272, 8), "float32"),
              A((6272, 8), "float32"), K(8), K(1024)], (6272, 1, 1)))
    add(Case("BK_finalize_1cfb1f", g, BB + "sum_sum_1cfb1f3be4bb/oracle.py", "_finalize_kernel",
             [A((6272, 8), "float32"), A((6272, 8), "float32"), A((8,), "float32"), A((8,), "float32"),
              A((8,), "float32"), A((8,), "float32"), A((8,), "float32"), A((8,), "float32"), A((8,), "float32"),
              K(8), K(8192), K(1.5570192920918366e-07)], (1, 1, 1)))
    add(Case("BK_epilogue_1cfb1f", g, BB + "sum_sum_1cfb1f3be4bb/oracle.py", "_epilogue_kernel",
             [A((6422528, 8), "bfloat16"), A((6422528, 8), "bfloat16"), A((8,), "float32"), A((8,), "float32"),
              A((8,), "float32"), A((8,), "float32"), A((1,), "bfloat16"), A((8,), "float32"), A((8,), "float32"),
              A((8,), "float32"), A((6422528, 8), "bfloat16"), K(8), K(1024)], (6272, 1, 1)))
    add(Case("BK_dropout_residual_layernorm_f0fb76", g, BB + "var_mean_f0fb76589ff6/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((16384, 768), "float32"), A((16384, 768), "float32"), A((16384, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((16384, 768), "bool"), A((16384, 768), "float32"),
              A((16384, 768), "float32"), A((16384, 1), "float32"), K(768), K(1024), K(1)], (16384, 1, 1)))
    add(Case("BK_partial_stats_522de5", g, BB + "var_mean_522de516d7b7/oracle.py", "_partial_stats_kernel",
             [A((24084480,), "bfloat16"), A((960, 7), "float32"), A((960, 7), "float32"), K(960), K(49), K(25088),
              K(1), K(47040), K(7), K(7), K(6720), K(960), K(7), K(4096), K(4096)], (960, 7, 1)))
    add(Case("BK_finalize_stats_522de5", g, BB + "var_mean_522de516d7b7/oracle.py", "_finalize_stats_kernel",
             [A((960, 7), "float32"), A((960, 7), "float32"), A((960,), "float32"), A((960,), "float32"),
              A((960,), "float32"), A((960,), "float32"), K(25088), K(7), K(8)], (960, 1, 1)))
    add(Case("BK_hardswish_522de5", g, BB + "var_mean_522de516d7b7/oracle.py", "_hardswish_kernel",
             [A((24084480,), "bfloat16"), A((960,), "float32"), A((960,), "float32"), A((960,), "float32"),
              A((960,), "float32"), A((24084480,), "bfloat16"), K(24084480), K(960), K(49), K(1), K(1024)],
             (23520, 1, 1)))
    add(Case("BK_swin_layernorm_0584ac", g, BB + "var_mean_0584ac272c37/oracle.py", "_swin_layernorm_kernel",
             [A((6272, 1024), "bfloat16"), A((6272, 1024), "bfloat16"), A((1024,), "bfloat16"),
              A((1024,), "bfloat16"), A((6272, 1024), "bfloat16"), A((6272, 1024), "bfloat16"), K(1024)], (6272, 1, 1)))
    add(Case("BK_softmax_dropout_b4a1db", g, BB + "amax_sum_b4a1db9f7f57/oracle.py", "_softmax_dropout_kernel",
             [A((24576, 128), "bfloat16"), A((3145728,), "float32"), A((24576, 128), "float32"),
              A((24576, 128), "bfloat16"), A((24576,), "float32"), A((24576,), "float32"), A((24576, 128), "bool"),
              A((24576, 128), "bfloat16"), K(128)], (24576, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-bk-launch"))]
