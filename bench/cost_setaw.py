"""Validation set AW: 33 launches of 22 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to AV were, from
the files none of them nor sets W and Y used, after set AV was drawn, while model version 87 was the
latest; version 87's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py AW BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 412 of sets W, Y and AG to AV,
`random.Random(52).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
No file was passed over. So the sizes, tile sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-aw`) and as tilescope's launch builds it
(`validate-aw-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setaw_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-aw"
    add(Case("AW_branch_bn_relu_cat_d8eeab", g, BB + "pointwise_d8eeabccee6e/oracle.py",
             "_branch_bn_relu_cat_kernel",
             [A((320,), "bfloat16"), A((128, 64, 320), "bfloat16"), A((320,), "bfloat16"), A((320,), "bfloat16"),
              A((320,), "bfloat16"), A((128, 64, 320), "bfloat16"), K(320), K(0), K(16), K(64)], (128, 4, 5)))
    add(Case("AW_branch_bn_relu_cat_d8eeab_2", g, BB + "pointwise_d8eeabccee6e/oracle.py",
             "_branch_bn_relu_cat_kernel",
             [A((384,), "bfloat16"), A((128, 64, 384), "bfloat16"), A((384,), "bfloat16"), A((384,), "bfloat16"),
              A((384,), "bfloat16"), A((128, 64, 384), "bfloat16"), K(384), K(0), K(16), K(64)], (128, 4, 6)))
    add(Case("AW_branch_bn_relu_cat_d8eeab_3", g, BB + "pointwise_d8eeabccee6e/oracle.py",
             "_branch_bn_relu_cat_kernel",
             [A((192,), "bfloat16"), A((128, 64, 192), "bfloat16"), A((192,), "bfloat16"), A((192,), "bfloat16"),
              A((192,), "bfloat16"), A((128, 64, 192), "bfloat16"), K(192), K(0), K(16), K(64)], (128, 4, 3)))
    add(Case("AW_softmax_dropout_bf0fd4", g, BB + "amax_sum_bf0fd469b53e/oracle.py", "_softmax_dropout_kernel",
             [A((98304, 1024), "bfloat16"), A((98304, 1024), "float32"), A((0,), "bool"), A((98304, 1), "float32"),
              A((98304, 1), "float32"), A((98304, 1024), "bool"), A((98304, 1024), "bfloat16"), K(513), K(1),
              K(1024)], (98304, 1, 1)))
    add(Case("AW_dropout_layernorm_3d651d", g, BB + "var_mean_3d651d7390ce/oracle.py", "_dropout_layernorm_kernel",
             [A((4096, 2048), "bfloat16"), A((4096, 2048), "float32"), A((4096, 2048), "float32"),
              A((2048,), "float32"), A((2048,), "float32"), A((4096, 2048), "bool"), A((4096, 2048), "float32"),
              A((4096, 2048), "float32"), A((4096, 2048), "bfloat16"), A((4096,), "float32"), K(1536),
              K(2048)], (4096, 1, 1)))
    add(Case("AW_residual_layernorm_0ada22", g, BB + "var_mean_0ada225c0a04/oracle.py",
             "_residual_layernorm_kernel",
             [A((32768, 768), "bfloat16"), A((32768, 768), "bfloat16"), A((768,), "bfloat16"),
              A((768,), "bfloat16"), A((32768, 768), "bfloat16"), K(768), K(1024), K(4)], (8192, 1, 1)))
    add(Case("AW_bn_tail_556a35", g, BB + "sum_sum_556a358991be/oracle.py", "_bn_tail_kernel",
             [A((4, 512, 28, 28), "bfloat16"), A((4, 480, 28, 28), "bfloat16"), A((1,), "bfloat16"),
              A((4, 480, 28, 28), "bfloat16"), A((4, 480, 28, 28), "bfloat16"), A((480,), "float32"),
              A((480,), "float32"), A((480,), "float32"), A((480,), "float32"), A((480,), "float32"),
              A((4, 480, 28, 28), "bfloat16"), A((4, 32, 28, 28), "bfloat16"), K(480), K(784), K(3136), K(4),
              K(448), K(32), K(512), K(0.00031887755102040814), K(4096)], (480, 1, 1)))
    add(Case("AW_col_sum_d283de", g, BB + "sum_sum_d283dea24dab/oracle.py", "_col_sum_kernel",
             [A((100352, 100), "bfloat16"), A((100,), "float32"), K(100352), K(100), K(128), K(16)], (7, 1, 1)))
    add(Case("AW_softmax_dropout_99e031", g, BB + "amax_sum_99e031979c34/oracle.py", "_softmax_dropout_kernel",
             [A((98304, 1024), "bfloat16"), A((98304, 1), "bool"), A((1,), "float32"), A((98304, 1024), "float32"),
              A((98304, 1), "float32"), A((98304, 1), "float32"), A((98304, 1024), "bool"),
              A((98304, 1024), "bfloat16"), K(513), K(1024), K(0.1), K(1.1111111111111112)], (98304, 1, 1)))
    add(Case("AW_relu_dropout_masks_099e5b", g, BB + "pointwise_099e5b919a05/oracle.py",
             "_relu_dropout_masks_kernel",
             [A((16777216,), "bfloat16"), A((16777216,), "float32"), A((16777216,), "bool"),
              A((16777216,), "bfloat16"), A((16777216,), "bool"), K(1024)], (16384, 1, 1)))
    add(Case("AW_gelu_scale_288dc6", g, BB + "pointwise_288dc69505cc/oracle.py", "_gelu_scale_kernel",
             [A((25165824,), "bfloat16"), A((25165824,), "bfloat16"), A((25165824,), "bfloat16"), K(25165824),
              K(1024)], (24576, 1, 1)))
    add(Case("AW_bn_relu_reduce_e681bc", g, BB + "sum_sum_e681bc3d9d59/oracle.py", "_bn_relu_reduce_kernel",
             [A((32, 72), "bfloat16"), A((32, 784, 72), "bfloat16"), A((72,), "float32"), A((72,), "float32"),
              A((72,), "float32"), A((72,), "float32"), A((32, 784, 72), "bfloat16"), A((1,), "float32"),
              A((32, 72), "float32"), A((32, 784, 72), "bfloat16"), A((32, 72), "bfloat16"), K(784), K(1024),
              K(72)], (32, 72, 1)))
    add(Case("AW_final_channel_sum_e681bc", g, BB + "sum_sum_e681bc3d9d59/oracle.py", "_final_channel_sum_kernel",
             [A((32, 72), "bfloat16"), A((72,), "float32"), K(72), K(32), K(32), K(64)], (2, 1, 1)))
    add(Case("AW_relu_mask_4a3cb5", g, BB + "pointwise_4a3cb5b99475/oracle.py", "_relu_mask_kernel",
             [A((33554432,), "bfloat16"), A((33554432,), "bfloat16"), A((33554432,), "bool"),
              K(1024)], (32768, 1, 1)))
    add(Case("AW_partial_reduce_052b3b", g, BB + "sum_sum_052b3bc6efa8/oracle.py", "_partial_reduce_kernel",
             [A((177020928,), "bfloat16"), A((177020928,), "bfloat16"), A((64,), "float32"), A((64,), "float32"),
              A((64,), "float32"), A((64,), "float32"), A((1,), "bfloat16"), A((691520,), "float32"),
              A((691520,), "float32"), K(64), K(21609), K(2765952), K(10805), K(32), K(256)], (2, 10805, 1)))
    add(Case("AW_finalize_052b3b", g, BB + "sum_sum_052b3bc6efa8/oracle.py", "_finalize_kernel",
             [A((64, 10805), "float32"), A((64, 10805), "float32"), A((64,), "float32"), A((64,), "float32"),
              A((64,), "float32"), A((64,), "float32"), A((64,), "float32"), K(10805), K(16384)], (64, 1, 1)))
    add(Case("AW_epilogue_052b3b", g, BB + "sum_sum_052b3bc6efa8/oracle.py", "_epilogue_kernel",
             [A((177020928,), "bfloat16"), A((177020928,), "bfloat16"), A((64,), "float32"), A((64,), "float32"),
              A((64,), "float32"), A((64,), "float32"), A((1,), "bfloat16"), A((64,), "float32"),
              A((64,), "float32"), A((177020928,), "bfloat16"), K(64), K(2765952), K(32), K(256),
              K(3.6153917349252627e-07)], (2, 10805, 1)))
    add(Case("AW_ln_bwd_and_partials_4ce901", g, BB + "sum_sum_sum_4ce9013c6e0d/oracle.py",
             "_ln_bwd_and_partials_kernel",
             [A((8, 512, 128), "bfloat16"), A((128,), "float32"), A((8, 512, 128), "float32"),
              A((8, 512, 1), "float32"), A((8, 512, 128), "float32"), A((512, 128), "float32"),
              A((512, 128), "float32"), K(512), K(128), K(8), K(128.0)], (512, 1, 1)))
    add(Case("AW_finalize_hidden_sums_4ce901", g, BB + "sum_sum_sum_4ce9013c6e0d/oracle.py",
             "_finalize_hidden_sums_kernel",
             [A((512, 128), "float32"), A((512, 128), "float32"), A((128,), "float32"), A((128,), "float32"),
              K(512), K(128)], (1, 1, 1)))
    add(Case("AW_partial_stats_94d5b5", g, BB + "var_mean_mean_94d5b5ab5e6e/oracle.py", "_partial_stats_kernel",
             [A((491520, 49), "bfloat16"), A((512, 960), "float32"), A((512, 960), "float32"), K(960), K(49),
              K(64), K(1)], (960, 512, 1)))
    add(Case("AW_finalize_stats_94d5b5", g, BB + "var_mean_mean_94d5b5ab5e6e/oracle.py", "_finalize_stats_kernel",
             [A((512, 960), "float32"), A((512, 960), "float32"), A((960,), "float32"), A((960,), "float32"),
              A((960,), "float32"), A((960,), "float32"), K(960), K(512), K(512), K(25088),
              K(1.0000398612827361)], (960, 1, 1)))
    add(Case("AW_hardswish_spatial_mean_94d5b5", g, BB + "var_mean_mean_94d5b5ab5e6e/oracle.py",
             "_hardswish_spatial_mean_kernel",
             [A((491520, 49), "bfloat16"), A((960,), "float32"), A((960,), "float32"), A((960,), "float32"),
              A((960,), "float32"), A((491520,), "bfloat16"), K(960), K(49), K(64)], (491520, 1, 1)))
    add(Case("AW_xlnet_train_softmax_dropout_1032c7", g, BB + "amax_amax_any_1032c76c1118/oracle.py",
             "_xlnet_train_softmax_dropout_kernel",
             [A((131072, 512), "bfloat16"), A((134217728,), "bfloat16"), A((512,), "int64", "index:16"),
              A((131072, 512), "float32"), A((131072, 512), "bfloat16"), A((131072,), "float32"),
              A((131072,), "float32"), A((131072,), "bool"), A((131072,), "float32"), A((131072, 512), "bool"),
              A((131072, 512), "bfloat16"), K(512)], (131072, 1, 1)))
    add(Case("AW_relative_position_softmax_9ebf0d", g, BB + "amax_sum_9ebf0de28bbb/oracle.py",
             "_relative_position_softmax_kernel",
             [A((3145728,), "bfloat16"), A((192,), "bfloat16"), A((3145728,), "bfloat16"),
              A((3145728,), "bfloat16"), K(24576), K(6), K(128), K(128), K(8), K(128)], (3072, 1, 1)))
    add(Case("AW_fused_cat_bn_relu_7ede8d", g, BB + "var_mean_7ede8d1b11ff/oracle.py", "_fused_cat_bn_relu_kernel",
             [A((100352,), "bfloat16"), A((6272,), "bfloat16"), A((6272,), "bfloat16"), A((576,), "float32"),
              A((576,), "float32"), A((576,), "float32"), A((576,), "float32"), A((112896,), "bfloat16"),
              A((576,), "float32"), A((112896,), "bfloat16"), A((576,), "float32"), K(4), K(576), K(512), K(32),
              K(7), K(7), K(196), K(256)], (576, 1, 1)))
    add(Case("AW_densenet_bn_tail_8b1ecd", g, BB + "sum_sum_8b1ecd6ea781/oracle.py", "_densenet_bn_tail_kernel",
             [A((802816,), "bfloat16"), A((777728,), "bfloat16"), A((752640,), "bfloat16"),
              A((727552,), "bfloat16"), A((702464,), "bfloat16"), A((677376,), "bfloat16"),
              A((652288,), "bfloat16"), A((1,), "bfloat16"), A((652288,), "bfloat16"), A((652288,), "bfloat16"),
              A((832,), "float32"), A((832,), "float32"), A((832,), "float32"), A((832,), "float32"),
              A((832,), "float32"), A((652288,), "bfloat16"), A((25088,), "bfloat16"), K(196), K(784),
              K(1024)], (832, 1, 1)))
    add(Case("AW_store_partials_46c77e", g, BB + "sum_sum_sum_46c77e1ef34a/oracle.py", "_store_partials_kernel",
             [A((32768, 256), "bfloat16"), A((32768, 256), "float32"), A((256,), "float32"),
              A((32768, 256), "bfloat16"), A((32768,), "float32"), A((32768,), "float32"), A((32768, 256), "bool"),
              A((32768, 256), "bfloat16"), A((32768, 256), "bfloat16"), A((256, 3, 256), "float32"), K(256),
              K(256.0), K(0.00390625), K(1.1111111111111112), K(128), K(32)], (256, 1, 1)))
    add(Case("AW_finalize_partials_46c77e", g, BB + "sum_sum_sum_46c77e1ef34a/oracle.py",
             "_finalize_partials_kernel",
             [A((256, 3, 256), "float32"), A((256,), "float32"), A((256,), "float32"), A((256,), "float32"),
              K(256), K(256), K(8)], (32, 1, 1)))
    add(Case("AW_xlnet_softmax_e61987", g, BB + "amax_amax_any_e61987f30f6b/oracle.py", "_xlnet_softmax_kernel",
             [A((131072, 512), "bfloat16"), A((131072, 512), "bfloat16"), A((131072, 512), "float32"),
              A((131072, 512), "bfloat16"), A((131072,), "float32"), A((131072,), "float32"), A((131072,), "bool"),
              A((131072,), "float32"), A((131072, 512), "bool"), A((131072, 512), "bfloat16"),
              K(512)], (131072, 1, 1)))
    add(Case("AW_segmented_causal_mask_aa3034", g, BB + "pointwise_aa30343135f0/oracle.py",
             "_segmented_causal_mask_kernel",
             [A((32, 512), "int64", "index:32"), A((32, 1, 512, 512), "bfloat16"), K(16), K(64),
              K(float("-inf"))], (32, 32, 8)))
    add(Case("AW_pad_right_52903d", g, BB + "amax_sum_sum_52903d400fef/oracle.py", "_pad_right_kernel",
             [A((16384,), "int64", "index:100"), A((16416,), "int64"), K(512)], (33, 1, 1)))
    add(Case("AW_shifted_xent_stats_rows_52903d", g, BB + "amax_sum_sum_52903d400fef/oracle.py",
             "_shifted_xent_stats_rows_kernel",
             [A((16384,), "int64", "index:100"), A((16384, 50272), "bfloat16"), A((16384,), "float32"),
              A((16384,), "float32"), A((16384,), "float32"), A((16384,), "float32"), K(50265), K(50272), K(512),
              K(4096)], (16384, 1, 1)))
    add(Case("AW_mean_reduce_52903d", g, BB + "amax_sum_sum_52903d400fef/oracle.py", "_mean_reduce_kernel",
             [A((16384,), "float32"), A((16384,), "float32"), A((1,), "float32"), A((1,), "float32"), K(16384),
              K(16384)], (1, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-aw-launch"))]
