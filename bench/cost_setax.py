"""Validation set AX: 32 launches of 21 more files of eellison/better-benchmark's cuTile ports of
PyTorch Inductor's fused kernels (66bb464, `--repo bbench=DIR`), drawn as sets AG to AW were, from
the files none of them nor sets W and Y used, after set AW was drawn, while model version 87 was the
latest; version 87's predictions are committed before the device run.

The draw (`python bench/cost_bbench_draw.py AX BBENCH_DIR OUT_DIR` repeats it): of the 1,727
`repros_cutile/canonical/*/oracle.py` files, less the 434 of sets W, Y and AG to AW,
`random.Random(53).sample(names, 80)` over the sorted names; the files taken in that order until 32
launches, every launch of a file or none, each file's `oracle_forward` run once at its first shape
point with tilescope's CPU device layer and torch on the CPU, `ct.launch` recording each launch.
No file was passed over. So the sizes, tile sizes and grids are the files' own; nothing is scaled.
Files with several kernels give each distinct launch (a second launch of one kernel at other sizes:
the suffix `_2`). The files' host imports are stood in as set Y's are (cost_sety.HOST_MODULES).
Each kernel is built dynamically shaped (`validate-ax`) and as tilescope's launch builds it
(`validate-ax-launch`).
"""
from __future__ import annotations

from typing import List

from costval_case import A, Case, K
from cost_setag import BB    # set AG's checkout


def setax_cases(d: int = 1) -> List[Case]:
    """The drawn launches at the files' own sizes. `d` is not applied: the files' constants fix the
    sizes their grids cover."""
    out: List[Case] = []
    add = out.append
    g = "validate-ax"
    add(Case("AX_partial_stats_1fc003", g, BB + "var_mean_mean_1fc0030c74ea/oracle.py", "_partial_stats_kernel",
             [A((1280, 4704), "bfloat16"), A((5, 1280), "float32"), A((5, 1280), "float32"), K(4704),
              K(1024)], (1280, 5, 1)))
    add(Case("AX_finalize_stats_1fc003", g, BB + "var_mean_mean_1fc0030c74ea/oracle.py", "_finalize_stats_kernel",
             [A((5, 1280), "float32"), A((5, 1280), "float32"), A((1280,), "float32"), A((1280,), "float32"),
              A((1280,), "float32"), A((1280,), "float32"), K(4704), K(5), K(8), K(1e-05), K(0.1),
              K(1.0002126302360195)], (1280, 1, 1)))
    add(Case("AX_relu6_mean_dropout_epilogue_1fc003", g, BB + "var_mean_mean_1fc0030c74ea/oracle.py",
             "_relu6_mean_dropout_epilogue_kernel",
             [A((122880, 49), "bfloat16"), A((1280,), "float32"), A((1280,), "float32"), A((122880,), "float32"),
              A((1280,), "float32"), A((1280,), "float32"), A((122880,), "bool"), A((122880,), "bfloat16"),
              K(1280), K(49), K(64), K(0.2), K(1.25)], (122880, 1, 1)))
    add(Case("AX_gelu_dropout_8a8a29", g, BB + "pointwise_8a8a29b44c79/oracle.py", "_gelu_dropout_kernel",
             [A((6291456,), "bfloat16"), A((6291456,), "float32"), A((6291456,), "bool"),
              A((6291456,), "bfloat16"), K(1024)], (6144, 1, 1)))
    add(Case("AX_column_sum_partial_c304a1", g, BB + "sum_sum_sum_c304a1364550/oracle.py",
             "_column_sum_partial_kernel",
             [A((4096, 4096), "bfloat16"), A((32, 4096), "float32"), K(128), K(64)], (64, 32, 1)))
    add(Case("AX_finalize_column_sum_c304a1", g, BB + "sum_sum_sum_c304a1364550/oracle.py",
             "_finalize_column_sum_kernel",
             [A((32, 4096), "float32"), A((4096,), "float32"), K(32), K(16)], (256, 1, 1)))
    add(Case("AX_bn_stats_3b8a23", g, BB + "var_mean_3b8a231721ed/oracle.py", "_bn_stats_kernel",
             [A((512, 512), "bfloat16"), A((512,), "float32"), A((512,), "float32"), A((512,), "float32"), K(512),
              K(512)], (512, 1, 1)))
    add(Case("AX_bn_activation_3b8a23", g, BB + "var_mean_3b8a231721ed/oracle.py", "_bn_activation_kernel",
             [A((262144,), "bfloat16"), A((512,), "float32"), A((512,), "float32"), A((512,), "float32"),
              A((512,), "float32"), A((262144,), "bfloat16"), K(262144), K(512), K(16), K(256)], (1024, 1, 1)))
    add(Case("AX_dropout_residual_layernorm_1c8a15", g, BB + "var_mean_1c8a151acad6/oracle.py",
             "_dropout_residual_layernorm_kernel",
             [A((4096, 2048), "bfloat16"), A((4096, 2048), "float32"), A((4096, 2048), "float32"),
              A((2048,), "float32"), A((2048,), "float32"), A((4096, 2048), "bool"), A((4096, 2048), "float32"),
              A((4096, 2048), "float32"), A((4096, 2048), "bfloat16"), A((4096,), "float32"), K(1536), K(1536.0),
              K(2048)], (4096, 1, 1)))
    add(Case("AX_embedding_layernorm_dropout_5d4968", g, BB + "var_mean_5d4968220975/oracle.py",
             "_embedding_layernorm_dropout_kernel",
             [A((128100, 1536), "float32"), A((4096,), "int64", "index:128065"), A((512, 1536), "float32"),
              A((512,), "int64", "index:512"), A((1536,), "float32"), A((1536,), "float32"),
              A((4096, 1536), "float32"), A((4096, 2048), "float32"), A((512, 2048), "float32"),
              A((4096,), "float32"), A((4096,), "float32"), A((4096, 2048), "bool"), A((4096, 2048), "float32"),
              A((4096, 2048), "bfloat16"), K(4096), K(512), K(1536), K(2048)], (4096, 1, 1)))
    add(Case("AX_add_clone_copy_4289ed", g, BB + "sum_sum_4289edc98a8d/oracle.py", "_add_clone_copy_kernel",
             [A((8028160,), "bfloat16"), A((8028160,), "bfloat16"), A((8028160,), "bfloat16"),
              A((8028160,), "bfloat16"), K(16), K(256)], (1, 2560, 1)))
    add(Case("AX_partial_reduce_4289ed", g, BB + "sum_sum_4289edc98a8d/oracle.py", "_partial_reduce_kernel",
             [A((8028160,), "bfloat16"), A((4014080,), "bfloat16"), A((40,), "float32"), A((3920,), "float32"),
              A((3920,), "float32"), K(16), K(1024)], (245, 1, 1)))
    add(Case("AX_finalize_partials_4289ed", g, BB + "sum_sum_4289edc98a8d/oracle.py", "_finalize_partials_kernel",
             [A((3920,), "float32"), A((3920,), "float32"), A((40,), "float32"), A((40,), "float32"),
              A((40,), "float32"), A((40,), "float32"), A((40,), "float32"), A((40,), "float32"),
              A((40,), "float32"), K(8), K(128)], (5, 1, 1)))
    add(Case("AX_epilogue_4289ed", g, BB + "sum_sum_4289edc98a8d/oracle.py", "_epilogue_kernel",
             [A((8028160,), "bfloat16"), A((4014080,), "bfloat16"), A((40,), "float32"), A((40,), "float32"),
              A((40,), "float32"), A((40,), "float32"), A((4014080,), "bfloat16"), K(512)], (7840, 1, 1)))
    add(Case("AX_bilinear_scatter_be6b94", g, BB + "sum_sum_sum_be6b9442c621/oracle.py", "_bilinear_scatter_kernel",
             [A((1, 256, 320, 479), "bfloat16"), A((320,), "float32"), A((478,), "float32"),
              A((320,), "int64", "index:160"), A((478,), "int64", "index:237"), A((478,), "int64", "index:239"),
              A((320,), "int64", "index:160"), A((128, 160, 239), "float32"), A((128, 160, 239), "float32"),
              A((128, 160, 239), "float32"), A((128, 160, 239), "float32"), K(128), K(152960), K(320), K(478),
              K(160), K(239), K(256)], (128, 598, 1)))
    add(Case("AX_bn_reduce_be6b94", g, BB + "sum_sum_sum_be6b9442c621/oracle.py", "_bn_reduce_kernel",
             [A((128, 38240), "bfloat16"), A((1, 128, 160, 239), "bfloat16"), A((128,), "float32"),
              A((128,), "float32"), A((128,), "float32"), A((128,), "float32"), A((1,), "bfloat16"),
              A((128,), "float32"), A((128,), "float32"), K(38240), K(239), K(512)], (128, 75, 1)))
    add(Case("AX_bn_output_be6b94", g, BB + "sum_sum_sum_be6b9442c621/oracle.py", "_bn_output_kernel",
             [A((128, 38240), "bfloat16"), A((1, 128, 160, 239), "bfloat16"), A((128,), "float32"),
              A((128,), "float32"), A((128,), "float32"), A((128,), "float32"), A((1,), "bfloat16"),
              A((128,), "float32"), A((128,), "float32"), A((1, 128, 160, 239), "bfloat16"), A((128,), "float32"),
              K(38240), K(239), K(2.615062761506276e-05), K(512)], (128, 75, 1)))
    add(Case("AX_softmax_dropout_90f134", g, BB + "amax_sum_90f134112275/oracle.py", "_softmax_dropout_kernel",
             [A((24576, 128), "bfloat16"), A((24576, 128), "float32"), A((24576,), "float32"),
              A((24576,), "float32"), A((24576, 128), "bool"), A((24576, 128), "bfloat16"),
              K(128)], (24576, 1, 1)))
    add(Case("AX_softmax_dropout_d857d0", g, BB + "amax_sum_amax_d857d0afb1ee/oracle.py", "_softmax_dropout_kernel",
             [A((24576, 128), "bfloat16"), A((32, 6, 128, 128), "float32"), A((24576, 128), "float32"),
              A((24576,), "float32"), A((24576,), "float32"), A((24576, 128), "bool"), A((24576, 128), "bfloat16"),
              K(6), K(128), K(128), K(128)], (24576, 1, 1)))
    add(Case("AX_dual_bn_relu_shuffle_3c17f0", g, BB + "pointwise_3c17f0120a71/oracle.py",
             "_dual_bn_relu_shuffle_kernel",
             [A((116,), "bfloat16"), A((64, 116, 14, 14), "bfloat16"), A((116,), "bfloat16"),
              A((116,), "bfloat16"), A((116,), "bfloat16"), A((116,), "bfloat16"),
              A((64, 116, 14, 14), "bfloat16"), A((116,), "bfloat16"), A((116,), "bfloat16"),
              A((116,), "bfloat16"), A((64, 232, 14, 14), "bfloat16"), K(14), K(14), K(16), K(16)], (64, 116, 1)))
    add(Case("AX_col_sum_139d37", g, BB + "sum_sum_139d37b65771/oracle.py", "_col_sum_kernel",
             [A((2048, 20005), "bfloat16"), A((20005,), "float32"), K(2048), K(20005), K(64),
              K(32)], (626, 1, 1)))
    add(Case("AX_head_layout_cast_03afed", g, BB + "pointwise_03afed5ec8e9/oracle.py", "_head_layout_cast_kernel",
             [A((32, 128, 16, 128), "bfloat16"), A((32, 16, 128, 128), "float32"), K(128)], (32, 16, 128)))
    add(Case("AX_gelu_dropout_d62e96", g, BB + "pointwise_d62e96ec5fbd/oracle.py", "_gelu_dropout_kernel",
             [A((33554432,), "bfloat16"), A((33554432,), "float32"), A((33554432,), "bool"),
              A((33554432,), "bfloat16"), K(1024)], (32768, 1, 1)))
    add(Case("AX_log_softmax_k2_bf16_d5c5da", g, BB + "amax_sum_d5c5da805704/oracle.py",
             "_log_softmax_k2_bf16_kernel",
             [A((16, 2), "bfloat16"), A((16, 2), "bfloat16"), K(16)], (1, 1, 1)))
    add(Case("AX_safe_softmax_dropout_cec33b", g, BB + "amax_sum_any_cec33bc33361/oracle.py",
             "_safe_softmax_dropout_kernel",
             [A((131072, 128), "bfloat16"), A((131072, 128), "bfloat16"), A((131072, 128), "float32"),
              A((131072, 128), "bfloat16"), A((131072, 128), "bool"), A((131072, 128), "bfloat16"), K(128),
              K(128)], (131072, 1, 1)))
    add(Case("AX_producer_418263", g, BB + "sum_sum_41826392af68/oracle.py", "_producer_kernel",
             [A((5820416,), "bfloat16"), A((5820416,), "float32"), A((58,), "float32"), A((58,), "float32"), K(58),
              K(45472), K(512), K(5820416)], (11368, 1, 1)))
    add(Case("AX_epilogue_418263", g, BB + "sum_sum_41826392af68/oracle.py", "_epilogue_kernel",
             [A((5820416,), "bfloat16"), A((5820416,), "float32"), A((58,), "float32"), A((58,), "float32"),
              A((58,), "float32"), A((58,), "float32"), A((5820416,), "bfloat16"), K(58), K(45472), K(512),
              K(5820416), K(9.964923469387754e-06)], (11368, 1, 1)))
    add(Case("AX_causal_source_mask_a71731", g, BB + "pointwise_a71731ed83c7/oracle.py",
             "_causal_source_mask_kernel",
             [A((4, 2048), "float32"), A((4, 2048, 2048), "bool"), K(2048), K(32), K(128)], (4, 64, 16)))
    add(Case("AX_channel_sum_77f93c", g, BB + "sum_sum_sum_77f93c745c34/oracle.py", "_channel_sum_kernel",
             [A((128, 256, 64), "float32"), A((256,), "float32"), K(256), K(8192), K(64), K(2097152),
              K(1)], (2, 1, 1)))
    add(Case("AX_channel_sum_77f93c_2", g, BB + "sum_sum_sum_77f93c745c34/oracle.py", "_channel_sum_kernel",
             [A((128, 384, 64), "float32"), A((384,), "float32"), K(384), K(8192), K(64), K(3145728),
              K(1)], (3, 1, 1)))
    add(Case("AX_bn_residual_6637e7", g, BB + "pointwise_6637e72b3b06/oracle.py", "_bn_residual_kernel",
             [A((16, 160, 49), "bfloat16"), A((160,), "bfloat16"), A((160,), "bfloat16"), A((160,), "bfloat16"),
              A((160,), "bfloat16"), A((16, 160, 49), "bfloat16"), A((16, 160, 49), "bfloat16"), K(160), K(49),
              K(1)], (16, 160, 49)))
    add(Case("AX_relu_le_a71591", g, BB + "pointwise_a7159158fa8e/oracle.py", "_relu_le_kernel",
             [A((262144,), "bfloat16"), A((262144,), "bool"), K(4096)], (64, 1, 1)))

    return [c for case in out for c in (case, case.launched("validate-ax-launch"))]
