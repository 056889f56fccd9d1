"""Validation set BE: 32 launches of 27 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to BD were, from
the files none of them nor sets W and Y used, after set BD was drawn, while model version 91 was the
latest; version 91's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py BE BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 591 of sets W, Y and AG to BD,
`random.Random(60).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
One file was passed over, its oracle did not run (pointwise_43588d3e9780, as in set BB). So the
sizes, tile sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-be`) and as tilescope's launch builds it
(`validate-be-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setbe_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-be"
    add(Case("BE_albert_ln_backward_dual_sum_21e1fb", g, BB + "sum_sum_21e1fb8d648a/oracle.py",
             "_albert_ln_backward_dual_sum_kernel",
             [A((4096, 4096), "bfloat16"), A((4096, 4096), "float32"), A((4096,), "float32"),
              A((4096, 4096), "float32"), A((4096,), "float32"), A((4096, 4096), "float32"),
              A((4096, 4096), "float32"), A((4096, 4096), "bfloat16"), K(4096), K(4096)], (4096, 1, 1)))
    add(Case("BE_sum_rows_977aa8", g, BB + "sum_977aa8760e55/oracle.py", "_sum_rows_kernel",
             [A((128, 768), "bfloat16"), A((768,), "float32"), K(128), K(8)], (96, 1, 1)))
    add(Case("BE_materialize_and_sum_36c3c0", g, BB + "sum_36c3c08e0a4d/oracle.py", "_materialize_and_sum_kernel",
             [A((128, 65), "bfloat16"), A((128, 65), "bfloat16"), A((128, 65), "bfloat16"), A((65,), "float32"),
              K(128)], (65, 1, 1)))
    add(Case("BE_slice_permute_clone_head_d6d950", g, BB + "pointwise_d6d9504b25c0/oracle.py",
             "_slice_permute_clone_head_kernel",
             [A((512, 4, 256, 40), "bfloat16"), A((512, 256, 4, 36), "bfloat16")], (512, 256, 1)))
    add(Case("BE_slice_permute_clone_tail_d6d950", g, BB + "pointwise_d6d9504b25c0/oracle.py",
             "_slice_permute_clone_tail_kernel",
             [A((512, 4, 256, 40), "bfloat16"), A((512, 256, 4, 36), "bfloat16")], (512, 256, 1)))
    add(Case("BE_dropout_residual_layernorm_98e46b", g, BB + "var_mean_98e46bbef184/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((4096, 1536), "bfloat16"), A((4096, 1536), "float32"), A((4096, 1536), "float32"),
              A((1536,), "float32"), A((1536,), "float32"), A((4096, 2048), "bool"), A((4096, 2048), "float32"),
              A((4096, 2048), "float32"), A((4096, 2048), "bfloat16"), A((4096,), "float32"), K(1536),
              K(2048)], (4096, 1, 1)))
    add(Case("BE_bias_dropout_layernorm_771a0a", g, BB + "var_mean_771a0a39f4b9/oracle.py",
             "_bias_dropout_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((1024,), "float32"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"),
              A((8192, 1024), "float32"), A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"),
              A((8192, 1), "float32"), K(768), K(1024), K(1)], (8192, 1, 1)))
    add(Case("BE_ce_backward_85ee74", g, BB + "sum_sum_85ee747617a6/oracle.py", "_ce_backward_kernel",
             [A((32768, 32768), "bfloat16"), A((32768, 1), "float32"), A((32768, 1), "float32"),
              A((32768, 32768), "bfloat16"), A((32768, 1), "float32"), A((32768, 1), "int64", "index:100"),
              A((32768, 1), "bool"), A((32768, 1), "float32"), A((32768, 32768), "bfloat16"), K(30522), K(4096),
              K(1)], (32768, 8, 1)))
    add(Case("BE_safe_softmax_dropout_f4223a", g, BB + "amax_sum_any_f4223a2e8741/oracle.py",
             "_safe_softmax_dropout_kernel",
             [A((131072, 128), "bfloat16"), A((131072, 128), "bfloat16"), A((131072, 128), "float32"),
              A((131072, 128), "bfloat16"), A((131072, 128), "bool"), A((131072, 128), "bfloat16"),
              K(128)], (131072, 1, 1)))
    add(Case("BE_residual_rmsnorm_db9733", g, BB + "mean_db9733790220/oracle.py", "_residual_rmsnorm_kernel",
             [A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1024,), "bfloat16"),
              A((1000, 1024), "bfloat16"), K(1024), K(1024)], (1000, 1, 1)))
    add(Case("BE_qkv_pad_7cb263", g, BB + "pointwise_7cb263880b86/oracle.py", "_qkv_pad_kernel",
             [A((512, 16, 3, 4, 60), "bfloat16"), A((512, 4, 16, 64), "bfloat16"), A((512, 4, 16, 64), "bfloat16"),
              A((512, 4, 16, 64), "bfloat16"), K(4), K(64)], (512, 16, 1)))
    add(Case("BE_relu_gate_81f672", g, BB + "sum_sum_sum_81f672a568a0/oracle.py", "_relu_gate_kernel",
             [A((2097152,), "float32"), A((2097152,), "float32"), A((1,), "float32"), A((2097152,), "float32"),
              K(1024)], (2048, 1, 1)))
    add(Case("BE_masked_softmax_dropout_d2cf27", g, BB + "amax_sum_d2cf27b00fec/oracle.py",
             "_masked_softmax_dropout_kernel",
             [A((8, 24, 512, 512), "bfloat16"), A((8, 1, 512, 512), "bool"), A((1,), "bfloat16"),
              A((8, 24, 512, 512), "float32"), A((8, 24, 512, 512), "bfloat16"), A((8, 24, 512, 1), "float32"),
              A((8, 24, 512, 1), "float32"), A((8, 24, 512, 512), "bool"), A((8, 24, 512, 512), "bfloat16"), K(24),
              K(512), K(4), K(512)], (192, 128, 1)))
    add(Case("BE_head_layout_copy_e87d6e", g, BB + "pointwise_e87d6ebc9ded/oracle.py", "_head_layout_copy_kernel",
             [A((16, 12, 128, 64), "bfloat16"), A((2048, 768), "bfloat16"), K(128), K(64), K(64)], (16, 12, 2)))
    add(Case("BE_softmax_dropout_c92f83", g, BB + "amax_amax_any_c92f837439d6/oracle.py", "_softmax_dropout_kernel",
             [A((131072, 512), "bfloat16"), A((131072, 512), "float32"), A((131072,), "float32"),
              A((131072,), "float32"), A((131072,), "bool"), A((131072,), "float32"), A((131072, 512), "bool"),
              A((131072, 512), "bfloat16"), K(512)], (131072, 1, 1)))
    add(Case("BE_dropout_layernorm_05100e", g, BB + "var_mean_05100ef55a7f/oracle.py", "_dropout_layernorm_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"),
              K(1024)], (8192, 1, 1)))
    add(Case("BE_deberta_head_div_598163", g, BB + "pointwise_598163daa1a2/oracle.py", "_deberta_head_div_kernel",
             [A((8, 512, 24, 64), "bfloat16"), A((1,), "bfloat16"), A((8, 24, 512, 64), "bfloat16"),
              K(64)], (8, 24, 512)))
    add(Case("BE_nfnet_gelu_scale_bf16_1df91f", g, BB + "pointwise_1df91f562302/oracle.py",
             "_nfnet_gelu_scale_bf16_kernel",
             [A((6291456,), "bfloat16"), A((6291456,), "bfloat16"), K(1024)], (6144, 1, 1)))
    add(Case("BE_shuffle_materialize_1ec65e", g, BB + "sum_sum_1ec65e499477/oracle.py",
             "_shuffle_materialize_kernel",
             [A((2910208,), "bfloat16"), A((2910208,), "bfloat16"), K(1024)], (2842, 1, 1)))
    add(Case("BE_bn_reduce_1ec65e", g, BB + "sum_sum_1ec65e499477/oracle.py", "_bn_reduce_kernel",
             [A((2910208,), "bfloat16"), A((1455104,), "bfloat16"), A((232,), "float32"), A((232,), "float32"),
              A((232,), "float32"), A((232,), "float32"), A((1,), "bfloat16"), A((232,), "float32"),
              A((232,), "float32"), K(8192)], (232, 1, 1)))
    add(Case("BE_bn_epilogue_1ec65e", g, BB + "sum_sum_1ec65e499477/oracle.py", "_bn_epilogue_kernel",
             [A((2910208,), "bfloat16"), A((1455104,), "bfloat16"), A((232,), "float32"), A((232,), "float32"),
              A((232,), "float32"), A((232,), "float32"), A((1,), "bfloat16"), A((232,), "float32"),
              A((232,), "float32"), A((232,), "float32"), A((1455104,), "bfloat16"), K(256)], (5684, 1, 1)))
    add(Case("BE_key_layout_3ce87c", g, BB + "pointwise_3ce87c35ea2d/oracle.py", "_key_layout_kernel",
             [A((32, 128, 16, 128), "bfloat16"), A((32, 16, 128, 128), "float32"), K(128), K(128)], (32, 16, 1)))
    add(Case("BE_roberta_embedding_layernorm_d1f8c2", g, BB + "var_mean_d1f8c258a72a/oracle.py",
             "_roberta_embedding_layernorm_kernel",
             [A((50265, 768), "bfloat16"), A((16384,), "int64", "index:50265"), A((512,), "int64", "index:2"),
              A((16384,), "int64", "index:22"), A((16384,), "int32", "index:22"), A((2, 768), "bfloat16"),
              A((512, 768), "bfloat16"), A((768,), "bfloat16"), A((768,), "bfloat16"), A((12582912,), "bfloat16"),
              K(16384), K(768), K(1e-12), K(2), K(1024)], (8192, 1, 1)))
    add(Case("BE_softmax_dropout_dad9c0", g, BB + "amax_sum_dad9c0a4a061/oracle.py", "_softmax_dropout_kernel",
             [A((98304, 512), "bfloat16"), A((4096, 512), "bool"), A((1,), "bfloat16"), A((98304, 512), "float32"),
              A((98304, 512), "bfloat16"), A((98304,), "float32"), A((98304,), "float32"), A((98304, 512), "bool"),
              A((98304, 512), "bfloat16"), K(512), K(12288)], (98304, 1, 1)))
    add(Case("BE_dropout_residual_ln_cebddd", g, BB + "mean_var_cebddda52e7b/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((2048, 768), "bfloat16"), A((2048, 768), "float32"), A((2048, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((1572864,), "bool"), A((1572864,), "float32"),
              A((2048,), "float32"), A((1572864,), "float32"), A((1572864,), "bfloat16"), K(768),
              K(1024)], (2048, 1, 1)))
    add(Case("BE_direct_reduce_12bce2", g, BB + "sum_sum_12bce2738ed4/oracle.py", "_direct_reduce_kernel",
             [A((32, 960), "bfloat16"), A((1568, 960), "bfloat16"), A((960,), "float32"), A((960,), "float32"),
              A((960,), "float32"), A((960,), "float32"), A((1,), "float32"), A((960,), "float32"),
              A((960,), "float32"), A((960,), "float32"), K(1568), K(49), K(2048), K(32)], (30, 1, 1)))
    add(Case("BE_epilogue_12bce2", g, BB + "sum_sum_12bce2738ed4/oracle.py", "_epilogue_kernel",
             [A((32, 960), "bfloat16"), A((1568, 960), "bfloat16"), A((960,), "float32"), A((960,), "float32"),
              A((960,), "float32"), A((960,), "float32"), A((1,), "float32"), A((960,), "float32"),
              A((960,), "float32"), A((1568, 960), "bfloat16"), K(1568), K(49), K(32), K(32),
              K(0.0006377551020408163)], (49, 30, 1)))
    add(Case("BE_causal_mask_3d1658", g, BB + "pointwise_3d165823bbc0/oracle.py", "_causal_mask_kernel",
             [A((16, 1024), "bool"), A((16, 1024, 1024), "bool"), K(1024), K(16), K(128)], (16, 64, 8)))
    add(Case("BE_softmax_with_bias_57fd7f", g, BB + "amax_sum_57fd7ff76261/oracle.py", "_softmax_with_bias_kernel",
             [A((65536, 1024), "bfloat16"), A((8, 8, 1024, 1024), "bfloat16"), A((65536, 1024), "bfloat16"), K(8),
              K(1024), K(1024), K(1024)], (65536, 1, 1)))
    add(Case("BE_relu_flatten_c4106f", g, BB + "pointwise_c4106fae2a64/oracle.py", "_relu_flatten_kernel",
             [A((655360,), "bfloat16"), A((655360,), "bfloat16"), K(1024)], (640, 1, 1)))
    add(Case("BE_product_partial_ed6f0f", g, BB + "sum_ed6f0f7c8016/oracle.py", "_product_partial_kernel",
             [A((4096, 2560), "float32"), A((4096, 2560), "bool"), A((4096, 2560), "bfloat16"),
              A((32, 2560), "float32"), K(128), K(128)], (32, 20, 1)))
    add(Case("BE_finalize_sum_ed6f0f", g, BB + "sum_ed6f0f7c8016/oracle.py", "_finalize_sum_kernel",
             [A((32, 2560), "float32"), A((2560,), "float32"), K(32), K(128)], (20, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-be-launch"))]
