"""Validation set BA: 32 launches of 22 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to AZ were, from
the files none of them nor sets W and Y used, after set AZ was drawn, while model version 89 was the
latest; version 89's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py BA BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 498 of sets W, Y and AG to AZ,
`random.Random(56).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
One file was passed over, with a launch the cases cannot hold (var_mean_fded946cd26f). So the
sizes, tile sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-ba`) and as tilescope's launch builds it
(`validate-ba-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setba_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-ba"
    add(Case("BA_dropout_residual_ln_dd2fe2", g, BB + "var_mean_dd2fe2576476/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024),
              K(1024)], (8192, 1, 1)))
    add(Case("BA_scaled_softmax_dropout_f394b5", g, BB + "amax_amax_any_f394b5666305/oracle.py",
             "_scaled_softmax_dropout_kernel",
             [A((196608, 512), "bfloat16"), A((196608, 512), "float32"), A((196608, 1), "float32"),
              A((196608, 1), "float32"), A((196608, 1), "bool"), A((196608, 1), "float32"),
              A((196608, 512), "bool"), A((196608, 512), "bfloat16"), K(512), K(1), K(512)], (196608, 1, 1)))
    add(Case("BA_layernorm_row_38fe02", g, BB + "var_mean_38fe02d3252c/oracle.py", "_layernorm_row_kernel",
             [A((25216, 192), "bfloat16"), A((25216, 192), "float32"), A((25216, 256), "float32"),
              A((25216,), "float32"), K(192), K(1e-06), K(256)], (25216, 1, 1)))
    add(Case("BA_class_affine_38fe02", g, BB + "var_mean_38fe02d3252c/oracle.py", "_class_affine_kernel",
             [A((25216, 256), "float32"), A((192,), "float32"), A((192,), "float32"), A((128, 256), "bfloat16"),
              K(197), K(256)], (128, 1, 1)))
    add(Case("BA_dropout_residual_ln_98dfd9", g, BB + "var_mean_98dfd95c9655/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((8192, 1024), "bfloat16"), A((8192, 1024), "float32"), A((8192, 1024), "float32"),
              A((1024,), "float32"), A((1024,), "float32"), A((8192, 1024), "bool"), A((8192, 1024), "float32"),
              A((8192, 1024), "float32"), A((8192, 1024), "bfloat16"), A((8192,), "float32"), K(1024),
              K(1024)], (8192, 1, 1)))
    add(Case("BA_materialize_spatial_sum_894e62", g, BB + "sum_894e623ad263/oracle.py",
             "_materialize_spatial_sum_kernel",
             [A((294912,), "bfloat16"), A((14450688,), "bfloat16"), A((14450688,), "bfloat16"),
              A((294912,), "float32"), K(2304), K(7), K(7), K(49), K(112896), K(1), K(16128), K(2304), K(64),
              K(64)], (128, 36, 1)))
    add(Case("BA_final_channel_sum_894e62", g, BB + "sum_894e623ad263/oracle.py", "_final_channel_sum_kernel",
             [A((294912,), "float32"), A((2304,), "float32"), K(128), K(2304), K(128), K(64)], (36, 1, 1)))
    add(Case("BA_dropout_residual_ln_c0088a", g, BB + "var_mean_c0088addea6c/oracle.py",
             "_dropout_residual_ln_kernel",
             [A((8192, 768), "bfloat16"), A((8192, 768), "float32"), A((8192, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((6291456,), "bool"), A((6291456,), "float32"),
              A((6291456,), "float32"), A((6291456,), "bfloat16"), A((8192,), "float32"), K(768),
              K(1024)], (8192, 1, 1)))
    add(Case("BA_row_partials_7ab5c9", g, BB + "sum_sum_sum_7ab5c91b014a/oracle.py", "_row_partials_kernel",
             [A((2048, 768), "bfloat16"), A((768,), "float32"), A((2048, 768), "float32"), A((2048,), "float32"),
              A((2048, 768), "float32"), A((2048, 768), "bool"), A((2048, 768), "float32"),
              A((2048, 768), "bfloat16"), A((2048, 3, 1024), "float32"), K(768), K(0.0013020833333333333),
              K(1024)], (2048, 1, 1)))
    add(Case("BA_finalize_partials_7ab5c9", g, BB + "sum_sum_sum_7ab5c91b014a/oracle.py",
             "_finalize_partials_kernel",
             [A((2048, 3, 1024), "float32"), A((768,), "float32"), A((768,), "float32"), A((768,), "float32"),
              K(2048), K(768), K(16), K(1024)], (48, 1, 1)))
    add(Case("BA_relu_slice_add_mask_b8073d", g, BB + "pointwise_b8073dc4eda5/oracle.py",
             "_relu_slice_add_mask_kernel",
             [A((2973696,), "bfloat16"), A((2973696,), "bfloat16"), A((2973696,), "bfloat16"),
              A((2973696,), "bool"), K(1024)], (2904, 1, 1)))
    add(Case("BA_visformer_bn_mean_b51527", g, BB + "mean_b5152799a946/oracle.py", "_visformer_bn_mean_kernel",
             [A((128, 49, 768), "bfloat16"), A((128, 49, 768), "bfloat16"), A((768,), "bfloat16"),
              A((768,), "bfloat16"), A((768,), "bfloat16"), A((768,), "bfloat16"), A((128, 768), "bfloat16"),
              K(49), K(768), K(64), K(128)], (128, 6, 1)))
    add(Case("BA_partial_reduce_bbf2f7", g, BB + "sum_sum_bbf2f7bed268/oracle.py", "_partial_reduce_kernel",
             [A((512, 960), "bfloat16"), A((512, 49, 960), "bfloat16"), A((960,), "float32"), A((960,), "float32"),
              A((960,), "float32"), A((960,), "float32"), A((1,), "float32"), A((512, 960), "float32"),
              A((512, 960), "float32"), K(49), K(64), K(64)], (512, 15, 1)))
    add(Case("BA_finalize_bbf2f7", g, BB + "sum_sum_bbf2f7bed268/oracle.py", "_finalize_kernel",
             [A((512, 960), "float32"), A((512, 960), "float32"), A((960,), "float32"), A((960,), "float32"),
              A((960,), "float32"), A((960,), "float32"), A((3, 960), "float32"), K(64), K(64), K(512),
              K(3.985969387755102e-05)], (15, 1, 1)))
    add(Case("BA_epilogue_bbf2f7", g, BB + "sum_sum_bbf2f7bed268/oracle.py", "_epilogue_kernel",
             [A((512, 960), "bfloat16"), A((512, 49, 960), "bfloat16"), A((960,), "float32"), A((960,), "float32"),
              A((960,), "float32"), A((960,), "float32"), A((1,), "float32"), A((3, 960), "float32"),
              A((512, 64, 960), "bfloat16"), K(64), K(64), K(49)], (512, 15, 1)))
    add(Case("BA_xent_rows_93ab70", g, BB + "amax_sum_sum_93ab7097e9e5/oracle.py", "_xent_rows_kernel",
             [A((16384,), "int64", "index:30512"), A((500170752,), "bfloat16"), A((16384,), "float32"),
              A((16384,), "float32"), K(30522), K(30528), K(8192)], (16384, 1, 1)))
    add(Case("BA_mean_reduce_93ab70", g, BB + "amax_sum_sum_93ab7097e9e5/oracle.py", "_mean_reduce_kernel",
             [A((16384,), "float32"), A((16384,), "float32"), A((1,), "bfloat16"), K(16384),
              K(16384)], (1, 1, 1)))
    add(Case("BA_partial_reduce_3104a9", g, BB + "sum_sum_3104a9ce2ada/oracle.py", "_partial_reduce_kernel",
             [A((131072, 192), "bfloat16"), A((131072, 96), "bfloat16"), A((131072, 96), "bfloat16"),
              A((96,), "float32"), A((128, 96), "float32"), A((128, 96), "float32"), K(131072), K(96), K(192),
              K(1024), K(16)], (6, 128, 1)))
    add(Case("BA_finalize_3104a9", g, BB + "sum_sum_3104a9ce2ada/oracle.py", "_finalize_kernel",
             [A((128, 96), "float32"), A((128, 96), "float32"), A((96,), "float32"), A((96,), "float32"),
              A((96,), "float32"), A((96,), "float32"), A((96,), "float32"), A((96,), "float32"),
              A((96,), "float32"), K(128), K(128), K(96), K(16), K(7.62939453125e-06)], (6, 1, 1)))
    add(Case("BA_epilogue_3104a9", g, BB + "sum_sum_3104a9ce2ada/oracle.py", "_epilogue_kernel",
             [A((131072, 192), "bfloat16"), A((131072, 96), "bfloat16"), A((131072, 96), "bfloat16"),
              A((96,), "float32"), A((96,), "float32"), A((96,), "float32"), A((96,), "float32"),
              A((131072, 96), "bfloat16"), K(128)], (131072, 1, 1)))
    add(Case("BA_first_split_clone_e35c71", g, BB + "pointwise_e35c7162abbb/oracle.py", "_first_split_clone_kernel",
             [A((32, 512, 12, 64), "bfloat16"), A((32, 6, 512, 64), "bfloat16"), K(64)], (32, 6, 512)))
    add(Case("BA_second_split_clone_e35c71", g, BB + "pointwise_e35c7162abbb/oracle.py",
             "_second_split_clone_kernel",
             [A((32, 512, 12, 64), "bfloat16"), A((32, 512, 6, 64), "bfloat16"), K(64)], (32, 512, 6)))
    add(Case("BA_dropout_residual_ln_kernel_f32_f13145", g, BB + "var_mean_f13145f53165/oracle.py",
             "_dropout_residual_ln_kernel_f32",
             [A((16384, 768), "float32"), A((16384, 768), "float32"), A((16384, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((16384, 768), "bool"), A((16384, 768), "float32"),
              A((16384, 768), "float32"), A((16384,), "float32"), K(768), K(1024), K(1.1111111111111112),
              K(1e-12)], (16384, 1, 1)))
    add(Case("BA_token_mask_fanout_8cc7ad", g, BB + "pointwise_8cc7ad505f35/oracle.py", "_token_mask_fanout_kernel",
             [A((8192,), "int64", "index:100"), A((8192,), "int32"), A((8192,), "bool"), K(1024)], (8, 1, 1)))
    add(Case("BA_softmax_dropout_54a1c4", g, BB + "amax_sum_54a1c45ad37b/oracle.py", "_softmax_dropout_kernel",
             [A((24576, 128), "bfloat16"), A((24576, 128), "float32"), A((24576, 128), "float32"),
              A((24576, 128), "bfloat16"), A((24576,), "float32"), A((24576,), "float32"), A((24576, 128), "bool"),
              A((24576, 128), "bfloat16"), K(1), K(128)], (24576, 1, 1)))
    add(Case("BA_fnet_embedding_layernorm_ef83fb", g, BB + "var_mean_ef83fb4a9dbc/oracle.py",
             "_fnet_embedding_layernorm_kernel",
             [A((512,), "int64", "index:4"), A((32000, 768), "float32"), A((16384,), "int64", "index:31999"),
              A((4, 768), "float32"), A((512, 768), "float32"), A((512,), "int64", "index:510"),
              A((768,), "float32"), A((768,), "float32"), A((16384, 1024), "float32"), A((16384, 1024), "float32"),
              A((16384,), "float32"), K(512), K(768), K(1024)], (16384, 1, 1)))
    add(Case("BA_relu_dropout_masks_9160af", g, BB + "pointwise_9160afb21da2/oracle.py",
             "_relu_dropout_masks_kernel",
             [A((16777216,), "bfloat16"), A((16777216,), "float32"), A((16777216,), "bool"),
              A((16777216,), "bfloat16"), A((16777216,), "bool"), K(1024)], (16384, 1, 1)))
    add(Case("BA_softmax_dropout_random_e06a68", g, BB + "amax_sum_e06a68534c7d/oracle.py",
             "_softmax_dropout_random_kernel",
             [A((24576, 128), "bfloat16"), A((24576, 128), "float32"), A((24576, 128), "float32"),
              A((24576, 128), "bfloat16"), A((24576,), "float32"), A((24576,), "float32"), A((24576, 128), "bool"),
              A((24576, 128), "bfloat16"), K(8), K(128)], (3072, 1, 1)))
    add(Case("BA_dropout_residual_layernorm_d7e9d3", g, BB + "var_mean_d7e9d309a0c1/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((8192, 768), "bfloat16"), A((8192, 768), "float32"), A((8192, 768), "float32"),
              A((768,), "float32"), A((768,), "float32"), A((8192, 768), "bool"), A((8192, 768), "float32"),
              A((8192, 768), "float32"), A((8192, 768), "bfloat16"), A((8192, 1), "float32"), K(768), K(1024),
              K(1)], (8192, 1, 1)))
    add(Case("BA_gelu_dropout_15bfae", g, BB + "pointwise_15bfae9e296c/oracle.py", "_gelu_dropout_kernel",
             [A((6291456,), "bfloat16"), A((6291456,), "float32"), A((6291456,), "bool"),
              A((6291456,), "bfloat16"), K(1024)], (6144, 1, 1)))
    add(Case("BA_producer_flat_e5ed56", g, BB + "sum_sum_e5ed56d5d094/oracle.py", "_producer_flat_kernel",
             [A((702464,), "bfloat16"), A((702464,), "bfloat16"), A((702464,), "float32"), A((1,), "bfloat16"),
              A((702464,), "bfloat16"), A((224,), "float32"), A((224,), "float32"), K(224), K(784), K(512),
              K(702464)], (1372, 1, 1)))
    add(Case("BA_epilogue_flat_e5ed56", g, BB + "sum_sum_e5ed56d5d094/oracle.py", "_epilogue_flat_kernel",
             [A((702464,), "bfloat16"), A((702464,), "float32"), A((224,), "float32"), A((224,), "float32"),
              A((224,), "float32"), A((224,), "float32"), A((702464,), "bfloat16"), K(224), K(784), K(512),
              K(702464), K(0.00031887755102040814)], (1372, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-ba-launch"))]
