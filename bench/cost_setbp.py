"""Validation set BP: 32 launches of 22 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to BO were, from
the files none of them nor sets W and Y used, after set BO was drawn, while model version 106 was the
latest; version 106's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py BP BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 856 of sets W, Y and AG to BO,
`random.Random(71).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
Three files were passed over, each for a launch the cases cannot hold (pointwise_b43af69d4124,
amax_sum_sum_4bf8a79efec4, pointwise_1611fb0c7845). So the
sizes, tile sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-bp`) and as tilescope's launch builds it
(`validate-bp-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setbp_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-bp"
    add(Case("BP_partial_reduce_8afaa9", g, BB + "sum_sum_8afaa9a479f1/oracle.py", "_partial_reduce_kernel",
             [A((32768, 128), "bfloat16"), A((32768, 128), "bfloat16"), A((128,), "float32"), A((128,), "float32"), A((128,), "float32"), A((128,), "float32"), A((32768, 128), "bfloat16"), A((128, 128), "float32"), A((128, 128), "float32"), K(128), K(256), K(128)], (1, 128, 1)))
    add(Case("BP_finalize_8afaa9", g, BB + "sum_sum_8afaa9a479f1/oracle.py", "_finalize_kernel",
             [A((128, 128), "float32"), A((128, 128), "float32"), A((128,), "float32"), A((128,), "float32"), A((128,), "float32"), A((128,), "float32"), K(128), K(128)], (128, 1, 1)))
    add(Case("BP_epilogue_8afaa9", g, BB + "sum_sum_8afaa9a479f1/oracle.py", "_epilogue_kernel",
             [A((32768, 128), "bfloat16"), A((128,), "float32"), A((128,), "float32"), A((128,), "float32"), A((32768, 128), "bfloat16"), A((128,), "float32"), A((128,), "float32"), A((32768, 128), "bfloat16"), K(3.0517578125e-05), K(256), K(128)], (128, 1, 1)))
    add(Case("BP_bf16_cast_d2c97d", g, BB + "sum_sum_sum_d2c97d17f3dc/oracle.py", "_bf16_cast_kernel",
             [A((67108864,), "float32"), A((67108864,), "bfloat16"), K(1024)], (65536, 1, 1)))
    add(Case("BP_bias_dropout_ln_e59fb8", g, BB + "var_mean_e59fb82095be/oracle.py", "_bias_dropout_ln_kernel",
             [A((8192, 768), "bfloat16"), A((768,), "float32"), A((8192, 768), "float32"), A((8192, 768), "float32"), A((768,), "float32"), A((768,), "float32"), A((8192, 768), "bool"), A((8192, 768), "float32"), A((8192, 768), "float32"), A((8192, 768), "bfloat16"), A((8192,), "float32"), K(768), K(1024)], (8192, 1, 1)))
    add(Case("BP_xlnet_softmax_dropout_64122c", g, BB + "amax_amax_any_64122cb93d29/oracle.py", "_xlnet_softmax_dropout_kernel",
             [A((131072, 512), "bfloat16"), A((131072, 512), "bfloat16"), A((131072, 512), "float32"), A((131072, 512), "bfloat16"), A((131072,), "float32"), A((131072,), "float32"), A((131072,), "bool"), A((131072,), "float32"), A((131072, 512), "bool"), A((131072, 512), "bfloat16"), K(512)], (131072, 1, 1)))
    add(Case("BP_padded_transpose_644fa7", g, BB + "pointwise_644fa7675014/oracle.py", "_padded_transpose_kernel",
             [A((20005, 768), "bfloat16"), A((768, 20008), "bfloat16"), K(20005), K(20008), K(768), K(64), K(64)], (313, 12, 1)))
    add(Case("BP_dual_dropout_layernorm_236af0", g, BB + "mean_var_236af0aff0ee/oracle.py", "_dual_dropout_layernorm_kernel",
             [A((2048, 768), "bfloat16"), A((2048, 768), "float32"), A((2048, 768), "float32"), A((2048, 768), "float32"), A((768,), "float32"), A((768,), "float32"), A((2048, 768), "bool"), A((2048, 768), "bool"), A((2048, 768), "float32"), A((2048,), "float32"), A((2048, 768), "float32"), A((2048, 768), "bfloat16"), K(768), K(1024)], (2048, 1, 1)))
    add(Case("BP_bn_partial_stats_ff900e", g, BB + "var_mean_ff900ef0c453/oracle.py", "_bn_partial_stats_kernel",
             [A((160, 4704), "bfloat16"), A((2, 160), "float32"), A((2, 160), "float32"), K(4704), K(4096)], (160, 2, 1)))
    add(Case("BP_bn_finalize_stats_ff900e", g, BB + "var_mean_ff900ef0c453/oracle.py", "_bn_finalize_stats_kernel",
             [A((2, 160), "float32"), A((2, 160), "float32"), A((160,), "float32"), A((160,), "float32"), A((160,), "float32"), A((160,), "float32"), K(4704), K(2), K(2), K(1e-05), K(0.1), K(1.0002126302360195)], (160, 1, 1)))
    add(Case("BP_affine_residual_ff900e", g, BB + "var_mean_ff900ef0c453/oracle.py", "_affine_residual_kernel",
             [A((752640,), "bfloat16"), A((752640,), "bfloat16"), A((160,), "float32"), A((160,), "float32"), A((160,), "float32"), A((160,), "float32"), A((752640,), "bfloat16"), K(160), K(49), K(512)], (1470, 1, 1)))
    add(Case("BP_bias_dropout_ln_a93937", g, BB + "var_mean_a93937c5ef33/oracle.py", "_bias_dropout_ln_kernel",
             [A((8192, 768), "bfloat16"), A((768,), "float32"), A((8192, 768), "float32"), A((8192, 768), "float32"), A((768,), "float32"), A((768,), "float32"), A((8192, 768), "bool"), A((8192, 768), "float32"), A((8192, 768), "float32"), A((8192, 768), "bfloat16"), A((8192,), "float32"), K(768), K(1024)], (8192, 1, 1)))
    add(Case("BP_le_zero_1c9e61", g, BB + "pointwise_1c9e61a3de47/oracle.py", "_le_zero_kernel",
             [A((25233408,), "bfloat16"), A((25233408,), "bool"), K(1024)], (24642, 1, 1)))
    add(Case("BP_causal_mask_6410fc", g, BB + "pointwise_6410fc21ba59/oracle.py", "_causal_mask_kernel",
             [A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), A((1000, 1024), "bfloat16"), K(1000), K(1024)], (1000, 1, 1)))
    add(Case("BP_bn_reduce_and_dense_936e83", g, BB + "sum_sum_936e8304ff14/oracle.py", "_bn_reduce_and_dense_kernel",
             [A((192, 3136), "bfloat16"), A((1,), "bfloat16"), A((192, 3136), "bfloat16"), A((192, 3136), "bfloat16"), A((192,), "float32"), A((192,), "float32"), A((192,), "float32"), A((192,), "float32"), A((192,), "float32"), A((192, 3136), "bfloat16"), K(192), K(3136), K(0.00031887755102040814), K(4096)], (192, 1, 1)))
    add(Case("BP_safe_softmax_dropout_34ccb8", g, BB + "amax_sum_any_34ccb88507ce/oracle.py", "_safe_softmax_dropout_kernel",
             [A((393216, 128), "bfloat16"), A((393216, 128), "bfloat16"), A((393216, 128), "float32"), A((393216, 128), "bfloat16"), A((393216, 128), "bool"), A((393216, 128), "bfloat16"), K(128)], (393216, 1, 1)))
    add(Case("BP_bf16_cast_7d7f50", g, BB + "sum_sum_sum_7d7f5082453e/oracle.py", "_bf16_cast_kernel",
             [A((10035200,), "float32"), A((10035200,), "bfloat16"), K(1024)], (9800, 1, 1)))
    add(Case("BP_partial_spatial_reduce_868cea", g, BB + "sum_sum_868cea3d5857/oracle.py", "_partial_spatial_reduce_kernel",
             [A((64161792,), "bfloat16"), A((57802752,), "bfloat16"), A((144,), "float32"), A((144,), "float32"), A((144,), "float32"), A((144,), "float32"), A((903168,), "float32"), K(128), K(144), K(56), K(56), K(59), K(59), K(32), K(128)], (14112, 1, 1)))
    add(Case("BP_finalize_channel_reduce_868cea", g, BB + "sum_sum_868cea3d5857/oracle.py", "_finalize_channel_reduce_kernel",
             [A((903168,), "float32"), A((288,), "float32"), A((144,), "float32"), A((144,), "float32"), A((144,), "float32"), K(144), K(3136), K(2.4912308673469386e-06), K(4096)], (144, 1, 1)))
    add(Case("BP_epilogue_868cea", g, BB + "sum_sum_868cea3d5857/oracle.py", "_epilogue_kernel",
             [A((64161792,), "bfloat16"), A((57802752,), "bfloat16"), A((144,), "float32"), A((144,), "float32"), A((144,), "float32"), A((144,), "float32"), A((288,), "float32"), A((57802752,), "bfloat16"), K(128), K(144), K(56), K(56), K(59), K(59), K(57802752), K(1024)], (56448, 1, 1)))
    add(Case("BP_softmax_dropout_192e2b", g, BB + "amax_sum_192e2b05a200/oracle.py", "_softmax_dropout_kernel",
             [A((24576, 128), "bfloat16"), A((24576, 128), "float32"), A((24576, 128), "float32"), A((24576, 128), "bfloat16"), A((24576,), "float32"), A((24576,), "float32"), A((24576, 128), "bool"), A((24576, 128), "bfloat16"), K(128)], (24576, 1, 1)))
    add(Case("BP_weight_standardization_f7f800", g, BB + "var_mean_f7f800689be3/oracle.py", "_weight_standardization_kernel",
             [A((768, 2048), "float32"), A((768,), "float32"), A((768,), "float32"), A((768, 2048), "bfloat16"), A((768,), "float32"), K(1152), K(2048)], (768, 1, 1)))
    add(Case("BP_residual_layernorm_49afc8", g, BB + "var_mean_49afc8635b79/oracle.py", "_residual_layernorm_kernel",
             [A((8192, 768), "bfloat16"), A((8192, 768), "bfloat16"), A((768,), "bfloat16"), A((768,), "bfloat16"), A((8192, 1024), "bfloat16"), A((8192, 1024), "bfloat16"), K(768), K(1024)], (8192, 1, 1)))
    add(Case("BP_copy_first_hidden_49afc8", g, BB + "var_mean_49afc8635b79/oracle.py", "_copy_first_hidden_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 768), "bfloat16"), K(8192), K(768), K(1), K(256)], (8192, 3, 1)))
    add(Case("BP_add_bf16_bf3fda", g, BB + "sum_sum_bf3fda8e124c/oracle.py", "_add_bf16_kernel",
             [A((38535168,), "bfloat16"), A((38535168,), "bfloat16"), A((38535168,), "bfloat16"), K(1024)], (37632, 1, 1)))
    add(Case("BP_partial_reduce_bf3fda", g, BB + "sum_sum_bf3fda8e124c/oracle.py", "_partial_reduce_kernel",
             [A((1605632, 12), "bfloat16"), A((1605632, 12), "bfloat16"), A((12,), "float32"), A((1568, 12), "float32"), A((1568, 12), "float32"), K(1605632), K(12), K(1024), K(16)], (1568, 1, 1)))
    add(Case("BP_finalize_partials_bf3fda", g, BB + "sum_sum_bf3fda8e124c/oracle.py", "_finalize_partials_kernel",
             [A((1568, 12), "float32"), A((1568, 12), "float32"), A((12,), "float32"), A((12,), "float32"), K(1568), K(12), K(2048), K(16)], (1, 1, 1)))
    add(Case("BP_bn_backward_bf3fda", g, BB + "sum_sum_bf3fda8e124c/oracle.py", "_bn_backward_kernel",
             [A((1605632, 12), "bfloat16"), A((1605632, 12), "bfloat16"), A((12,), "float32"), A((12,), "float32"), A((12,), "float32"), A((12,), "float32"), A((1605632, 12), "bfloat16"), K(16)], (1605632, 1, 1)))
    add(Case("BP_causal_mask_5_e2bdfd", g, BB + "pointwise_e2bdfd3a6695/oracle.py", "_causal_mask_5_kernel",
             [A((1000000,), "bfloat16"), A((1000000,), "bfloat16"), A((1000000,), "bfloat16"), A((1000000,), "bfloat16"), A((1000000,), "bfloat16"), K(1000), K(1000), K(64)], (15625, 1, 1)))
    add(Case("BP_longformer_embedding_layernorm_fbfc01", g, BB + "var_mean_fbfc0104897d/oracle.py", "_longformer_embedding_layernorm_kernel",
             [A((50265, 768), "bfloat16"), A((8192,), "int64", "index:50263"), A((8192,), "int64", "index:64"), A((8192,), "int32", "index:64"), A((4098, 768), "bfloat16"), A((768,), "bfloat16"), A((768,), "bfloat16"), A((768,), "bfloat16"), A((8192, 768), "bfloat16"), K(768), K(1024)], (8192, 1, 1)))
    add(Case("BP_bn_tail_0c9cec", g, BB + "sum_sum_0c9cec267360/oracle.py", "_bn_tail_kernel",
             [A((128, 152, 4, 4), "bfloat16"), A((128, 136, 4, 4), "bfloat16"), A((1,), "bfloat16"), A((128, 136, 4, 4), "bfloat16"), A((128, 136, 4, 4), "bfloat16"), A((136,), "float32"), A((136,), "float32"), A((136,), "float32"), A((136,), "float32"), A((136,), "float32"), A((128, 136, 4, 4), "bfloat16"), K(128), K(16), K(0.00048828125)], (136, 1, 1)))
    add(Case("BP_dropout_residual_layernorm_b5aeec", g, BB + "var_mean_b5aeecfb82a3/oracle.py", "_dropout_residual_layernorm_kernel",
             [A((16384, 768), "bfloat16"), A((16384, 768), "float32"), A((16384, 768), "float32"), A((768,), "float32"), A((768,), "float32"), A((16384, 768), "bool"), A((16384, 768), "float32"), A((16384, 768), "float32"), A((16384, 768), "bfloat16"), A((16384, 1), "float32"), K(768), K(1024), K(1)], (16384, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-bp-launch"))]
