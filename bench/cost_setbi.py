"""Validation set BI: 32 launches of 27 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to BH were, from
the files none of them nor sets W and Y used, after set BH was drawn, while model version 96 was the
latest; version 96's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py BI BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 689 of sets W, Y and AG to BH,
`random.Random(64).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
Two files were passed over, with a launch the cases cannot hold (pointwise_c911fb4f9b47,
pointwise_c0f1f15a4e49). So the sizes, tile sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-bi`) and as tilescope's launch builds it
(`validate-bi-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setbi_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-bi"
    add(Case("BI_bn_stats_e67fdd", g, BB + "var_mean_e67fddfba074/oracle.py", "_bn_stats_kernel",
             [A((2910208,), "bfloat16"), A((116,), "float32"), A((116,), "float32"), A((116,), "float32"),
              A((116,), "float32"), K(116), K(196), K(25088), K(1e-05), K(0.1), K(0.9), K(1.0000398612827361),
              K(32768)], (116, 1, 1)))
    add(Case("BI_shuffle_output_e67fdd", g, BB + "var_mean_e67fddfba074/oracle.py", "_shuffle_output_kernel",
             [A((2910208,), "bfloat16"), A((116,), "float32"), A((116,), "float32"), A((5797680,), "bfloat16"),
              A((116,), "float32"), A((116,), "float32"), A((5820416,), "bfloat16"), K(2910208), K(116), K(232),
              K(196), K(256)], (11368, 1, 1)))
    add(Case("BI_tanh_gelu_2d969a", g, BB + "pointwise_2d969ac9ad59/oracle.py", "_tanh_gelu_kernel",
             [A((67108864,), "bfloat16"), A((67108864,), "bfloat16"), K(1024)], (65536, 1, 1)))
    add(Case("BI_dropout_residual_layernorm_3ebfdb", g, BB + "var_mean_3ebfdb9a8750/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024), K(1024)],
             (8192, 1, 1)))
    add(Case("BI_softmax_dropout_48101e", g, BB + "amax_sum_48101e0b2a83/oracle.py", "_softmax_dropout_kernel",
             [A((32, 6, 128, 128), "bfloat16"), A((32, 6, 128, 128), "float32"), A((32, 6, 128, 128), "float32"),
              A((32, 6, 128, 128), "bfloat16"), A((32, 6, 128), "float32"), A((32, 6, 128), "float32"),
              A((32, 6, 128, 128), "bool"), A((32, 6, 128, 128), "bfloat16"), K(128)], (32, 6, 128)))
    add(Case("BI_copy_d14b9f", g, BB + "pointwise_d14b9f62e2e6/oracle.py", "_copy_kernel",
             [A((28901376,), "bfloat16"), A((28901376,), "bfloat16"), K(1024)], (28224, 1, 1)))
    add(Case("BI_producer_f9fb56", g, BB + "sum_f9fb5674c3a0/oracle.py", "_producer_kernel",
             [A((4, 256, 5979), "bfloat16"), A((4, 256, 5979), "bfloat16"), A((4, 512, 5979), "bfloat16"),
              A((4, 512, 5979), "bfloat16"), A((96, 512), "float32"), K(24), K(32), K(256)], (4, 8, 24)))
    add(Case("BI_finalize_f9fb56", g, BB + "sum_f9fb5674c3a0/oracle.py", "_finalize_kernel",
             [A((96, 512), "float32"), A((512,), "float32"), K(96), K(128), K(32)], (16, 1, 1)))
    add(Case("BI_gated_gelu_dropout_510189", g, BB + "pointwise_5101893d451c/oracle.py", "_gated_gelu_dropout_kernel",
             [A((4194304,), "bfloat16"), A((4194304,), "bfloat16"), A((4194304,), "float32"), A((4194304,), "bool"),
              A((4194304,), "bfloat16"), K(1024)], (4096, 1, 1)))
    add(Case("BI_dropout_residual_rmsnorm_c9cd9a", g, BB + "mean_c9cd9a0306c4/oracle.py",
             "_dropout_residual_rmsnorm_kernel",
             [A((4096, 512), "bfloat16"), A((4096, 512), "float32"), A((4096, 512), "float32"), A((512,), "float32"),
              A((4096, 512), "bool"), A((4096, 512), "float32"), A((4096,), "float32"), A((4096, 512), "bfloat16"),
              K(512), K(512), K(1)], (4096, 1, 1)))
    add(Case("BI_dropout_residual_layernorm_5b08f9", g, BB + "var_mean_5b08f93b3624/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((4096, 1536), "bfloat16"), A((4096, 1536), "float32"), A((4096, 1536), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), A((4096, 1536), "bool"), A((4096, 1536), "float32"),
              A((4096, 1536), "float32"), A((4096, 1536), "bfloat16"), A((4096,), "float32"), K(1536), K(2048)],
             (4096, 1, 1)))
    add(Case("BI_dropout_residual_ln_9625c3", g, BB + "var_mean_9625c3505249/oracle.py", "_dropout_residual_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024), K(1024),
              K(1.1111111111111112), K(1e-12)], (8192, 1, 1)))
    add(Case("BI_causal_source_mask_c46586", g, BB + "pointwise_c4658605949c/oracle.py", "_causal_source_mask_kernel",
             [A((64, 128), "float32"), A((64, 1, 128, 128), "bool"), K(128)], (64, 1, 1)))
    add(Case("BI_bf16_add_softmax_979a0a", g, BB + "amax_sum_979a0af8f7a7/oracle.py", "_bf16_add_softmax_kernel",
             [A((24576, 128), "bfloat16"), A((32, 128, 128, 6), "bfloat16"), A((24576, 128), "bfloat16"), K(6),
              K(128), K(8), K(128)], (3072, 1, 1)))
    add(Case("BI_left_ea7081", g, BB + "mean_ea7081208754/oracle.py", "_left_kernel",
             [A((512, 49, 480), "bfloat16"), A((512, 64, 480), "bfloat16"), A((512, 480), "bfloat16"), K(49), K(64)],
             (512, 480, 1)))
    add(Case("BI_bn_relu_ea7081", g, BB + "mean_ea7081208754/oracle.py", "_bn_relu_kernel",
             [A((512, 49, 480), "bfloat16"), A((480,), "bfloat16"), A((480,), "bfloat16"), A((480,), "bfloat16"),
              A((480,), "bfloat16"), A((512, 64, 480), "bfloat16"), A((512, 480), "bfloat16"), K(49), K(64)],
             (512, 480, 1)))
    add(Case("BI_bias_dropout_ln_3e50d1", g, BB + "var_mean_3e50d103dcec/oracle.py", "_bias_dropout_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((1024,), "float32"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"),
              A((8192, 1024), "float32"), A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"),
              A((8192,), "float32"), K(768), K(1e-05), K(1024)], (8192, 1, 1)))
    add(Case("BI_xlnet_softmax_dropout_71d47d", g, BB + "amax_amax_any_71d47d6ca14c/oracle.py",
             "_xlnet_softmax_dropout_kernel",
             [A((131072, 512), "bfloat16"), A((131072, 512), "float32"), A((131072,), "float32"),
              A((131072,), "float32"), A((131072,), "bool"), A((131072,), "float32"), A((131072, 512), "bool"),
              A((131072, 512), "bfloat16"), K(512)], (131072, 1, 1)))
    add(Case("BI_rmsnorm_bf16_2ac293", g, BB + "mean_2ac293b38233/oracle.py", "_rmsnorm_bf16_kernel",
             [A((1000, 1024), "bfloat16"), A((1024,), "bfloat16"), A((1000, 1024), "bfloat16"), K(1024), K(1024)],
             (1000, 1, 1)))
    add(Case("BI_bias_add_2d_93756b", g, BB + "pointwise_93756b266db9/oracle.py", "_bias_add_2d_kernel",
             [A((128, 768), "bfloat16"), A((768,), "bfloat16"), A((128, 768), "bfloat16"), K(1), K(256)], (128, 3, 1)))
    add(Case("BI_scaled_score_layout_clone_079419", g, BB + "pointwise_07941926c4a4/oracle.py",
             "_scaled_score_layout_clone_kernel",
             [A((8, 64, 64, 512), "bfloat16"), A((8, 512, 64, 64), "bfloat16"), K(64)], (8, 64, 8)))
    add(Case("BI_bf16_softmax_fa4cc8", g, BB + "amax_sum_fa4cc85fe5ad/oracle.py", "_bf16_softmax_kernel",
             [A((24576, 128), "bfloat16"), A((24576, 128), "bfloat16"), K(16), K(128)], (1536, 1, 1)))
    add(Case("BI_softmax_backward_row_be521a", g, BB + "sum_be521af00034/oracle.py", "_softmax_backward_row_kernel",
             [A((98304, 512), "bfloat16"), A((98304, 512), "bool"), A((98304, 512), "bfloat16"),
              A((98304,), "float32"), A((98304,), "float32"), A((4096, 512), "bool"), A((1,), "bfloat16"),
              A((98304, 512), "bfloat16"), K(24), K(512), K(512), K(1.1111111640930176)], (98304, 1, 1)))
    add(Case("BI_mt5_gelu_gate_dropout_ee5b7a", g, BB + "pointwise_ee5b7a9ccfd4/oracle.py",
             "_mt5_gelu_gate_dropout_kernel",
             [A((4194304,), "bfloat16"), A((4194304,), "bfloat16"), A((4194304,), "float32"), A((4194304,), "bool"),
              A((4194304,), "bfloat16"), K(1024)], (4096, 1, 1)))
    add(Case("BI_rmsnorm_perhead_cdb451", g, BB + "mean_mean_cdb4518308b8/oracle.py", "_rmsnorm_perhead_kernel",
             [A((16000, 128), "bfloat16"), A((128,), "bfloat16"), A((16000, 128), "bfloat16"), K(1e-06), K(128)],
             (16000, 1, 1)))
    add(Case("BI_rmsnorm_perhead_cdb451_2", g, BB + "mean_mean_cdb4518308b8/oracle.py", "_rmsnorm_perhead_kernel",
             [A((8000, 128), "bfloat16"), A((128,), "bfloat16"), A((8000, 128), "bfloat16"), K(1e-06), K(128)],
             (8000, 1, 1)))
    add(Case("BI_masked_bf16_softmax_1b9e85", g, BB + "amax_sum_any_1b9e85b4c3f6/oracle.py",
             "_masked_bf16_softmax_kernel",
             [A((65536, 128), "bfloat16"), A((128,), "bool"), A((65536, 128), "bfloat16"), K(65536), K(128), K(128),
              K(4), K(32)], (16384, 1, 1)))
    add(Case("BI_residual_layernorm_c3ea8f", g, BB + "var_mean_c3ea8f7ce5c6/oracle.py", "_residual_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "bfloat16"), A((1024,), "bfloat16"),
              A((1024,), "bfloat16"), A((8192, 1024), "bfloat16"), K(1024), K(1024)], (8192, 1, 1)))
    add(Case("BI_layernorm_37bf4e", g, BB + "var_mean_37bf4eff6ec9/oracle.py", "_layernorm_kernel",
             [A((4096, 2048), "bfloat16"), A((2048,), "bfloat16"), A((2048,), "bfloat16"),
              A((4096, 2048), "bfloat16"), K(2048), K(1e-05), K(2048)], (4096, 1, 1)))
    add(Case("BI_iota_add_ge_e40852", g, BB + "pointwise_e40852a34050/oracle.py", "_iota_add_ge_kernel",
             [A((128,), "int64"), A((128,), "int64", "index:140455015620017"), A((128,), "bool"), K(128)], (1, 1, 1)))
    add(Case("BI_clone_and_partial_sums_668480", g, BB + "sum_sum_668480e6f63c/oracle.py",
             "_clone_and_partial_sums_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "bfloat16"), A((8192, 1024), "bfloat16"),
              A((64, 1024), "float32"), A((64, 1024), "float32"), K(128), K(1024)], (64, 1, 1)))
    add(Case("BI_finalize_sums_668480", g, BB + "sum_sum_668480e6f63c/oracle.py", "_finalize_sums_kernel",
             [A((64, 1024), "float32"), A((64, 1024), "float32"), A((1024,), "float32"), A((1024,), "float32"),
              K(64), K(1024)], (1, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-bi-launch"))]
