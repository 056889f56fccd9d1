"""Validation set AP: 32 launches of 24 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to AO were, from
the files none of them nor sets W and Y used, after set AO was timed and while model version 84
(a read whose lanes go down rows closer than a line touches the lines those rows span) was being
made on AO's times; version 84's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py AP BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 246 of sets W, Y and AG to AO,
`random.Random(45).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
One file was passed over, with a launch the cases cannot hold (sum_sum_7155d62f36cd). So the
sizes, tile sizes and grids are the files' own; nothing is scaled. Files with several kernels give
each distinct launch (a second launch of one kernel at other sizes: the suffix `_2`). The files'
host imports are stood in as set Y's are (cost_sety.HOST_MODULES). Each kernel is built
dynamically shaped (`validate-ap`) and as tilescope's launch builds it (`validate-ap-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setap_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-ap"
    add(Case("AP_gelu_dropout_abb86b", g, BB + "pointwise_abb86bbd005a/oracle.py", "_gelu_dropout_kernel",
             [A((33554432,), "bfloat16"), A((33554432,), "float32"), A((33554432,), "bool"),
              A((33554432,), "bfloat16"), K(1024)], (32768, 1, 1)))
    add(Case("AP_row_tile_4c6ae5", g, BB + "sum_sum_4c6ae5dbcf21/oracle.py", "_row_tile_kernel",
             [A((4096, 512), "bfloat16"), A((512,), "float32"), A((4096, 512), "float32"), A((4096,), "float32"),
              A((4096, 512), "float32"), A((4096, 512), "bool"), A((1024, 512), "float32"),
              A((4096, 512), "float32"), A((4096, 512), "bfloat16"), K(4), K(512), K(1.1111111111111112),
              K(0.001953125)], (1024, 1, 1)))
    add(Case("AP_finalize_column_sum_4c6ae5", g, BB + "sum_sum_4c6ae5dbcf21/oracle.py",
             "_finalize_column_sum_kernel",
             [A((1024, 512), "float32"), A((512,), "float32"), K(1024), K(1024), K(8)], (64, 1, 1)))
    add(Case("AP_relu_gate_2b1b93", g, BB + "sum_sum_sum_2b1b93ca6e56/oracle.py", "_relu_gate_kernel",
             [A((262144,), "float32"), A((262144,), "float32"), A((1,), "float32"), A((262144,), "float32"),
              K(1024)], (256, 1, 1)))
    add(Case("AP_bn_relu6_9595e7", g, BB + "pointwise_9595e73ff43b/oracle.py", "_bn_relu6_kernel",
             [A((960,), "bfloat16"), A((6272, 960), "bfloat16"), A((960,), "bfloat16"), A((960,), "bfloat16"),
              A((960,), "bfloat16"), A((6272, 960), "bfloat16"), K(960), K(8), K(1024)], (784, 1, 1)))
    add(Case("AP_shifted_xent_rows_42988b", g, BB + "amax_sum_sum_42988b64e7f9/oracle.py",
             "_shifted_xent_rows_kernel",
             [A((823410688,), "bfloat16"), A((16384,), "int64", "index:100"), A((16384,), "float32"),
              A((16384,), "float32"), K(50257), K(512), K(50257), K(4096)], (16384, 1, 1)))
    add(Case("AP_mean_reduce_42988b", g, BB + "amax_sum_sum_42988b64e7f9/oracle.py", "_mean_reduce_kernel",
             [A((16384,), "float32"), A((16384,), "float32"), A((1,), "float32"), K(16384), K(16384)], (1, 1, 1)))
    add(Case("AP_row_copy_d5a413", g, BB + "pointwise_d5a413a2c233/oracle.py", "_row_copy_kernel",
             [A((196608, 64), "bfloat16"), A((196608, 64), "bfloat16"), K(64)], (196608, 1, 1)))
    add(Case("AP_materialize_and_sum_14dda9", g, BB + "sum_14dda90622f5/oracle.py", "_materialize_and_sum_kernel",
             [A((128, 16), "bfloat16"), A((128, 16), "bfloat16"), A((128, 16), "bfloat16"), A((16,), "float32"),
              K(128), K(16)], (1, 1, 1)))
    add(Case("AP_log_softmax_bf16_1f9572", g, BB + "amax_sum_1f95724cbf96/oracle.py", "_log_softmax_bf16_kernel",
             [A((2048, 32768), "bfloat16"), A((2048, 32768), "bfloat16"), K(32768)], (2048, 1, 1)))
    add(Case("AP_softmax_dropout_e52a9a", g, BB + "amax_sum_e52a9a054e8b/oracle.py", "_softmax_dropout_kernel",
             [A((24576, 128), "bfloat16"), A((24576, 128), "bool"), A((1,), "bfloat16"),
              A((24576, 128), "float32"), A((24576, 128), "bfloat16"), A((24576, 1), "float32"),
              A((24576, 1), "float32"), A((24576, 128), "bool"), A((24576, 128), "bfloat16"), K(128), K(128),
              K(0.1), K(1.1111111111111112)], (24576, 1, 1)))
    add(Case("AP_reduce_1a0060", g, BB + "sum_sum_sum_1a0060cd26d5/oracle.py", "_reduce_kernel",
             [A((64, 613760), "bfloat16"), A((64, 613760), "bfloat16"), A((64,), "float32"), A((64,), "float32"),
              A((64,), "float32"), A((64,), "float32"), A((1,), "bfloat16"), A((2398, 64), "float32"),
              A((2398, 64), "float32"), K(64), K(613760), K(256), K(64)], (2398, 1, 1)))
    add(Case("AP_finalize_1a0060", g, BB + "sum_sum_sum_1a0060cd26d5/oracle.py", "_finalize_kernel",
             [A((2398, 64), "float32"), A((2398, 64), "float32"), A((64,), "float32"), A((64,), "float32"),
              A((64,), "float32"), A((64,), "float32"), A((64,), "float32"), A((64,), "float32"),
              A((64,), "float32"), K(2398), K(4096), K(64), K(64), K(1.6293013555787278e-06)], (1, 1, 1)))
    add(Case("AP_epilogue_1a0060", g, BB + "sum_sum_sum_1a0060cd26d5/oracle.py", "_epilogue_kernel",
             [A((64, 613760), "bfloat16"), A((64, 613760), "bfloat16"), A((64,), "float32"), A((64,), "float32"),
              A((64,), "float32"), A((64,), "float32"), A((1,), "bfloat16"), A((64,), "float32"),
              A((64,), "float32"), A((64,), "float32"), A((64, 613760), "bfloat16"), A((2398, 64), "float32"),
              K(64), K(613760), K(256), K(64)], (2398, 1, 1)))
    add(Case("AP_finalize_out_sum_1a0060", g, BB + "sum_sum_sum_1a0060cd26d5/oracle.py", "_finalize_out_sum_kernel",
             [A((2398, 64), "float32"), A((64,), "float32"), K(2398), K(4096), K(64), K(64)], (1, 1, 1)))
    add(Case("AP_xlnet_softmax_dropout_b9844e", g, BB + "amax_amax_any_b9844e73a342/oracle.py",
             "_xlnet_softmax_dropout_kernel",
             [A((131072, 512), "bfloat16"), A((131072, 512), "bfloat16"), A((131072, 512), "float32"),
              A((131072, 512), "bfloat16"), A((131072,), "float32"), A((131072,), "float32"), A((131072,), "bool"),
              A((131072,), "float32"), A((131072, 512), "bool"), A((131072, 512), "bfloat16"),
              K(512)], (131072, 1, 1)))
    add(Case("AP_spatial_mean_8b6bcc", g, BB + "mean_8b6bcc3d5ac7/oracle.py", "_spatial_mean_kernel",
             [A((128, 2048, 64), "bfloat16"), A((128, 2048), "bfloat16")], (128, 2048, 1)))
    add(Case("AP_bn_relu_ba2598", g, BB + "pointwise_ba25986618ef/oracle.py", "_bn_relu_kernel",
             [A((50176, 58), "bfloat16"), A((58,), "bfloat16"), A((58,), "bfloat16"), A((58,), "bfloat16"),
              A((58,), "bfloat16"), A((50176, 58), "bfloat16"), K(58), K(64), K(50176), K(32)], (1568, 1, 1)))
    add(Case("AP_residual_rmsnorm_a3bb64", g, BB + "mean_a3bb6457fbb8/oracle.py", "_residual_rmsnorm_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "float32"), A((512,), "float32"),
              A((4096, 512), "float32"), A((4096,), "float32"), A((4096, 512), "bfloat16"),
              K(512)], (4096, 1, 1)))
    add(Case("AP_relu_maxpool_linear_dfa214", g, BB + "pointwise_dfa214dc993f/oracle.py",
             "_relu_maxpool_linear_kernel",
             [A((1492992,), "bfloat16"), A((346112,), "bfloat16"), K(346112), K(128), K(27), K(27), K(13), K(13),
              K(128)], (2704, 1, 1)))
    add(Case("AP_dropout_residual_ln_ad769f", g, BB + "var_mean_ad769fcbdaca/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((4096, 2048), "bfloat16"), A((4096, 2048), "float32"), A((4096, 2048), "float32"),
              A((2048,), "float32"), A((2048,), "float32"), A((4096, 2048), "bool"), A((4096, 2048), "float32"),
              A((4096, 2048), "float32"), A((4096, 2048), "bfloat16"), A((4096,), "float32"), K(1536), K(2048),
              K(1.1111111111111112), K(1e-07)], (4096, 1, 1)))
    add(Case("AP_bias_softmax_single_row_8002af", g, BB + "amax_sum_8002af197c08/oracle.py",
             "_bias_softmax_single_row_kernel",
             [A((884736,), "bfloat16"), A((54,), "bfloat16"), A((884736,), "bfloat16"), K(98304)], (98304, 1, 1)))
    add(Case("AP_partial_stats_8b2ac7", g, BB + "var_mean_8b2ac790ab50/oracle.py", "_partial_stats_kernel",
             [A((80, 25088), "bfloat16"), A((25, 80), "float32"), A((25, 80), "float32"), K(80), K(25088), K(1024),
              K(16)], (5, 25, 1)))
    add(Case("AP_finalize_stats_8b2ac7", g, BB + "var_mean_8b2ac790ab50/oracle.py", "_finalize_stats_kernel",
             [A((25, 80), "float32"), A((25, 80), "float32"), A((80,), "float32"), A((80,), "float32"),
              A((80,), "float32"), K(80), K(25088), K(25), K(32), K(1e-05), K(16)], (5, 1, 1)))
    add(Case("AP_cat_residual_8b2ac7", g, BB + "var_mean_8b2ac790ab50/oracle.py", "_cat_residual_kernel",
             [A((512, 80, 49), "bfloat16"), A((80,), "float32"), A((80,), "float32"), A((80,), "float32"),
              A((80,), "float32"), A((512, 80, 49), "bfloat16"), A((512, 160, 49), "bfloat16"),
              A((512, 160, 49), "bfloat16"), K(80), K(49), K(1)], (512, 160, 49)))
    add(Case("AP_log_softmax_d16035", g, BB + "amax_sum_d16035e7b826/oracle.py", "_log_softmax_kernel",
             [A((2048, 20008), "bfloat16"), A((2048, 32768), "float32"), K(20008), K(20005),
              K(32768)], (2048, 1, 1)))
    add(Case("AP_rmsnorm_rope_3084b9", g, BB + "mean_mean_3084b9796c25/oracle.py", "_rmsnorm_rope_kernel",
             [A((8000, 256), "bfloat16"), A((256,), "bfloat16"), A((1000, 256), "bfloat16"),
              A((1000, 256), "bfloat16"), A((8000, 256), "bfloat16"), K(8000), K(8), K(1000), K(256),
              K(128)], (8000, 1, 1)))
    add(Case("AP_rmsnorm_rope_3084b9_2", g, BB + "mean_mean_3084b9796c25/oracle.py", "_rmsnorm_rope_kernel",
             [A((4000, 256), "bfloat16"), A((256,), "bfloat16"), A((1000, 256), "bfloat16"),
              A((1000, 256), "bfloat16"), A((4000, 256), "bfloat16"), K(4000), K(4), K(1000), K(256),
              K(128)], (4000, 1, 1)))
    add(Case("AP_bf16_to_f32_00686e", g, BB + "pointwise_00686ee773b3/oracle.py", "_bf16_to_f32_kernel",
             [A((8388608,), "bfloat16"), A((8388608,), "float32"), K(8192)], (1024, 1, 1)))
    add(Case("AP_residual_copy_4b076e", g, BB + "pointwise_4b076ed1ff41/oracle.py", "_residual_copy_kernel",
             [A((10485760,), "float32"), A((10485760,), "float32"), K(1024)], (10240, 1, 1)))
    add(Case("AP_add_relu_5cc92f", g, BB + "var_mean_var_mean_5cc92f5d49c1/oracle.py", "_add_relu_kernel",
             [A((9633792,), "bfloat16"), A((9633792,), "bfloat16"), A((9633792,), "bfloat16"),
              K(1024)], (9408, 1, 1)))
    add(Case("AP_softmax_dropout_f1a0a4", g, BB + "amax_sum_f1a0a4098400/oracle.py", "_softmax_dropout_kernel",
             [A((65536, 1024), "bfloat16"), A((65536, 1024), "float32"), A((65536,), "float32"),
              A((65536,), "float32"), A((65536, 1024), "bool"), A((65536, 1024), "bfloat16"), K(1024),
              K(1024)], (65536, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-ap-launch"))]
